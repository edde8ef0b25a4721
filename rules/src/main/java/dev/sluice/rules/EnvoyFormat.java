package dev.sluice.rules;

import dev.sluice.Algorithm;
import dev.sluice.KeyScope;
import dev.sluice.RateLimitConfig;
import dev.sluice.Rule;
import dev.sluice.RuleSet;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The (user, api) subset of envoyproxy/ratelimit's configuration: {@code domain} and {@code descriptors} keyed
 * {@code user} and {@code api}, at most two levels deep, each {@code rate_limit} a fixed window of one unit
 * (second, minute, hour, day) on epoch-aligned windows, as that service counts them.
 *
 * <pre>
 * user=V                  user rule for V, counted per user     user (no value)        default, counted per user
 * api=V                   api rule for V, counted per API       api (no value)         default, counted per API
 * user=U / api=A          (U, A) rule                           user / api (no values) default, per (user, API)
 * user=U / api            user rule for U, per (user, API)      user / api=A           api rule for A, per (user, API)
 * </pre>
 * (api above user nests the same way.) Sluice then resolves as it always does (the most specific rule wins),
 * where the Envoy service applies every level a request sends. Everything else is rejected with the reason:
 * other keys, deeper nesting, wildcard values, {@code unlimited}, {@code replaces}, {@code detailed_metric}, a
 * descriptor without a limit, a limit of 0, and two descriptors that map onto the same Sluice scope.
 */
final class EnvoyFormat {

    private static final Set<String> ROOT = names("domain", "descriptors");
    private static final Set<String> DESCRIPTOR = names("key", "value", "rate_limit", "descriptors", "shadow_mode");
    private static final Set<String> RATE_LIMIT = names("unit", "requests_per_unit", "name");
    private static final List<String> UNITS = Arrays.asList("second", "minute", "hour", "day");
    private static final Duration[] UNIT_WINDOWS = {Duration.ofSeconds(1), Duration.ofMinutes(1), Duration.ofHours(1),
        Duration.ofDays(1)};

    private final Map<String, Node> scopes = new HashMap<>();
    private final RuleSet.Builder rules = RuleSet.builder();
    private boolean hasDefault;

    private EnvoyFormat() {
    }

    static RuleSet read(Node root, Rule fallbackDefault) throws RuleFileException {
        Fields.expect(root, Node.Kind.OBJECT, "an object with 'domain' and 'descriptors'");
        Fields.onlyKnown(root, ROOT);
        Fields.string(Fields.required(root, "domain", "the domain's name"));
        EnvoyFormat f = new EnvoyFormat();
        Node list = root.field("descriptors");
        if (list != null) {
            for (Node d : Fields.expect(list, Node.Kind.ARRAY, "a list of descriptors").items) {
                f.descriptor(d, null, null);
            }
        }
        if (!f.hasDefault) {
            f.rules.defaultRule(fallbackDefault);
        }
        return f.rules.build();
    }

