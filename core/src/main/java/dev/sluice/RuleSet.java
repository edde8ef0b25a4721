package dev.sluice;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * A whole set of rules, immutable, to install at once with {@link RateLimiterService#replaceRules(RuleSet)} (for
 * example after reloading a file).
 *
 * <p>Positions, most specific first: (user, api), api, user, default. Each position holds at most one ordinary
 * rule (enforcing or shadow) and at most one {@linkplain Rule#additive() additive} rule; the builder files a rule by
 * its {@link Rule#isAdditive()} flag, so {@code addUser("alice", r)} and {@code addUser("alice", r.additive())} are
 * both allowed, and a second rule of the same kind at one position is an error at build time ({@code add*}) or
 * replaces the first ({@code put*}). The default position must hold an ordinary rule.
 *
 * <p>Which rules apply to a request for (user, api): the most specific ordinary rule among (user, api), api, user
 * and default (the others at those positions are ignored), and every additive rule at those four positions. A
 * request is admitted only if every limit of every applicable enforcing rule admits.
 *
 * <p>A file loader maps each entry to one call: position plus rule, e.g. {@code addApi("/search", rule)}.
 */
public final class RuleSet {

    final Rule defaultRule;
    final Map<String, Rule> users;
    final Map<String, Rule> apis;
    final Map<String, Map<String, Rule>> userApis;
    /** The additive rules, by position; the default's is null when there is none. */
    final Rule additiveDefault;
    final Map<String, Rule> additiveUsers;
    final Map<String, Rule> additiveApis;
    final Map<String, Map<String, Rule>> additiveUserApis;

    private RuleSet(Builder b) {
        this.defaultRule = b.defaultRule;
        this.users = freeze(b.users);
        this.apis = freeze(b.apis);
        this.userApis = freezePairs(b.userApis);
        this.additiveDefault = b.additiveDefault;
        this.additiveUsers = freeze(b.additiveUsers);
        this.additiveApis = freeze(b.additiveApis);
        this.additiveUserApis = freezePairs(b.additiveUserApis);
    }

    private static Map<String, Rule> freeze(Map<String, Rule> m) {
        return Collections.unmodifiableMap(new HashMap<>(m));
    }

    private static Map<String, Map<String, Rule>> freezePairs(Map<String, Map<String, Rule>> m) {
        Map<String, Map<String, Rule>> pairs = new HashMap<>();
        m.forEach((u, byApi) -> {
            if (!byApi.isEmpty()) {
                pairs.put(u, freeze(byApi));
            }
        });
        return Collections.unmodifiableMap(pairs);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this set's rules, to derive a changed set. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.defaultRule = defaultRule;
        b.users.putAll(users);
        b.apis.putAll(apis);
        userApis.forEach((u, m) -> b.userApis.put(u, new HashMap<>(m)));
        b.additiveDefault = additiveDefault;
        b.additiveUsers.putAll(additiveUsers);
        b.additiveApis.putAll(additiveApis);
        additiveUserApis.forEach((u, m) -> b.additiveUserApis.put(u, new HashMap<>(m)));
        return b;
    }

    public Rule defaultRule() {
        return defaultRule;
    }

    /** The rule for {@code user}, or null. */
    public Rule userRule(String user) {
        return users.get(user);
    }

    /** The rule for {@code api}, or null. */
    public Rule apiRule(String api) {
        return apis.get(api);
    }

    /** The rule for {@code (user, api)}, or null. */
    public Rule userApiRule(String user, String api) {
        return pair(userApis, user, api);
    }

    /** The additive rule at the default position, or null. */
    public Rule additiveDefaultRule() {
        return additiveDefault;
    }

    /** The additive rule for {@code user}, or null. */
    public Rule additiveUserRule(String user) {
        return additiveUsers.get(user);
    }

    /** The additive rule for {@code api}, or null. */
    public Rule additiveApiRule(String api) {
        return additiveApis.get(api);
    }

    /** The additive rule for {@code (user, api)}, or null. */
    public Rule additiveUserApiRule(String user, String api) {
        return pair(additiveUserApis, user, api);
    }

    private static Rule pair(Map<String, Map<String, Rule>> pairs, String user, String api) {
        Map<String, Rule> m = pairs.get(user);
        return m == null ? null : m.get(api);
    }

    public Map<String, Rule> userRules() {
        return users;
    }

    public Map<String, Rule> apiRules() {
        return apis;
    }

    /** (user, api) rules by user, then api. */
    public Map<String, Map<String, Rule>> userApiRules() {
        return userApis;
    }

    public Map<String, Rule> additiveUserRules() {
        return additiveUsers;
    }

    public Map<String, Rule> additiveApiRules() {
        return additiveApis;
    }

    /** Additive (user, api) rules by user, then api. */
    public Map<String, Map<String, Rule>> additiveUserApiRules() {
        return additiveUserApis;
    }

    /**
     * Calls {@code action} with each rule's scope and the rule: {@code default}, {@code user=NAME}, {@code api=NAME},
     * {@code user=NAME,api=NAME} for ordinary rules, the same prefixed {@code additive } for additive ones.
     */
    public void forEach(BiConsumer<String, Rule> action) {
        action.accept("default", defaultRule);
        users.forEach((u, r) -> action.accept("user=" + u, r));
        apis.forEach((a, r) -> action.accept("api=" + a, r));
        userApis.forEach((u, m) -> m.forEach((a, r) -> action.accept("user=" + u + ",api=" + a, r)));
        if (additiveDefault != null) {
            action.accept(ADDITIVE + "default", additiveDefault);
        }
        additiveUsers.forEach((u, r) -> action.accept(ADDITIVE + "user=" + u, r));
        additiveApis.forEach((a, r) -> action.accept(ADDITIVE + "api=" + a, r));
        additiveUserApis.forEach((u, m) -> m.forEach((a, r) -> action.accept(ADDITIVE + "user=" + u + ",api=" + a, r)));
    }

    /** The prefix of an additive rule's scope in {@link #forEach} and {@link RuleMetrics#scope()}. */
    public static final String ADDITIVE = "additive ";

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof RuleSet)) {
            return false;
        }
        RuleSet r = (RuleSet) o;
        return defaultRule.equals(r.defaultRule) && users.equals(r.users) && apis.equals(r.apis)
                && userApis.equals(r.userApis) && Objects.equals(additiveDefault, r.additiveDefault)
                && additiveUsers.equals(r.additiveUsers) && additiveApis.equals(r.additiveApis)
                && additiveUserApis.equals(r.additiveUserApis);
    }

    @Override
    public int hashCode() {
        return Objects.hash(defaultRule, users, apis, userApis, additiveDefault, additiveUsers, additiveApis,
                additiveUserApis);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("RuleSet[default=").append(defaultRule).append(", users=").append(users)
                .append(", apis=").append(apis).append(", userApis=").append(userApis);
        if (additiveDefault != null || !additiveUsers.isEmpty() || !additiveApis.isEmpty()
                || !additiveUserApis.isEmpty()) {
            sb.append(", additive: default=").append(additiveDefault).append(", users=").append(additiveUsers)
                    .append(", apis=").append(additiveApis).append(", userApis=").append(additiveUserApis);
        }
        return sb.append(']').toString();
    }

    /**
     * Builds a {@link RuleSet}; each call files the rule by its {@link Rule#isAdditive()} flag. {@code add*} rejects
     * a second rule of the same kind at a position, {@code put*} replaces it; {@code remove*} removes both kinds at
     * a position, {@code removeAdditive*} only the additive one.
     */
    public static final class Builder {
        private Rule defaultRule;
        private final Map<String, Rule> users = new HashMap<>();
        private final Map<String, Rule> apis = new HashMap<>();
        private final Map<String, Map<String, Rule>> userApis = new HashMap<>();
        private Rule additiveDefault;
        private final Map<String, Rule> additiveUsers = new HashMap<>();
        private final Map<String, Rule> additiveApis = new HashMap<>();
        private final Map<String, Map<String, Rule>> additiveUserApis = new HashMap<>();

        private Builder() {
        }

        /** Sets (replaces) the default position's rule of {@code rule}'s kind. */
        public Builder defaultRule(Rule rule) {
            Objects.requireNonNull(rule, "default rule must not be null");
            if (rule.isAdditive()) {
                additiveDefault = rule;
            } else {
                defaultRule = rule;
            }
            return this;
        }

        /** As {@link #defaultRule}, rejecting a second rule of the same kind. */
        public Builder addDefault(Rule rule) {
            Objects.requireNonNull(rule, "default rule must not be null");
            if ((rule.isAdditive() ? additiveDefault : defaultRule) != null) {
                throw new IllegalArgumentException("the rule set has two " + (rule.isAdditive() ? "additive " : "")
                        + "rules for the default position");
            }
            return defaultRule(rule);
        }

        public Builder defaultConfig(RateLimitConfig config) {
            return defaultRule(Rule.of(config));
        }

        public Builder addUser(String user, Rule rule) {
            add(usersFor(rule), checkName("user", user), rule, "user '" + user + "'");
            return this;
        }

        public Builder addApi(String api, Rule rule) {
            add(apisFor(rule), checkName("api", api), rule, "api '" + api + "'");
            return this;
        }

        public Builder addUserApi(String user, String api, Rule rule) {
            Map<String, Rule> m = pairsFor(rule).computeIfAbsent(checkName("user", user), k -> new HashMap<>());
            add(m, checkName("api", api), rule, "(user '" + user + "', api '" + api + "')");
            return this;
        }

        public Builder putUser(String user, Rule rule) {
            usersFor(rule).put(checkName("user", user), rule);
            return this;
        }

        public Builder putApi(String api, Rule rule) {
            apisFor(rule).put(checkName("api", api), rule);
            return this;
        }

        public Builder putUserApi(String user, String api, Rule rule) {
            pairsFor(rule).computeIfAbsent(checkName("user", user), k -> new HashMap<>()).put(checkName("api", api),
                    rule);
            return this;
        }

        /** Removes both of {@code user}'s rules. */
        public Builder removeUser(String user) {
            users.remove(user);
            additiveUsers.remove(user);
            return this;
        }

        /** Removes both of {@code api}'s rules. */
        public Builder removeApi(String api) {
            apis.remove(api);
            additiveApis.remove(api);
            return this;
        }

        /** Removes both of {@code (user, api)}'s rules. */
        public Builder removeUserApi(String user, String api) {
            removePair(userApis, user, api);
            removePair(additiveUserApis, user, api);
            return this;
        }

        public Builder removeAdditiveDefault() {
            additiveDefault = null;
            return this;
        }

        public Builder removeAdditiveUser(String user) {
            additiveUsers.remove(user);
            return this;
        }

        public Builder removeAdditiveApi(String api) {
            additiveApis.remove(api);
            return this;
        }

        public Builder removeAdditiveUserApi(String user, String api) {
            removePair(additiveUserApis, user, api);
            return this;
        }

        public RuleSet build() {
            if (defaultRule == null) {
                throw new IllegalStateException("a RuleSet needs a default rule that is not additive: call defaultRule"
                        + " or defaultConfig");
            }
            return new RuleSet(this);
        }

        private Map<String, Rule> usersFor(Rule rule) {
            return Objects.requireNonNull(rule, "rule must not be null").isAdditive() ? additiveUsers : users;
        }

        private Map<String, Rule> apisFor(Rule rule) {
            return Objects.requireNonNull(rule, "rule must not be null").isAdditive() ? additiveApis : apis;
        }

        private Map<String, Map<String, Rule>> pairsFor(Rule rule) {
            return Objects.requireNonNull(rule, "rule must not be null").isAdditive() ? additiveUserApis : userApis;
        }

        private static void removePair(Map<String, Map<String, Rule>> pairs, String user, String api) {
            Map<String, Rule> m = pairs.get(user);
            if (m != null) {
                m.remove(api);
                if (m.isEmpty()) {
                    pairs.remove(user);
                }
            }
        }

        private static void add(Map<String, Rule> map, String name, Rule rule, String scope) {
            if (map.putIfAbsent(name, rule) != null) {
                throw new IllegalArgumentException("the rule set has two " + (rule.isAdditive() ? "additive " : "")
                        + "rules for " + scope);
            }
        }

        private static String checkName(String field, String value) {
            return Objects.requireNonNull(value, field + " must not be null");
        }
    }
}
