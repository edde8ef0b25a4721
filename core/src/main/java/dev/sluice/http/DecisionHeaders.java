package dev.sluice.http;

import dev.sluice.Decision;
import dev.sluice.RateLimiterService;
import dev.sluice.Rule;
import dev.sluice.RuleSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * Writes the {@link RateLimitHeaders} fields of a {@link RateLimiterService} decision, for every HTTP integration
 * alike: the one place that turns a (user, api, decision) into response fields.
 *
 * <p>Policy names are those the decision carries: a name the rule was given, else its position ({@code default},
 * {@code user}, {@code api}, {@code user-api}, with {@code -additive}), so that no user name or path leaks into a
 * header unless the operator named a rule so. {@link #headersFor} finds the enforcing rule's headers with the
 * service's precedence, for callers that hold no decision.
 *
 * <p>Thread-safe. For a rule already seen, finding its headers allocates nothing; the field values
 * {@code RateLimit} and {@code Retry-After} are new Strings per decision (see {@link RateLimitHeaders}).
 */
public final class DecisionHeaders {

    private final RateLimiterService service;
    /** Headers per rule, for the rule set they were built from; replaced whole when the rule set changes. */
    private volatile HeaderCache cache;

    public DecisionHeaders(RateLimiterService service) {
        this.service = Objects.requireNonNull(service, "service must not be null");
    }

    /**
     * Writes the fields of {@code decision}, taken for (user, api), to {@code out}, from the decision alone
     * ({@link RateLimitHeaders#writeDecision}): the limits the service applied name the policies, so a request that
     * races a reconfiguration still names the rules that decided it. Nothing if no rule enforces.
     */
    public void write(String user, String api, Decision decision, BiConsumer<String, String> out) {
        RateLimitHeaders.writeDecision(decision, out);
    }

    /** The headers of the enforcing rule for (user, api), or null when only shadow rules apply. */
    public RateLimitHeaders headersFor(String user, String api) {
        RuleSet rules = service.rules();
        // Volatile read: a cache built for this very rule set is valid; any other is replaced below.
        HeaderCache c = cache;
        if (c == null || c.rules != rules) {
            c = new HeaderCache(rules);
            // Volatile write: publishes an empty cache; a racing thread at worst builds its own and one wins.
            cache = c;
        }
        Rule r = rules.userApiRule(user, api);
        if (enforces(r)) {
            return c.headers(HeaderCache.USER_API, r);
        }
        r = rules.apiRule(api);
        if (enforces(r)) {
            return c.headers(HeaderCache.API, r);
        }
        r = rules.userRule(user);
        if (enforces(r)) {
            return c.headers(HeaderCache.USER, r);
        }
        r = rules.defaultRule();
        return enforces(r) ? c.headers(HeaderCache.DEFAULT, r) : null;
    }

    private static boolean enforces(Rule rule) {
        return rule != null && !rule.shadow();
    }

    /**
     * The headers of every rule of one rule set, built when the set is first met: one identity map per scope kind
     * (equal rules at two kinds keep their own policy names), read-only once published, so a look-up neither
     * locks nor allocates (a Rule's own hashCode would box its fields).
     */
    private static final class HeaderCache {
        static final int USER_API = 0;
        static final int API = 1;
        static final int USER = 2;
        static final int DEFAULT = 3;
        private static final String[] KINDS = {"user-api", "api", "user", "default"};

        final RuleSet rules;
        private final List<Map<Rule, RateLimitHeaders>> byKind = List.of(new IdentityHashMap<>(),
                new IdentityHashMap<>(), new IdentityHashMap<>(), new IdentityHashMap<>());

        HeaderCache(RuleSet rules) {
            this.rules = rules;
            rules.userApiRules().values().forEach(m -> m.values().forEach(r -> add(USER_API, r)));
            rules.apiRules().values().forEach(r -> add(API, r));
            rules.userRules().values().forEach(r -> add(USER, r));
            add(DEFAULT, rules.defaultRule());
        }

        private void add(int kind, Rule rule) {
            if (enforces(rule)) {
                byKind.get(kind).computeIfAbsent(rule, r -> RateLimitHeaders.of(KINDS[kind], r));
            }
        }

        RateLimitHeaders headers(int kind, Rule rule) {
            return byKind.get(kind).get(rule);
        }
    }
}