    /** One descriptor under {@code parentKey = parentValue} (both null at the top level). */
    private void descriptor(Node d, String parentKey, String parentValue) throws RuleFileException {
        Fields.expect(d, Node.Kind.OBJECT, "a descriptor (key, value, rate_limit, descriptors)");
        for (String unsupported : new String[] {"detailed_metric", "value_to_metric"}) {
            if (d.has(unsupported)) {
                throw d.field(unsupported).error("does not map to Sluice rules (Sluice's metrics are per rule); remove it");
            }
        }
        Fields.onlyKnown(d, DESCRIPTOR);
        Node keyNode = Fields.required(d, "key", "user or api");
        String key = Fields.string(keyNode);
        if (!key.equals("user") && !key.equals("api")) {
            throw keyNode.error("key '" + key + "' does not map to Sluice rules; only 'user' and 'api' descriptors do");
        }
        if (key.equals(parentKey)) {
            throw keyNode.error("'" + key + "' nested under '" + key + "' does not map; nest api under user or user under api");
        }
        String value = d.has("value") ? Fields.string(d.field("value")) : null;
        if (value != null && value.endsWith("*")) {
            throw d.field("value").error("wildcard values ('" + value + "') do not map; name each " + key);
        }
        Node limit = d.field("rate_limit");
        Node nested = d.field("descriptors");
        if (limit == null && nested == null) {
            throw d.error("a descriptor with neither rate_limit nor descriptors (no limit) does not map; remove it");
        }
        if (limit != null) {
            Rule rule = rule(limit, d.has("shadow_mode") && Fields.bool(d.field("shadow_mode")));
            place(d, key, value, parentKey, parentValue, rule);
        } else if (d.has("shadow_mode")) {
            throw d.field("shadow_mode").error("applies to a descriptor with a rate_limit");
        }
        if (nested != null) {
            if (parentKey != null) {
                throw nested.error("nesting deeper than user and api does not map");
            }
            for (Node child : Fields.expect(nested, Node.Kind.ARRAY, "a list of descriptors").items) {
                descriptor(child, key, value);
            }
        }
    }

    private static Rule rule(Node limit, boolean shadow) throws RuleFileException {
        Fields.expect(limit, Node.Kind.OBJECT, "a rate limit (unit, requests_per_unit)");
        for (String unsupported : new String[] {"unlimited", "replaces"}) {
            if (limit.has(unsupported)) {
                throw limit.field(unsupported).error("does not map to Sluice rules (every Sluice rule limits; "
                        + "the most specific rule replaces the others); remove it");
            }
        }
        Fields.onlyKnown(limit, RATE_LIMIT);
        Node unitNode = Fields.required(limit, "unit", "one of " + String.join(", ", UNITS));
        String unit = Fields.string(unitNode);
        int u = UNITS.indexOf(unit);
        if (u < 0) {
            throw unitNode.error("'" + unit + "' does not map; one of " + String.join(", ", UNITS));
        }
        Duration window = UNIT_WINDOWS[u];
        long requests = Fields.integer(Fields.required(limit, "requests_per_unit", "the requests per " + unit), 1,
                RateLimitConfig.maxLimit(Algorithm.FIXED_WINDOW, window), " (a limit of 0 does not map)");
        Rule rule = Rule.of(RateLimitConfig.of(Algorithm.FIXED_WINDOW, requests, window));
        Node name = limit.field("name");
        if (name != null) {
            try {
                rule = rule.named(Fields.string(name));
            } catch (IllegalArgumentException e) {
                throw Fields.refused(name, e);
            }
        }
        return shadow ? rule.asShadow() : rule;
    }

    private void place(Node d, String key, String value, String parentKey, String parentValue, Rule rule)
            throws RuleFileException {
        String user = key.equals("user") ? value : parentValue;
        String api = key.equals("api") ? value : parentValue;
        if (parentKey == null) {
            // One level: counted on the key it names, for one value or (no value) for each.
            user = key.equals("user") ? value : null;
            api = key.equals("api") ? value : null;
            rule = rule.countedPer(key.equals("user") ? KeyScope.USER : KeyScope.API);
        }
        String scope = user == null && api == null ? "the default rule"
                : user == null ? "the rule of api '" + api + "'"
                : api == null ? "the rule of user '" + user + "'"
                : "the rule of (user '" + user + "', api '" + api + "')";
        Node first = scopes.putIfAbsent(scope, d);
        if (first != null) {
            throw d.error("maps onto " + scope + ", as the descriptor at line " + first.line + " does; Sluice has one "
                    + "rule per scope");
        }
        if (user == null && api == null) {
            rules.defaultRule(rule);
            hasDefault = true;
        } else if (user == null) {
            rules.addApi(api, rule);
        } else if (api == null) {
            rules.addUser(user, rule);
        } else {
            rules.addUserApi(user, api, rule);
        }
    }

    private static Set<String> names(String... names) {
        return new LinkedHashSet<>(Arrays.asList(names));
    }
}
