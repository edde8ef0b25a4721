package dev.sluice;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
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
 * skipped for enforcement (see {@link Rule}). Besides that one rule, every {@linkplain Rule#additive() additive} rule
 * at those four positions applies too (see {@link RuleSet}): a request is admitted only if every limit of every
 * applicable rule admits. What a limit counts on is its rule's {@link Rule#countedPer counting scope}: the (user,
 * api) pair (the default), the user, the API, or one count for everything.
 *
 * <p>State: rules counting per (user, api) share one limiter per distinct limit (and backend), so a pair keeps its
 * state when its rule moves to another position with the same limit; every other rule has limiters of its own, so
 * no two scopes and no two rules that apply together ever share a count.
 *
 * <p>Shadow and additive: a shadow additive rule is evaluated on its own state for every request it applies to and
 * counts would-deny, like any shadow rule; it never denies and is not among a decision's applied limits.
 *
 * <p>Decisions: the limit that denied, or for an admitted request the applicable limit with the fewest permits
 * left (the first tried on a tie, the enforcing rule's before the additive ones), fills the decision and names
 * itself ({@link Decision#policyName()}); every applicable limit is listed ({@link Decision#applied}), so that
 * {@link dev.sluice.http.RateLimitHeaders#writeDecision} writes the headers from the decision alone. Names are
 * {@link Policy} objects built with the rules; a request only points to them. Metrics: every applicable rule
 * counts an admitted request; the rule whose limit denied counts the denial.
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
 * <p>All or nothing: the limits are tried in order (the enforcing rule's, then the additive rules' from the most
 * specific position); when one denies, the admissions already taken from the others are undone exactly
 * ({@link RateLimiter#undo(CharSequence, CharSequence, Decision)} and its one-part and long-key forms), with
 * decisions kept per thread, so a denied request consumes nothing anywhere.
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
    /** The one key of a GLOBAL count in its own limiter. */
    private static final long GLOBAL_KEY = 1L;

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
        Map<String, Slot> pairs = s.userApis.get(user);
        Slot pair = pairs == null ? null : pairs.get(api);
        Slot apiSlot = s.apis.get(api);
        Slot userSlot = s.users.get(user);
        Slot def = s.defaultSlot;
        Resolved pairRule = pair == null ? null : pair.rule;
        Resolved apiRule = apiSlot == null ? null : apiSlot.rule;
        Resolved userRule = userSlot == null ? null : userSlot.rule;
        // Most specific enforcing rule wins; the most specific shadow rule above it is evaluated beside it.
        Resolved enforcing = firstEnforcing(pairRule, apiRule, userRule, def.rule);
        Resolved shadow = firstShadow(pairRule, apiRule, userRule, def.rule);
        if (shadow != null) {
            evaluateShadow(shadow, user, api, permits, nowNanos);
        }
        Scratch scratch = this.scratch.get();
        Resolved[] applied = scratch.rules;
        int n = 0;
        if (enforcing != null) {
            applied[n++] = enforcing;
        }
        n = addAdditive(applied, n, pair, user, api, permits, nowNanos);
        n = addAdditive(applied, n, userSlot, user, api, permits, nowNanos);
        n = addAdditive(applied, n, apiSlot, user, api, permits, nowNanos);
        n = addAdditive(applied, n, def, user, api, permits, nowNanos);
        if (n == 0) {
            if (decision != null) {
                decision.set(true, Long.MAX_VALUE, Long.MAX_VALUE, 0, 0, 0).decidedBy(null, null).clearApplied();
            }
            return true;
        }
        try {
            if (n == 1 && applied[0].parts.length == 1) {
                return decideOne(applied[0], user, api, permits, nowNanos, decision);
            }
            return decideAll(scratch, applied, n, user, api, permits, nowNanos, decision);
        } finally {
            // The thread's scratch must not keep a retired rule's limiters (and their memory) reachable.
            Arrays.fill(applied, 0, n, null);
        }
    }

    /** One applicable limit: the limiter fills the caller's decision directly. */
    private static boolean decideOne(Resolved r, String user, String api, long permits, long now, Decision decision) {
        boolean allowed = acquire(r.parts[0], r.keyScope, user, api, permits, now, decision);
        (allowed ? r.metrics.admitted : r.metrics.denied).increment();
        if (decision != null) {
            decision.decidedBy(r.policies[0].name(), r.policies[0].config()).clearApplied().addApplied(r.policies[0]);
        }
        return allowed;
    }

    /**
     * Every limit of the {@code n} applicable rules must admit, tried in order; when one denies, every admission
     * taken before it is undone exactly, so a denied request consumes nothing anywhere.
     */
    private static boolean decideAll(Scratch scratch, Resolved[] applied, int n, String user, String api,
            long permits, long now, Decision decision) {
        int total = 0;
        for (int i = 0; i < n; i++) {
            total += applied[i].parts.length;
        }
        Decision[] taken = scratch.decisions(total);
        int k = 0;
        int best = -1;
        Policy bestPolicy = null;
        long delay = 0;
        try {
            for (int i = 0; i < n; i++) {
                Resolved r = applied[i];
                for (int j = 0; j < r.parts.length; j++) {
                    Decision part = taken[k].request(permits, now);
                    if (!acquire(r.parts[j], r.keyScope, user, api, permits, now, part)) {
                        undo(applied, n, taken, k, user, api);
                        r.metrics.denied.increment();
                        if (decision != null) {
                            fill(decision, part, r.policies[j], applied, n, part.delayNanos());
                        }
                        return false;
                    }
                    if (best < 0 || part.remaining() < taken[best].remaining()) {
                        best = k;
                        bestPolicy = r.policies[j];
                    }
                    delay = Math.max(delay, part.delayNanos());
                    k++;
                }
            }
        } catch (IllegalStateException retiredLimiter) {
            undo(applied, n, taken, k, user, api);
            throw retiredLimiter;
        }
        for (int i = 0; i < n; i++) {
            applied[i].metrics.admitted.increment();
        }
        if (decision != null) {
            fill(decision, taken[best], bestPolicy, applied, n, delay);
        }
        return true;
    }

    /**
     * The caller's decision: the deciding limit's answer (with the longest smoothing delay of the limits that
     * admitted), its policy, and every applicable limit's policy for the headers.
     */
    private static void fill(Decision decision, Decision deciding, Policy policy, Resolved[] applied, int n,
            long delay) {
        decision.copyFrom(deciding).set(deciding.allowed(), deciding.limit(), deciding.remaining(),
                deciding.retryAfterNanos(), deciding.resetAfterNanos(), delay);
        decision.decidedBy(policy.name(), policy.config());
        for (int i = 0; i < n; i++) {
            for (Policy p : applied[i].policies) {
                decision.addApplied(p);
            }
        }
    }

    /** Adds the slot's additive rule to {@code applied}; a shadow additive rule is evaluated apart instead. */
    private int addAdditive(Resolved[] applied, int n, Slot slot, String user, String api, long permits, long now) {
        if (slot == null || slot.additive == null) {
            return n;
        }
        if (slot.additive.rule.shadow()) {
            evaluateShadow(slot.additive, user, api, permits, now);
            return n;
        }
        applied[n] = slot.additive;
        return n + 1;
    }

    /** The key of {@code scope} in {@code limiter}: the pair, the user, the API, or one fixed key. */
    private static boolean acquire(RateLimiter limiter, KeyScope scope, String user, String api, long permits,
            long now, Decision d) {
        switch (scope) {
            case USER_API:
                return limiter.tryAcquire(user, api, permits, now, d);
            case USER:
                return d == null ? limiter.tryAcquire(user, permits, now) : limiter.tryAcquire(user, permits, now, d);
            case API:
                return d == null ? limiter.tryAcquire(api, permits, now) : limiter.tryAcquire(api, permits, now, d);
            default:
                return d == null ? limiter.tryAcquire(GLOBAL_KEY, permits, now)
                        : limiter.tryAcquire(GLOBAL_KEY, permits, now, d);
        }
    }

    private static void undo(RateLimiter limiter, KeyScope scope, String user, String api, Decision admitted) {
        switch (scope) {
            case USER_API:
                limiter.undo(user, api, admitted);
                return;
            case USER:
                limiter.undo(user, admitted);
                return;
            case API:
                limiter.undo(api, admitted);
                return;
            default:
                limiter.undo(GLOBAL_KEY, admitted);
        }
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

    /** A shadow rule's limits, all or nothing on its own state; counts would-deny, never changes the decision. */
    private void evaluateShadow(Resolved r, String user, String api, long permits, long now) {
        Scratch scratch = this.scratch.get();
        Resolved[] one = scratch.shadow;
        one[0] = r;
        try {
            if (!decideAllShadow(scratch, one, user, api, permits, now)) {
                r.metrics.wouldDeny.increment();
            }
        } finally {
            one[0] = null;
        }
    }

    private static boolean decideAllShadow(Scratch scratch, Resolved[] one, String user, String api, long permits,
            long now) {
        RateLimiter[] parts = one[0].parts;
        if (parts.length == 1) {
            return acquire(parts[0], one[0].keyScope, user, api, permits, now, null);
        }
        Decision[] taken = scratch.decisions(parts.length);
        int k = 0;
        try {
            for (; k < parts.length; k++) {
                if (!acquire(parts[k], one[0].keyScope, user, api, permits, now, taken[k].request(permits, now))) {
                    undo(one, 1, taken, k, user, api);
                    return false;
                }
            }
        } catch (IllegalStateException retiredLimiter) {
            undo(one, 1, taken, k, user, api);
            throw retiredLimiter;
        }
        return true;
    }

    /**
     * Undoes exactly the first {@code count} admissions, in the order the limits of {@code applied} were tried; a
     * retired limiter's state is gone anyway.
     */
    private static void undo(Resolved[] applied, int n, Decision[] taken, int count, String user, String api) {
        int k = 0;
        for (int i = 0; i < n && k < count; i++) {
            Resolved r = applied[i];
            for (int j = 0; j < r.parts.length && k < count; j++, k++) {
                try {
                    undo(r.parts[j], r.keyScope, user, api, taken[k]);
                } catch (IllegalStateException retired) {
                    // Nothing to give back: the limiter and its state are being discarded.
                    continue;
                }
            }
        }
    }

    /**
     * Per-thread scratch, allocated once per thread: decisions for every applicable limit (grown for more limits),
     * the applicable rules (an enforcing rule and an additive one per position), and a one-rule array for shadows.
     */
    private static final class Scratch {
        final Resolved[] rules = new Resolved[5];
        final Resolved[] shadow = new Resolved[1];
        private Decision[] decisions = new Decision[0];

        Decision[] decisions(int n) {
            if (decisions.length < n) {
                Decision[] grown = new Decision[Math.max(n, 8)];
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

    /** Metrics of every rule in force, the default first, additive rules after the ordinary ones. */
    public List<RuleMetrics> metrics() {
        Snapshot s = current();
        List<RuleMetrics> all = new ArrayList<>();
        s.forEach(r -> all.add(r.metrics));
        return Collections.unmodifiableList(all);
    }

    /** The limiter holding the state of {@code config} on {@code backend} (shadow rules have their own), or null. */
    public synchronized RateLimiter limiter(String backend, RateLimitConfig config, boolean shadow) {
        RateLimiter dedicated = null;
        for (Map.Entry<LimiterKey, RateLimiter> e : limiters.entrySet()) {
            LimiterKey k = e.getKey();
            if (k.shadow == shadow && k.backend.equals(backend) && k.config.equals(config)) {
                if (k.owner == null) {
                    return e.getValue();
                }
                dedicated = e.getValue();
            }
        }
        return dedicated;
    }

    /**
     * The limiter holding the state of the rule at {@code scope} (as in {@link RuleMetrics#scope()}, e.g.
     * {@code additive user=alice}) for its limit {@code config}, or null.
     */
    public synchronized RateLimiter limiter(String scope, RateLimitConfig config) {
        Snapshot s = current();
        RateLimiter[] found = {null};
        s.forEach(r -> {
            if (r.metrics.scope().equals(scope)) {
                int i = r.rule.limits().indexOf(config);
                if (i >= 0) {
                    found[0] = r.parts[i];
                }
            }
        });
        return found[0];
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
        Slot def = slot(Position.DEFAULT, "default", rules.defaultRule, rules.additiveDefault,
                old == null ? null : old.defaultSlot);
        Map<String, Slot> users = slots(Position.USER, "user=", rules.users, rules.additiveUsers,
                old == null ? null : old.users);
        Map<String, Slot> apis = slots(Position.API, "api=", rules.apis, rules.additiveApis,
                old == null ? null : old.apis);
        Map<String, Map<String, Slot>> pairs = new HashMap<>();
        Set<String> pairUsers = new HashSet<>(rules.userApis.keySet());
        pairUsers.addAll(rules.additiveUserApis.keySet());
        for (String u : pairUsers) {
            pairs.put(u, slots(Position.USER_API, "user=" + u + ",api=",
                    rules.userApis.getOrDefault(u, Map.of()), rules.additiveUserApis.getOrDefault(u, Map.of()),
                    old == null ? null : old.userApis.get(u)));
        }
        Snapshot next = new Snapshot(rules, def, users, apis, pairs);
        // Volatile write: publishes the fully built snapshot; requests see all of it or none of it.
        snapshot = next;
        retireUnused(next);
    }

    private Map<String, Slot> slots(Position position, String prefix, Map<String, Rule> ordinary,
            Map<String, Rule> additive, Map<String, Slot> before) {
        Set<String> names = new HashSet<>(ordinary.keySet());
        names.addAll(additive.keySet());
        Map<String, Slot> slots = new HashMap<>();
        for (String name : names) {
            slots.put(name, slot(position, prefix + name, ordinary.get(name), additive.get(name),
                    before == null ? null : before.get(name)));
        }
        return slots;
    }

    private Slot slot(Position position, String scope, Rule ordinary, Rule additive, Slot before) {
        return new Slot(
                ordinary == null ? null : resolve(position, scope, ordinary, before == null ? null : before.rule),
                additive == null ? null : resolve(position, RuleSet.ADDITIVE + scope, additive,
                        before == null ? null : before.additive));
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
        forEachRule(rules, (position, scope, rule) -> {
            if (!isLocal(rule)) {
                return;
            }
            for (RateLimitConfig config : rule.limits()) {
                LimiterKey key = keyOf(position, scope, rule, config);
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

    /**
     * Which limiter holds a limit's state. Rules counting per (user, api) share one limiter per distinct limit (a
     * key whose rule changes keeps its state), since at most one of them applies to a request. Every other rule
     * (another counting scope, or additive) has limiters of its own, owned by its scope, so that no two rules that
     * can apply together, and no two counting scopes, ever share a state. Such a limiter whose key is fixed by the
     * rule's position (a GLOBAL count, a user's own count at a user position, ...) holds
     * {@value #FIXED_KEY_TABLE} keys unless the rule says otherwise.
     */
    private LimiterKey keyOf(Position position, String scope, Rule rule, RateLimitConfig config) {
        boolean dedicated = rule.isAdditive() || rule.keyScope() != KeyScope.USER_API;
        int keys = -1;
        if (isLocal(rule)) {
            if (rule.maxKeysOrDefault() > 0) {
                keys = rule.maxKeysOrDefault();
            } else if (dedicated && position.fixes(rule.keyScope())) {
                keys = FIXED_KEY_TABLE;
            } else {
                keys = defaultMaxKeys(config);
            }
        }
        return new LimiterKey(rule.backend(), config, rule.shadow(), keys, rule.keyScope(), dedicated ? scope : null);
    }

    /** Keys of a dedicated limiter whose rule's position fixes its one key: room for it and nothing to spare. */
    static final int FIXED_KEY_TABLE = 16;

    /** Where a rule is set: the part of a request that selects it. */
    private enum Position {
        DEFAULT("default"), USER("user"), API("api"), USER_API("user-api");

        final String label;

        Position(String label) {
            this.label = label;
        }

        /** Whether every request this position selects has the same key under {@code scope}. */
        boolean fixes(KeyScope scope) {
            switch (scope) {
                case GLOBAL:
                    return true;
                case USER:
                    return this == USER || this == USER_API;
                case API:
                    return this == API || this == USER_API;
                default:
                    return this == USER_API;
            }
        }
    }

    /** A rule with its position and scope string. */
    private interface RuleAction {
        void accept(Position position, String scope, Rule rule);
    }

    private static void forEachRule(RuleSet rules, RuleAction action) {
        action.accept(Position.DEFAULT, "default", rules.defaultRule);
        if (rules.additiveDefault != null) {
            action.accept(Position.DEFAULT, RuleSet.ADDITIVE + "default", rules.additiveDefault);
        }
        forEachIn(Position.USER, "user=", rules.users, "", action);
        forEachIn(Position.USER, "user=", rules.additiveUsers, RuleSet.ADDITIVE, action);
        forEachIn(Position.API, "api=", rules.apis, "", action);
        forEachIn(Position.API, "api=", rules.additiveApis, RuleSet.ADDITIVE, action);
        rules.userApis.forEach((u, m) -> forEachIn(Position.USER_API, "user=" + u + ",api=", m, "", action));
        rules.additiveUserApis.forEach((u, m) -> forEachIn(Position.USER_API, "user=" + u + ",api=", m,
                RuleSet.ADDITIVE, action));
    }

    private static void forEachIn(Position position, String prefix, Map<String, Rule> rules, String kind,
            RuleAction action) {
        rules.forEach((name, rule) -> action.accept(position, kind + prefix + name, rule));
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

    private Resolved resolve(Position position, String scope, Rule rule, Resolved previous) {
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
        String name = rule.name() != null ? rule.name() : position.label + (rule.isAdditive() ? "-additive" : "");
        for (int i = 0; i < parts.length; i++) {
            RateLimitConfig config = limits.get(i);
            parts[i] = limiters.computeIfAbsent(keyOf(position, scope, rule, config),
                    k -> factory == null ? localBuilder(config, k.maxKeys).build() : factory.apply(config));
        }
        Policy[] policies = Policy.ofRule(name, limits, rule.keyScope(), rule.isAdditive());
        return new Resolved(rule, parts, policies, new RuleMetrics(scope, rule, List.of(parts)));
    }

    /** An immutable resolved rule set; read by requests without a lock. */
    private static final class Snapshot {
        final RuleSet rules;
        final Slot defaultSlot;
        final Map<String, Slot> users;
        final Map<String, Slot> apis;
        final Map<String, Map<String, Slot>> userApis;

        Snapshot(RuleSet rules, Slot defaultSlot, Map<String, Slot> users, Map<String, Slot> apis,
                Map<String, Map<String, Slot>> userApis) {
            this.rules = rules;
            this.defaultSlot = defaultSlot;
            this.users = users;
            this.apis = apis;
            this.userApis = userApis;
        }

        /** Every resolved rule, the default first, then the ordinary rules, then the additive ones. */
        void forEach(java.util.function.Consumer<Resolved> action) {
            for (int additive = 0; additive < 2; additive++) {
                boolean a = additive == 1;
                defaultSlot.forKind(a, action);
                users.values().forEach(slot -> slot.forKind(a, action));
                apis.values().forEach(slot -> slot.forKind(a, action));
                userApis.values().forEach(m -> m.values().forEach(slot -> slot.forKind(a, action)));
            }
        }
    }

    /** The rules at one position: the ordinary one and the additive one, either possibly null. */
    private static final class Slot {
        final Resolved rule;
        final Resolved additive;

        Slot(Resolved rule, Resolved additive) {
            this.rule = rule;
            this.additive = additive;
        }

        void forKind(boolean additive, java.util.function.Consumer<Resolved> action) {
            Resolved r = additive ? this.additive : rule;
            if (r != null) {
                action.accept(r);
            }
        }
    }

    private static final class Resolved {
        final Rule rule;
        final KeyScope keyScope;
        final RateLimiter[] parts;
        /** Each limit's name and limit, built once: a decision only points to them. */
        final Policy[] policies;
        final RuleMetrics metrics;

        Resolved(Rule rule, RateLimiter[] parts, Policy[] policies, RuleMetrics metrics) {
            this.rule = rule;
            this.keyScope = rule.keyScope();
            this.parts = parts;
            this.policies = policies;
            this.metrics = metrics;
        }
    }

    private static final class LimiterKey {
        final String backend;
        final RateLimitConfig config;
        final boolean shadow;
        /** Keys of a local limiter's table; -1 for another backend. */
        final int maxKeys;
        final KeyScope keyScope;
        /** The scope of the one rule owning this limiter, or null for a limiter shared by (user, api) rules. */
        final String owner;

        LimiterKey(String backend, RateLimitConfig config, boolean shadow, int maxKeys, KeyScope keyScope,
                String owner) {
            this.backend = backend;
            this.config = config;
            this.shadow = shadow;
            this.maxKeys = maxKeys;
            this.keyScope = keyScope;
            this.owner = owner;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof LimiterKey)) {
                return false;
            }
            LimiterKey k = (LimiterKey) o;
            return shadow == k.shadow && maxKeys == k.maxKeys && backend.equals(k.backend) && config.equals(k.config)
                    && keyScope == k.keyScope && Objects.equals(owner, k.owner);
        }

        @Override
        public int hashCode() {
            return Objects.hash(backend, config, shadow, maxKeys, keyScope, owner);
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
