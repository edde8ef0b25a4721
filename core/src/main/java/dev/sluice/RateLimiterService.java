package dev.sluice;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Rate limits per user, per API, per (user, API) and by default, for a gateway.
 *
 * <p>Resolution: the (user, api) rule, else the api rule, else the user rule, else the default; shadow rules are
 * skipped for enforcement (see {@link Rule}). Every (user, api) pair has its own state, in the limiter of each of
 * its rule's limits: one limiter per distinct limit (and backend), shared by every key and rule with that limit.
 *
 * <p>Reconfiguration: every change builds a new immutable rule snapshot and publishes it with one volatile write;
 * a request reads the snapshot once, so it is decided wholly by the old or wholly by the new rules. A key whose
 * rule keeps a limit keeps its state for that limit; a limit the key did not have before starts fresh; state for a
 * limit it no longer has is left to idle and be reclaimed. Limiters live until {@link #close()}, so a request still
 * on an old snapshot never touches freed memory.
 *
 * <p>Composite rules: the limits are tried in order; when one denies, the permits already taken from the others are
 * given back ({@link RateLimiter#release}), so a denied request consumes nothing anywhere.
 *
 * <p>Thread-safe. {@code allow} takes no lock and, on the local engine, allocates nothing for an existing key;
 * configuration changes are serialised on this service's monitor.
 */
public final class RateLimiterService implements AutoCloseable {

    private final Clock clock;
    private final Map<String, Function<RateLimitConfig, RateLimiter>> backends;
    private final Map<LimiterKey, RateLimiter> limiters = new HashMap<>();
    /** Scratch decision for a composite's parts, one per thread: only used when the caller asked for a decision. */
    private final ThreadLocal<Decision> scratch = ThreadLocal.withInitial(Decision::new);
    private volatile Snapshot snapshot;

    private RateLimiterService(Builder b) {
        this.clock = b.clock;
        Map<String, Function<RateLimitConfig, RateLimiter>> all = new HashMap<>(b.backends);
        int maxKeys = b.maxKeysPerLimiter;
        FullTablePolicy policy = b.fullTablePolicy;
        Clock c = b.clock;
        all.putIfAbsent(Rule.LOCAL, config -> {
            RateLimiterBuilder lb = RateLimiter.builder(config).clock(c).fullTablePolicy(policy);
            return (maxKeys > 0 ? lb.maxKeys(maxKeys) : lb).build();
        });
        this.backends = all;
        install(b.rules);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** One unit request at the clock's current time. */
    public boolean allow(String user, String api) {
        return allow(user, api, 1, clock.nanoTime(), null);
    }

    /** A weighted request at the clock's current time. */
    public boolean allow(String user, String api, long permits) {
        return allow(user, api, permits, clock.nanoTime(), null);
    }

    /** A weighted request at the clock's current time, with the whole answer in {@code decision}. */
    public boolean allow(String user, String api, long permits, Decision decision) {
        return allow(user, api, permits, clock.nanoTime(), Objects.requireNonNull(decision, "decision"));
    }

    /**
     * A weighted request at a time read by the caller (one clock read serves every limit of the rule); fills
     * {@code decision} if it is not null: for a composite, the decision of the limit that denied, or of the limit
     * with the fewest permits left. A shadow rule never changes the decision.
     *
     * @throws NullPointerException     if user or api is null (an empty string is an ordinary name)
     * @throws IllegalArgumentException if permits is below 1
     * @throws IllegalStateException    after {@link #close()}
     */
    public boolean allow(String user, String api, long permits, long nowNanos, Decision decision) {
        Objects.requireNonNull(user, "user must not be null");
        Objects.requireNonNull(api, "api must not be null");
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be >= 1, was " + permits);
        }
        // Volatile read: the one rule snapshot this whole request is decided by.
        Snapshot s = snapshot;
        if (s == null) {
            throw new IllegalStateException("RateLimiterService is closed");
        }
        Map<String, Resolved> pairs = s.userApis.get(user);
        Resolved pair = pairs == null ? null : pairs.get(api);
        Resolved apiRule = s.apis.get(api);
        Resolved userRule = s.users.get(user);
        // Most specific enforcing rule wins; the most specific shadow rule above it is evaluated beside it.
        Resolved enforcing = firstEnforcing(pair, apiRule, userRule, s.defaultRule);
        Resolved shadow = firstShadow(pair, apiRule, userRule, s.defaultRule);
        if (shadow != null && !evaluate(shadow, user, api, permits, nowNanos, null)) {
            shadow.metrics.wouldDeny.increment();
        }
        if (enforcing == null) {
            if (decision != null) {
                decision.set(true, Long.MAX_VALUE, Long.MAX_VALUE, 0, 0, 0);
            }
            return true;
        }
        boolean allowed = evaluate(enforcing, user, api, permits, nowNanos, decision);
        (allowed ? enforcing.metrics.admitted : enforcing.metrics.denied).increment();
        return allowed;
    }

    private static Resolved firstEnforcing(Resolved a, Resolved b, Resolved c, Resolved d) {
        if (a != null && !a.rule.shadow()) {
            return a;
        }
        if (b != null && !b.rule.shadow()) {
            return b;
        }
        if (c != null && !c.rule.shadow()) {
            return c;
        }
        return d.rule.shadow() ? null : d;
    }

    /** The most specific shadow rule more specific than the enforcing one, or null. */
    private static Resolved firstShadow(Resolved a, Resolved b, Resolved c, Resolved d) {
        if (a != null) {
            return a.rule.shadow() ? a : null;
        }
        if (b != null) {
            return b.rule.shadow() ? b : null;
        }
        if (c != null) {
            return c.rule.shadow() ? c : null;
        }
        return d.rule.shadow() ? d : null;
    }

    private boolean evaluate(Resolved r, String user, String api, long permits, long now, Decision decision) {
        RateLimiter[] parts = r.parts;
        if (parts.length == 1) {
            return parts[0].tryAcquire(user, api, permits, now, decision);
        }
        Decision part = decision == null ? null : scratch.get();
        long fewest = Long.MAX_VALUE;
        for (int i = 0; i < parts.length; i++) {
            if (!parts[i].tryAcquire(user, api, permits, now, part)) {
                for (int j = 0; j < i; j++) {
                    parts[j].release(user, api, permits, now);
                }
                if (decision != null) {
                    decision.copyFrom(part);
                }
                return false;
            }
            if (decision != null && part.remaining() < fewest) {
                fewest = part.remaining();
                decision.copyFrom(part);
            }
        }
        return true;
    }

    /** Sets the rule of {@code user} (one limit). */
    public void configureUser(String user, RateLimitConfig config) {
        configureUser(user, Rule.of(config));
    }

    public void configureApi(String api, RateLimitConfig config) {
        configureApi(api, Rule.of(config));
    }

    public void configureUserApi(String user, String api, RateLimitConfig config) {
        configureUserApi(user, api, Rule.of(config));
    }

    public synchronized void configureUser(String user, Rule rule) {
        install(current().rules.toBuilder().putUser(user, rule).build());
    }

    public synchronized void configureApi(String api, Rule rule) {
        install(current().rules.toBuilder().putApi(api, rule).build());
    }

    public synchronized void configureUserApi(String user, String api, Rule rule) {
        install(current().rules.toBuilder().putUserApi(user, api, rule).build());
    }

    public synchronized void configureDefault(Rule rule) {
        install(current().rules.toBuilder().defaultRule(rule).build());
    }

    public synchronized void removeUser(String user) {
        install(current().rules.toBuilder().removeUser(user).build());
    }

    public synchronized void removeApi(String api) {
        install(current().rules.toBuilder().removeApi(api).build());
    }

    public synchronized void removeUserApi(String user, String api) {
        install(current().rules.toBuilder().removeUserApi(user, api).build());
    }

    /** Installs a whole new rule set at once; keys whose rule keeps a limit keep their state for it. */
    public synchronized void replaceRules(RuleSet rules) {
        Objects.requireNonNull(rules, "rules must not be null");
        current();
        install(rules);
    }

    /** The rule set in force. */
    public RuleSet rules() {
        return current().rules;
    }

    /** Metrics of every rule in force, the default first. */
    public List<RuleMetrics> metrics() {
        Snapshot s = current();
        List<RuleMetrics> all = new ArrayList<>();
        all.add(s.defaultRule.metrics);
        s.users.values().forEach(r -> all.add(r.metrics));
        s.apis.values().forEach(r -> all.add(r.metrics));
        s.userApis.values().forEach(m -> m.values().forEach(r -> all.add(r.metrics)));
        return Collections.unmodifiableList(all);
    }

    /** The limiter holding the state of {@code config} on {@code backend} (shadow rules have their own), or null. */
    public synchronized RateLimiter limiter(String backend, RateLimitConfig config, boolean shadow) {
        return limiters.get(new LimiterKey(backend, config, shadow));
    }

    /** Closes every limiter. Must not race with calls in flight; calls after it throw. Idempotent. */
    @Override
    public synchronized void close() {
        if (snapshot == null) {
            return;
        }
        snapshot = null;
        limiters.values().forEach(RateLimiter::close);
        limiters.clear();
    }

    private Snapshot current() {
        Snapshot s = snapshot;
        if (s == null) {
            throw new IllegalStateException("RateLimiterService is closed");
        }
        return s;
    }

    /** Builds and publishes the snapshot of {@code rules}, reusing limiters and unchanged rules' metrics. */
    private synchronized void install(RuleSet rules) {
        Snapshot old = snapshot;
        Resolved def = resolve("default", rules.defaultRule, old == null ? null : old.defaultRule);
        Map<String, Resolved> users = new HashMap<>();
        rules.users.forEach((u, rule) -> users.put(u, resolve("user=" + u, rule, old == null ? null : old.users.get(u))));
        Map<String, Resolved> apis = new HashMap<>();
        rules.apis.forEach((a, rule) -> apis.put(a, resolve("api=" + a, rule, old == null ? null : old.apis.get(a))));
        Map<String, Map<String, Resolved>> pairs = new HashMap<>();
        rules.userApis.forEach((u, m) -> {
            Map<String, Resolved> before = old == null ? null : old.userApis.get(u);
            Map<String, Resolved> resolved = new HashMap<>();
            m.forEach((a, rule) -> resolved.put(a,
                    resolve("user=" + u + ",api=" + a, rule, before == null ? null : before.get(a))));
            pairs.put(u, resolved);
        });
        // Volatile write: publishes the fully built snapshot; requests see all of it or none of it.
        snapshot = new Snapshot(rules, def, users, apis, pairs);
    }

    private Resolved resolve(String scope, Rule rule, Resolved previous) {
        if (previous != null && previous.rule.equals(rule)) {
            return previous;
        }
        Function<RateLimitConfig, RateLimiter> factory = backends.get(rule.backend());
        if (factory == null) {
            throw new IllegalArgumentException("rule " + rule + " names backend '" + rule.backend()
                    + "', which is not registered; registered: " + backends.keySet());
        }
        List<RateLimitConfig> limits = rule.limits();
        RateLimiter[] parts = new RateLimiter[limits.size()];
        for (int i = 0; i < parts.length; i++) {
            RateLimitConfig config = limits.get(i);
            parts[i] = limiters.computeIfAbsent(new LimiterKey(rule.backend(), config, rule.shadow()),
                    k -> factory.apply(config));
        }
        return new Resolved(rule, parts, new RuleMetrics(scope, rule, List.of(parts)));
    }

    /** An immutable resolved rule set; read by requests without a lock. */
    private static final class Snapshot {
        final RuleSet rules;
        final Resolved defaultRule;
        final Map<String, Resolved> users;
        final Map<String, Resolved> apis;
        final Map<String, Map<String, Resolved>> userApis;

        Snapshot(RuleSet rules, Resolved defaultRule, Map<String, Resolved> users, Map<String, Resolved> apis,
                Map<String, Map<String, Resolved>> userApis) {
            this.rules = rules;
            this.defaultRule = defaultRule;
            this.users = users;
            this.apis = apis;
            this.userApis = userApis;
        }
    }

    private static final class Resolved {
        final Rule rule;
        final RateLimiter[] parts;
        final RuleMetrics metrics;

        Resolved(Rule rule, RateLimiter[] parts, RuleMetrics metrics) {
            this.rule = rule;
            this.parts = parts;
            this.metrics = metrics;
        }
    }

    private static final class LimiterKey {
        final String backend;
        final RateLimitConfig config;
        final boolean shadow;

        LimiterKey(String backend, RateLimitConfig config, boolean shadow) {
            this.backend = backend;
            this.config = config;
            this.shadow = shadow;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof LimiterKey)) {
                return false;
            }
            LimiterKey k = (LimiterKey) o;
            return shadow == k.shadow && backend.equals(k.backend) && config.equals(k.config);
        }

        @Override
        public int hashCode() {
            return Objects.hash(backend, config, shadow);
        }
    }

    /** Options of a service. {@link #defaultConfig} (or {@link #rules}) is required. */
    public static final class Builder {
        private Clock clock = Clock.system();
        private RuleSet rules;
        private int maxKeysPerLimiter = -1;
        private FullTablePolicy fullTablePolicy = FullTablePolicy.DENY;
        private final Map<String, Function<RateLimitConfig, RateLimiter>> backends = new HashMap<>();

        private Builder() {
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock must not be null");
            return this;
        }

        /** The default rule's single limit. */
        public Builder defaultConfig(RateLimitConfig config) {
            Objects.requireNonNull(config, "defaultConfig must not be null");
            this.rules = (rules == null ? RuleSet.builder() : rules.toBuilder()).defaultConfig(config).build();
            return this;
        }

        /** A whole initial rule set (its default rule included). */
        public Builder rules(RuleSet rules) {
            this.rules = Objects.requireNonNull(rules, "rules must not be null");
            return this;
        }

        /** Capacity of each local limiter (see {@link RateLimiterBuilder#maxKeys}). */
        public Builder maxKeysPerLimiter(int maxKeys) {
            if (maxKeys < 1 || maxKeys > RateLimiterBuilder.MAX_KEYS) {
                throw new IllegalArgumentException("maxKeysPerLimiter must be in [1, " + RateLimiterBuilder.MAX_KEYS
                        + "], was " + maxKeys);
            }
            this.maxKeysPerLimiter = maxKeys;
            return this;
        }

        public Builder fullTablePolicy(FullTablePolicy policy) {
            this.fullTablePolicy = Objects.requireNonNull(policy, "fullTablePolicy must not be null");
            return this;
        }

        /**
         * Registers a backend for rules that name it ({@link Rule#onBackend}), e.g. a Redis limiter for global
         * limits; {@value Rule#LOCAL} may be replaced too.
         */
        public Builder backend(String name, Function<RateLimitConfig, RateLimiter> factory) {
            Objects.requireNonNull(name, "backend name must not be null");
            backends.put(name, Objects.requireNonNull(factory, "factory must not be null"));
            return this;
        }

        public RateLimiterService build() {
            if (rules == null) {
                throw new IllegalStateException("defaultConfig must be set before build()");
            }
            return new RateLimiterService(this);
        }
    }
}
