package dev.sluice.rules;

import dev.sluice.Algorithm;
import dev.sluice.KeyScope;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiterBuilder;
import dev.sluice.Rule;
import dev.sluice.RuleSet;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Sluice's rule file schema (see docs/rule-files.md): a {@code default} rule and a list of {@code rules}, each
 * for a user, an API or both. A rule has its limits (inline for one, under {@code limits} for several) and its
 * options. Every check of the rule model is made here, at the field it concerns.
 */
final class SluiceFormat {

    private static final Set<String> ROOT = names("default", "rules");
    private static final Set<String> LIMIT = names("algorithm", "limit", "window", "burst", "alignedTo");
    private static final Set<String> OPTIONS = names("name", "limits", "shadow", "additive", "countedPer", "backend",
            "maxKeys");
    private static final Set<String> DEFAULT_RULE = union(LIMIT, OPTIONS);
    private static final Set<String> SCOPED_RULE = union(names("user", "api"), DEFAULT_RULE);

    private SluiceFormat() {
    }

    static RuleSet read(Node root) throws RuleFileException {
        Fields.expect(root, Node.Kind.OBJECT, "an object with 'default' and 'rules'");
        Fields.onlyKnown(root, ROOT);
        RuleSet.Builder b = RuleSet.builder();
        Node def = Fields.required(root, "default", "the rule that applies when no other does");
        b.defaultRule(rule(Fields.expect(def, Node.Kind.OBJECT, "a rule (an object)"), DEFAULT_RULE));
        Node rules = root.field("rules");
        if (rules != null) {
            Map<String, Node> scopes = new HashMap<>();
            for (Node entry : Fields.expect(rules, Node.Kind.ARRAY, "a list of rules").items) {
                scoped(Fields.expect(entry, Node.Kind.OBJECT, "a rule (an object with user, api or both)"), b, scopes);
            }
        }
        return b.build();
    }

    private static void scoped(Node entry, RuleSet.Builder b, Map<String, Node> scopes) throws RuleFileException {
        Fields.onlyKnown(entry, SCOPED_RULE);
        String user = entry.has("user") ? Fields.string(entry.field("user")) : null;
        String api = entry.has("api") ? Fields.string(entry.field("api")) : null;
        if (user == null && api == null) {
            throw entry.error("a rule needs 'user', 'api' or both (the rule for everyone else is 'default')");
        }
        String scope = user == null ? "api '" + api + "'" : api == null ? "user '" + user + "'"
                : "(user '" + user + "', api '" + api + "')";
        Node first = scopes.putIfAbsent(scope, entry);
        if (first != null) {
            throw entry.error("a second rule for " + scope + " (the first is at line " + first.line
                    + "); one rule per scope: put both limits in one rule's 'limits'");
        }
        Rule rule = rule(entry, SCOPED_RULE);
        if (user == null) {
            b.addApi(api, rule);
        } else if (api == null) {
            b.addUser(user, rule);
        } else {
            b.addUserApi(user, api, rule);
        }
    }

    private static Rule rule(Node r, Set<String> allowed) throws RuleFileException {
        Fields.onlyKnown(r, allowed);
        Node list = r.field("limits");
        List<RateLimitConfig> configs = new ArrayList<>();
        if (list != null) {
            for (String inline : LIMIT) {
                if (r.has(inline)) {
                    throw r.field(inline).error("a rule has either 'limits' or one inline limit, not both: move '"
                            + inline + "' into an item of 'limits'");
                }
            }
            Fields.expect(list, Node.Kind.ARRAY, "a list of limits");
            if (list.items.isEmpty()) {
                throw list.error("needs at least one limit");
            }
            for (Node item : list.items) {
                Fields.expect(item, Node.Kind.OBJECT, "a limit (algorithm, limit, window, ...)");
                Fields.onlyKnown(item, LIMIT);
                configs.add(limit(item));
            }
        } else {
            configs.add(limit(r));
        }
        Rule rule;
        try {
            rule = Rule.of(configs.toArray(new RateLimitConfig[0]));
        } catch (IllegalArgumentException e) {
            throw Fields.refused(list == null ? r : list, e);
        }
        return options(r, rule);
    }

    private static Rule options(Node r, Rule rule) throws RuleFileException {
        Rule out = rule;
        Node n = null;
        try {
            if ((n = r.field("name")) != null) {
                out = out.named(Fields.string(n));
            }
            if ((n = r.field("shadow")) != null && Fields.bool(n)) {
                out = out.asShadow();
            }
            if ((n = r.field("additive")) != null && Fields.bool(n)) {
                out = out.additive();
            }
            if ((n = r.field("countedPer")) != null) {
                out = out.countedPer(Fields.choice(n, KeyScope.class));
            }
            if ((n = r.field("backend")) != null) {
                out = out.onBackend(Fields.string(n));
            }
            if ((n = r.field("maxKeys")) != null) {
                out = out.maxKeys((int) Fields.integer(n, 1, RateLimiterBuilder.MAX_KEYS, ""));
            }
        } catch (IllegalArgumentException e) {
            throw Fields.refused(n, e);
        }
        return out;
    }

    private static RateLimitConfig limit(Node l) throws RuleFileException {
        Algorithm algorithm = Fields.choice(Fields.required(l, "algorithm", "one of token_bucket, fixed_window, "
                + "sliding_window_log, sliding_window_counter, leaky_bucket"), Algorithm.class);
        Node windowNode = Fields.required(l, "window", "a duration such as 1s, 10m, 1h, 1d");
        Duration window = Fields.duration(windowNode, RateLimitConfig.MIN_WINDOW, RateLimitConfig.MAX_WINDOW);
        String per = " for " + algorithm.name().toLowerCase(Locale.ROOT) + " per " + windowNode.text;
        long limit = Fields.integer(Fields.required(l, "limit", "the number of permits per window"), 1,
                RateLimitConfig.maxLimit(algorithm, window), per);
        RateLimitConfig config = RateLimitConfig.of(algorithm, limit, window);
        Node burst = l.field("burst");
        if (burst != null) {
            if (algorithm != Algorithm.TOKEN_BUCKET && algorithm != Algorithm.LEAKY_BUCKET) {
                throw burst.error("applies to token_bucket and leaky_bucket only, not "
                        + algorithm.name().toLowerCase(Locale.ROOT));
            }
            config = config.withBurst(Fields.integer(burst, 1, config.maxBurst(), " for a limit of " + limit + " per "
                    + windowNode.text));
        }
        Node align = l.field("alignedTo");
        if (align != null) {
            ZoneOffset offset = Fields.offset(align);
            try {
                config = config.alignedTo(offset);
            } catch (IllegalArgumentException e) {
                throw Fields.refused(align, e);
            }
        }
        return config;
    }

    private static Set<String> names(String... names) {
        return new LinkedHashSet<>(Arrays.asList(names));
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> s = new LinkedHashSet<>(a);
        s.addAll(b);
        return s;
    }
}
