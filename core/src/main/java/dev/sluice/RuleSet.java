package dev.sluice;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A whole set of rules, immutable, to install at once with {@link RateLimiterService#replaceRules(RuleSet)} (for
 * example after reloading a file). One rule per scope: a second rule for the same scope is an error at build time.
 * Scopes, most specific first: (user, api), api, user, default.
 */
public final class RuleSet {

    final Rule defaultRule;
    final Map<String, Rule> users;
    final Map<String, Rule> apis;
    final Map<String, Map<String, Rule>> userApis;

    private RuleSet(Rule defaultRule, Map<String, Rule> users, Map<String, Rule> apis,
            Map<String, Map<String, Rule>> userApis) {
        this.defaultRule = defaultRule;
        this.users = users;
        this.apis = apis;
        this.userApis = userApis;
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
        Map<String, Rule> m = userApis.get(user);
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

    /** Calls {@code action} with each rule's scope ({@code default}, {@code user=NAME}, ...) and the rule. */
    public void forEach(java.util.function.BiConsumer<String, Rule> action) {
        action.accept("default", defaultRule);
        users.forEach((u, r) -> action.accept("user=" + u, r));
        apis.forEach((a, r) -> action.accept("api=" + a, r));
        userApis.forEach((u, m) -> m.forEach((a, r) -> action.accept("user=" + u + ",api=" + a, r)));
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof RuleSet)) {
            return false;
        }
        RuleSet r = (RuleSet) o;
        return defaultRule.equals(r.defaultRule) && users.equals(r.users) && apis.equals(r.apis)
                && userApis.equals(r.userApis);
    }

    @Override
    public int hashCode() {
        return Objects.hash(defaultRule, users, apis, userApis);
    }

    @Override
    public String toString() {
        return "RuleSet[default=" + defaultRule + ", users=" + users + ", apis=" + apis + ", userApis=" + userApis + "]";
    }

    /** Builds a {@link RuleSet}; {@code add*} rejects a second rule for a scope, {@code put*} replaces it. */
    public static final class Builder {
        private Rule defaultRule;
        private final Map<String, Rule> users = new HashMap<>();
        private final Map<String, Rule> apis = new HashMap<>();
        private final Map<String, Map<String, Rule>> userApis = new HashMap<>();

        private Builder() {
        }

        public Builder defaultRule(Rule rule) {
            this.defaultRule = Objects.requireNonNull(rule, "default rule must not be null");
            return this;
        }

        public Builder defaultConfig(RateLimitConfig config) {
            return defaultRule(Rule.of(config));
        }

        public Builder addUser(String user, Rule rule) {
            add(users, checkName("user", user), rule, "user '" + user + "'");
            return this;
        }

        public Builder addApi(String api, Rule rule) {
            add(apis, checkName("api", api), rule, "api '" + api + "'");
            return this;
        }

        public Builder addUserApi(String user, String api, Rule rule) {
            Map<String, Rule> m = userApis.computeIfAbsent(checkName("user", user), k -> new HashMap<>());
            add(m, checkName("api", api), rule, "(user '" + user + "', api '" + api + "')");
            return this;
        }

        public Builder putUser(String user, Rule rule) {
            users.put(checkName("user", user), Objects.requireNonNull(rule, "rule must not be null"));
            return this;
        }

        public Builder putApi(String api, Rule rule) {
            apis.put(checkName("api", api), Objects.requireNonNull(rule, "rule must not be null"));
            return this;
        }

        public Builder putUserApi(String user, String api, Rule rule) {
            userApis.computeIfAbsent(checkName("user", user), k -> new HashMap<>())
                    .put(checkName("api", api), Objects.requireNonNull(rule, "rule must not be null"));
            return this;
        }

        public Builder removeUser(String user) {
            users.remove(user);
            return this;
        }

        public Builder removeApi(String api) {
            apis.remove(api);
            return this;
        }

        public Builder removeUserApi(String user, String api) {
            Map<String, Rule> m = userApis.get(user);
            if (m != null) {
                m.remove(api);
                if (m.isEmpty()) {
                    userApis.remove(user);
                }
            }
            return this;
        }

        public RuleSet build() {
            if (defaultRule == null) {
                throw new IllegalStateException("a RuleSet needs a default rule: call defaultRule or defaultConfig");
            }
            Map<String, Map<String, Rule>> pairs = new HashMap<>();
            userApis.forEach((u, m) -> {
                if (!m.isEmpty()) {
                    pairs.put(u, Collections.unmodifiableMap(new HashMap<>(m)));
                }
            });
            return new RuleSet(defaultRule, Collections.unmodifiableMap(new HashMap<>(users)),
                    Collections.unmodifiableMap(new HashMap<>(apis)), Collections.unmodifiableMap(pairs));
        }

        private static void add(Map<String, Rule> map, String name, Rule rule, String scope) {
            Objects.requireNonNull(rule, "rule must not be null");
            if (map.putIfAbsent(name, rule) != null) {
                throw new IllegalArgumentException("the rule set has two rules for " + scope);
            }
        }

        private static String checkName(String field, String value) {
            return Objects.requireNonNull(value, field + " must not be null");
        }
    }
}
