package dev.sluice;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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
 * limit it no longer has is left to idle and be reclaimed.
 *
 * <p>Retirement: right after a change is published, every limiter that no rule of the new snapshot uses is closed
 * ({@link #retiredLimiters()} counts them), on the configuring thread, with no background thread. A request that
 * read the old snapshot may still meet such a limiter; a closed limiter then throws {@link IllegalStateException}
 * (or completes, if the call was already inside it), and the service undoes what the request took on that snapshot,
 * reads the snapshot again and decides on the new rules: the exception never reaches the caller. The memory of a
 * closed limiter is returned once no call can still be inside it.
 *
 * <p>Memory: each local limiter's table is sized when its rule is configured: {@link Rule#maxKeys} keys, else
 * {@link Builder#maxKeysPerLimiter}, else {@value #DEFAULT_MAX_KEYS_PER_LIMITER} (a sliding log: as many as fit in
 * {@value #DEFAULT_LOG_BYTES_PER_LIMITER} bytes of rings, at least 1024). With {@link Builder#offHeapBudgetBytes}, a
 * configuration whose local limiters would together hold more than the budget is rejected before anything is
 * allocated, and the rules in force keep serving.
 *
 * <p>Composite rules: the limits are tried in order; when one denies, the admissions already taken from the others are
 * undone exactly ({@link RateLimiter#undo(CharSequence, CharSequence, Decision)}), so a denied request consumes
 * nothing anywhere.
 *
 * <p>Thread-safe. {@code allow} takes no lock and, on the local engine, allocates nothing for an existing key;
 * configuration changes are serialised on this service's monitor.
 */
public final class RateLimiterService implements AutoCloseable {

    /** Keys of a local limiter when neither the rule nor the service builder says otherwise. */
    public static final int DEFAULT_MAX_KEYS_PER_LIMITER = 1 << 16;
    /** Ring memory a sliding log's default capacity may use. */
    public static final long DEFAULT_LOG_BYTES_PER_LIMITER = 16L << 20;
    private static final long MIB = 1L << 20;

    private final Clock clock;
    private final Map<String, Function<RateLimitConfig, RateLimiter>> backends;
    private final int maxKeysPerLimiter;
    private final FullTablePolicy fullTablePolicy;
    private final long offHeapBudget;
    /** Written under this service's monitor; volatile so that metrics read it from any thread. */
    private volatile long retired;
    private final Map<LimiterKey, RateLimiter> limiters = new HashMap<>();
    /** Scratch decisions for a composite's parts, one set per thread, for an exact undo of the parts taken. */
    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);
    private volatile Snapshot snapshot;

    private RateLimiterService(Builder b) {
        this.clock = b.clock;
        this.backends = new HashMap<>(b.backends);
        this.maxKeysPerLimiter = b.maxKeysPerLimiter;
        this.fullTablePolicy = b.fullTablePolicy;
        this.offHeapBudget = b.offHeapBudget;
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
        for (;;) {
            if (s == null) {
                throw new IllegalStateException("RateLimiterService is closed");
            }
            try {
                return decide(s, user, api, permits, nowNanos, decision);
            } catch (IllegalStateException retiredLimiter) {
                // Volatile read: a limiter of s was retired by a newer snapshot; decide again on the rules in force.
                Snapshot now = snapshot;
                if (now == s) {
                    throw retiredLimiter;
                }
                s = now;
            }
        }
    }

    private boolean decide(Snapshot s, String user, String api, long permits, long nowNanos, Decision decision) {
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
        Decision[] taken = scratch.get().decisions(parts.length);
        long fewest = Long.MAX_VALUE;
        int i = 0;
        try {
            for (; i < parts.length; i++) {
                Decision part = taken[i].request(permits, now);
                if (!parts[i].tryAcquire(user, api, permits, now, part)) {
                    undo(parts, taken, i, user, api);
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
        } catch (IllegalStateException retiredLimiter) {
            undo(parts, taken, i, user, api);
            throw retiredLimiter;
        }
        return true;
    }

    /** Undoes exactly the admissions of the first {@code count} parts; a retired part's state is gone anyway. */
    private static void undo(RateLimiter[] parts, Decision[] taken, int count, String user, String api) {
        for (int j = 0; j < count; j++) {
            try {
                parts[j].undo(user, api, taken[j]);
            } catch (IllegalStateException retired) {
                // Nothing to give back: the limiter and its state are being discarded.
                continue;
            }
        }
    }

    /** Per-thread decisions for the parts of a composite, allocated once per thread (grown for a longer rule). */
    private static final class Scratch {
        private Decision[] decisions = new Decision[0];

        Decision[] decisions(int n) {
            if (decisions.length < n) {
                Decision[] grown = new Decision[Math.max(n, 4)];
                for (int i = 0; i < grown.length; i++) {
                    grown[i] = i < decisions.length ? decisions[i] : new Decision();
                }
                decisions = grown;
            }
            return decisions;
        }
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
        for (Map.Entry<LimiterKey, RateLimiter> e : limiters.entrySet()) {
            LimiterKey k = e.getKey();
            if (k.shadow == shadow && k.backend.equals(backend) && k.config.equals(config)) {
                return e.getValue();
            }
        }
        return null;
    }

    /** How many limiters the service has closed because no rule used them any more. */
    public long retiredLimiters() {
        return retired;
    }

    /** How many limiters the rules in force use. */
    public synchronized int liveLimiters() {
        return limiters.size();
    }

    /** Off-heap bytes held now by the limiters the rules in force use (see {@link RateLimiter#offHeapBytes()}). */
    public synchronized long offHeapBytes() {
        long sum = 0;
        for (RateLimiter l : limiters.values()) {
            sum += l.offHeapBytes();
        }
        return sum;
    }

    /** The off-heap budget given to the builder, or -1 for none. */
    public long offHeapBudgetBytes() {
        return offHeapBudget;
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
        checkBudget(rules);
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
        Snapshot next = new Snapshot(rules, def, users, apis, pairs);
        // Volatile write: publishes the fully built snapshot; requests see all of it or none of it.
        snapshot = next;
        retireUnused(next);
    }

    /** Closes every limiter the snapshot does not use; requests still on an older one retry (see {@link #allow}). */
    private void retireUnused(Snapshot s) {
        Set<RateLimiter> used = Collections.newSetFromMap(new IdentityHashMap<>());
        s.forEach(r -> used.addAll(Arrays.asList(r.parts)));
        for (Iterator<RateLimiter> it = limiters.values().iterator(); it.hasNext();) {
            RateLimiter l = it.next();
            if (!used.contains(l)) {
                it.remove();
                l.close();
                retired++;
            }
        }
    }

    /**
     * Rejects {@code rules} if the local limiters they use would hold more off-heap memory than the budget;
     * computed from each table's size, before anything is allocated.
     */
    private void checkBudget(RuleSet rules) {
        if (offHeapBudget < 0) {
            return;
        }
        Map<LimiterKey, Long> planned = new HashMap<>();
        String[] largest = {null};
        long[] largestBytes = {-1};
        rules.forEach((scope, rule) -> {
            if (!isLocal(rule)) {
                return;
            }
            for (RateLimitConfig config : rule.limits()) {
                LimiterKey key = keyOf(rule, config);
                if (!planned.containsKey(key)) {
                    long bytes = localBuilder(config, key.maxKeys).offHeapBytes();
                    planned.put(key, bytes);
                    if (bytes > largestBytes[0]) {
                        largestBytes[0] = bytes;
                        largest[0] = scope + " " + rule;
                    }
                }
            }
        });
        long total = 0;
        for (long bytes : planned.values()) {
            total += bytes;
        }
        if (total > offHeapBudget) {
            throw new IllegalArgumentException("the rules' local limiters would hold " + mib(total)
                    + " of off-heap tables, above offHeapBudgetBytes of " + mib(offHeapBudget) + "; the largest is "
                    + largest[0] + " asking " + mib(largestBytes[0]) + " (lower its maxKeys or raise the budget)");
        }
    }

    private static String mib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.2f MiB", bytes / (double) MIB);
    }

    private boolean isLocal(Rule rule) {
        return Rule.LOCAL.equals(rule.backend()) && !backends.containsKey(Rule.LOCAL);
    }

    private LimiterKey keyOf(Rule rule, RateLimitConfig config) {
        int keys = -1;
        if (isLocal(rule)) {
            keys = rule.maxKeysOrDefault() > 0 ? rule.maxKeysOrDefault() : defaultMaxKeys(config);
        }
        return new LimiterKey(rule.backend(), config, rule.shadow(), keys);
    }

    private int defaultMaxKeys(RateLimitConfig config) {
        if (maxKeysPerLimiter > 0) {
            return maxKeysPerLimiter;
        }
        if (config.algorithm() == Algorithm.SLIDING_WINDOW_LOG) {
            long fit = DEFAULT_LOG_BYTES_PER_LIMITER / (8 * config.limit());
            return (int) Math.max(1024, Math.min(DEFAULT_MAX_KEYS_PER_LIMITER, fit));
        }
        return DEFAULT_MAX_KEYS_PER_LIMITER;
    }

    private RateLimiterBuilder localBuilder(RateLimitConfig config, int maxKeys) {
        return RateLimiter.builder(config).clock(clock).fullTablePolicy(fullTablePolicy).maxKeys(maxKeys);
    }

    private Resolved resolve(String scope, Rule rule, Resolved previous) {
        if (previous != null && previous.rule.equals(rule)) {
            return previous;
        }
        Function<RateLimitConfig, RateLimiter> factory = backends.get(rule.backend());
        if (factory == null && !isLocal(rule)) {
            throw new IllegalArgumentException("rule " + rule + " names backend '" + rule.backend()
                    + "', which is not registered; registered: " + backends.keySet());
        }
        List<RateLimitConfig> limits = rule.limits();
        RateLimiter[] parts = new RateLimiter[limits.size()];
        for (int i = 0; i < parts.length; i++) {
            RateLimitConfig config = limits.get(i);
            parts[i] = limiters.computeIfAbsent(keyOf(rule, config),
                    k -> factory == null ? localBuilder(config, k.maxKeys).build() : factory.apply(config));
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

        void forEach(java.util.function.Consumer<Resolved> action) {
            action.accept(defaultRule);
            users.values().forEach(action);
            apis.values().forEach(action);
            userApis.values().forEach(m -> m.values().forEach(action));
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
        /** Keys of a local limiter's table; -1 for another backend. */
        final int maxKeys;

        LimiterKey(String backend, RateLimitConfig config, boolean shadow, int maxKeys) {
            this.backend = backend;
            this.config = config;
            this.shadow = shadow;
            this.maxKeys = maxKeys;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof LimiterKey)) {
                return false;
            }
            LimiterKey k = (LimiterKey) o;
            return shadow == k.shadow && maxKeys == k.maxKeys && backend.equals(k.backend) && config.equals(k.config);
        }

        @Override
        public int hashCode() {
            return Objects.hash(backend, config, shadow, maxKeys);
        }
    }

    /** Options of a service. {@link #defaultConfig} (or {@link #rules}) is required. */
    public static final class Builder {
        private Clock clock = Clock.system();
        private RuleSet rules;
        private int maxKeysPerLimiter = -1;
        private FullTablePolicy fullTablePolicy = FullTablePolicy.DENY;
        private long offHeapBudget = -1;
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

        /**
         * Capacity of each local limiter whose rule sets none with {@link Rule#maxKeys} (see
         * {@link RateLimiterBuilder#maxKeys}); default {@value RateLimiterService#DEFAULT_MAX_KEYS_PER_LIMITER}.
         */
        public Builder maxKeysPerLimiter(int maxKeys) {
            if (maxKeys < 1 || maxKeys > RateLimiterBuilder.MAX_KEYS) {
                throw new IllegalArgumentException("maxKeysPerLimiter must be in [1, " + RateLimiterBuilder.MAX_KEYS
                        + "], was " + maxKeys);
            }
            this.maxKeysPerLimiter = maxKeys;
            return this;
        }

        /**
         * The most off-heap memory the local limiters of the rules in force may hold together, at least 1 MiB: a
         * configuration above it fails when it is made (at {@link #build}, {@code configure*} or
         * {@code replaceRules}) and leaves the rules in force serving. Closed limiters whose memory is not yet
         * returned are not counted.
         */
        public Builder offHeapBudgetBytes(long bytes) {
            if (bytes < MIB) {
                throw new IllegalArgumentException("offHeapBudgetBytes must be at least 1 MiB (1048576 bytes), was "
                        + bytes + " bytes");
            }
            this.offHeapBudget = bytes;
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
