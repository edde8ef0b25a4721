package dev.sluice.micrometer;

import dev.sluice.RateLimiterService;
import dev.sluice.RuleMetrics;
import dev.sluice.RuleSet;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Binds the per-rule metrics of a {@link RateLimiterService} ({@link RateLimiterService#metrics()}) to Micrometer.
 * Every rule in force gets these meters, tagged {@value #SCOPE_TAG} with the rule's scope ({@code default},
 * {@code user=NAME}, {@code api=NAME}, {@code user=NAME,api=NAME}) and with the caller's common tags:
 * <table>
 *   <caption>Meters per rule</caption>
 *   <tr><th>name</th><th>type</th><th>value</th></tr>
 *   <tr><td>{@value #REQUESTS} {@code outcome=admitted}</td><td>FunctionCounter</td><td>{@link RuleMetrics#admitted()}</td></tr>
 *   <tr><td>{@value #REQUESTS} {@code outcome=denied}</td><td>FunctionCounter</td><td>{@link RuleMetrics#denied()}</td></tr>
 *   <tr><td>{@value #WOULD_DENY}</td><td>FunctionCounter</td><td>{@link RuleMetrics#wouldDeny()} (shadow rules)</td></tr>
 *   <tr><td>{@value #TABLE_FULL}</td><td>FunctionCounter</td><td>{@link RuleMetrics#tableFullEvents()}</td></tr>
 *   <tr><td>{@value #LIVE_KEYS}</td><td>Gauge</td><td>{@link RuleMetrics#liveKeys()}</td></tr>
 * </table>
 * An additive rule's scope is prefixed {@code additive } ({@code additive user=alice}) and its meters are tagged
 * {@value #ADDITIVE_TAG}{@code =true}; an additive rule counts every request it applied to that was admitted, and
 * the requests its own limit denied. One service-wide counter, {@value #RETIRED}, counts the limiters the service
 * closed because no rule used them any more. There is one set of meters per rule, never per key, so cardinality
 * is that of the rule set.
 *
 * <p><b>Following rule changes.</b> Each meter reads the service's counters when the registry reads it, never on
 * the request path. On every read the binding checks whether the service's rule set changed (one reference
 * comparison); if it did, it looks the scope's current {@link RuleMetrics} up again. A rule replaced at the same
 * scope starts fresh counters in the service; the binding adds the old rule's final counts to the scope's base,
 * so that each counter stays monotonic across rule changes (a request still in flight on the old rule at that
 * instant may go uncounted). Meters for scopes added after binding, and the removal of meters for scopes that are
 * gone, wait for {@link #refresh()} (called by {@link #bindTo}): registering meters from inside a registry's own
 * read is not safe in every registry. Until then a removed scope's counters stay at their last values.
 * {@value #TABLE_FULL} and {@value #LIVE_KEYS} are those of the limiters that hold the rule's state, which rules
 * with an equal limit share.
 *
 * <p>After the service is closed, counters keep their last values and {@value #LIVE_KEYS} reads 0; the binding then
 * never touches the service's freed memory.
 *
 * <p>Reachability: Micrometer holds a function counter's object weakly; the {@value #LIVE_KEYS} gauge of each scope
 * holds it strongly, so the meters keep working while they are registered, even if the caller drops this binder.
 *
 * <p>Thread-safe: reads, {@link #bindTo} and {@link #refresh} are serialised on this binder's monitor.
 */
public final class SluiceMetrics implements MeterBinder {

    public static final String REQUESTS = "sluice.requests";
    public static final String WOULD_DENY = "sluice.requests.would.deny";
    public static final String TABLE_FULL = "sluice.table.full";
    public static final String LIVE_KEYS = "sluice.keys.live";
    /** Service-wide: limiters closed because no rule used them any more ({@link RateLimiterService#retiredLimiters()}). */
    public static final String RETIRED = "sluice.limiters.retired";
    public static final String SCOPE_TAG = "scope";
    /** {@code true} on the meters of an additive rule (scope {@code additive ...}), {@code false} on the others. */
    public static final String ADDITIVE_TAG = "additive";
    public static final String OUTCOME_TAG = "outcome";

    private final RateLimiterService service;
    private final Tags tags;
    private final List<MeterRegistry> registries = new ArrayList<>();
    private final Map<String, ScopeMeters> scopes = new HashMap<>();
    /** The rule set whose RuleMetrics the scopes read; null until the first sync. */
    private RuleSet followed;
    private boolean closed;
    /** The last retired count read, kept for when the service is closed. */
    private long lastRetired;

    public SluiceMetrics(RateLimiterService service) {
        this(service, Tags.empty());
    }

    /** A binding whose meters all carry {@code tags} besides their own. */
    public SluiceMetrics(RateLimiterService service, Iterable<Tag> tags) {
        this.service = Objects.requireNonNull(service, "service must not be null");
        this.tags = Tags.of(Objects.requireNonNull(tags, "tags must not be null"));
    }

    /** Registers the meters of every rule in force; binding the same registry twice does nothing more. */
    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry must not be null");
        for (MeterRegistry r : registries) {
            if (r == registry) {
                refresh();
                return;
            }
        }
        registries.add(registry);
        // The scopes' gauges hold this binder strongly, so the weakly held counter keeps reading.
        FunctionCounter.builder(RETIRED, this, SluiceMetrics::retired).tags(tags).baseUnit("limiters")
                .description("Limiters closed because no rule used them any more").register(registry);
        for (ScopeMeters s : scopes.values()) {
            s.register(registry);
        }
        refresh();
    }

    /**
     * Brings the set of meters in line with the rules in force: registers meters for new scopes in every bound
     * registry and removes the meters of scopes that are gone. Call it after reconfiguring the service (or on a
     * schedule); values of scopes that remain follow rule changes without it.
     */
    public synchronized void refresh() {
        List<RuleMetrics> all;
        try {
            RuleSet rules = service.rules();
            all = service.metrics();
            followed = rules;
        } catch (IllegalStateException serviceClosed) {
            closed = true;
            return;
        }
        Map<String, RuleMetrics> byScope = new HashMap<>();
        for (RuleMetrics m : all) {
            byScope.put(m.scope(), m);
        }
        for (Iterator<ScopeMeters> it = scopes.values().iterator(); it.hasNext();) {
            ScopeMeters s = it.next();
            RuleMetrics m = byScope.remove(s.scope);
            if (m == null) {
                s.unregister();
                it.remove();
            } else {
                s.follow(m);
            }
        }
        for (RuleMetrics m : byScope.values()) {
            ScopeMeters s = new ScopeMeters(m);
            scopes.put(m.scope(), s);
            for (MeterRegistry r : registries) {
                s.register(r);
            }
        }
    }

    /** Re-reads each scope's RuleMetrics if the rule set changed since the last look. Caller holds the monitor. */
    private void followRules() {
        if (closed) {
            return;
        }
        try {
            RuleSet rules = service.rules();
            if (rules == followed) {
                return;
            }
            List<RuleMetrics> all = service.metrics();
            followed = rules;
            for (RuleMetrics m : all) {
                ScopeMeters s = scopes.get(m.scope());
                if (s != null) {
                    s.follow(m);
                }
            }
        } catch (IllegalStateException serviceClosed) {
            closed = true;
        }
    }

    private synchronized double retired() {
        if (!closed) {
            lastRetired = service.retiredLimiters();
        }
        return lastRetired;
    }

    private synchronized double read(ScopeMeters s, int what) {
        followRules();
        return s.value(what);
    }

    private static final int ADMITTED = 0;
    private static final int DENIED = 1;
    private static final int WOULD_DENY_COUNT = 2;
    private static final int TABLE_FULL_COUNT = 3;
    private static final int LIVE = 4;

    /** The meters of one scope and the counts of the rules it held before. Guarded by the binder's monitor. */
    private final class ScopeMeters {
        final String scope;
        private RuleMetrics current;
        private long admittedBase;
        private long deniedBase;
        private long wouldDenyBase;
        private long tableFullBase;
        /** The last table-full count read from {@link #current}, kept for when the service is closed. */
        private long lastTableFull;
        private final List<Bound> bound = new ArrayList<>();

        ScopeMeters(RuleMetrics current) {
            this.scope = current.scope();
            this.current = current;
            this.lastTableFull = current.tableFullEvents();
        }

        void follow(RuleMetrics next) {
            if (next == current) {
                return;
            }
            admittedBase += current.admitted();
            deniedBase += current.denied();
            wouldDenyBase += current.wouldDeny();
            tableFullBase += tableFull();
            current = next;
            lastTableFull = next.tableFullEvents();
        }

        private long tableFull() {
            if (!closed) {
                lastTableFull = current.tableFullEvents();
            }
            return lastTableFull;
        }

        double value(int what) {
            switch (what) {
                case ADMITTED:
                    return admittedBase + current.admitted();
                case DENIED:
                    return deniedBase + current.denied();
                case WOULD_DENY_COUNT:
                    return wouldDenyBase + current.wouldDeny();
                case TABLE_FULL_COUNT:
                    return tableFullBase + tableFull();
                case LIVE:
                    return closed ? 0 : current.liveKeys();
                default:
                    throw new AssertionError(what);
            }
        }

        void register(MeterRegistry registry) {
            Tags t = tags.and(SCOPE_TAG, scope).and(ADDITIVE_TAG,
                    Boolean.toString(scope.startsWith(RuleSet.ADDITIVE)));
            add(registry, FunctionCounter.builder(REQUESTS, this, s -> read(s, ADMITTED))
                    .tags(t).tag(OUTCOME_TAG, "admitted").baseUnit("requests")
                    .description("Requests this rule admitted").register(registry));
            add(registry, FunctionCounter.builder(REQUESTS, this, s -> read(s, DENIED))
                    .tags(t).tag(OUTCOME_TAG, "denied").baseUnit("requests")
                    .description("Requests this rule denied").register(registry));
            add(registry, FunctionCounter.builder(WOULD_DENY, this, s -> read(s, WOULD_DENY_COUNT))
                    .tags(t).baseUnit("requests")
                    .description("Requests this shadow rule would have denied").register(registry));
            add(registry, FunctionCounter.builder(TABLE_FULL, this, s -> read(s, TABLE_FULL_COUNT))
                    .tags(t).baseUnit("events")
                    .description("Requests that met a full state table in this rule's limiters").register(registry));
            // Strong reference: this gauge keeps the scope (and so the weakly held counters' object) alive.
            add(registry, Gauge.builder(LIVE_KEYS, this, s -> read(s, LIVE))
                    .tags(t).baseUnit("keys").strongReference(true)
                    .description("Keys holding state in this rule's limiters").register(registry));
        }

        private void add(MeterRegistry registry, Meter meter) {
            bound.add(new Bound(registry, meter));
        }

        void unregister() {
            for (Bound b : bound) {
                b.registry.remove(b.meter);
            }
            bound.clear();
        }
    }

    private static final class Bound {
        final MeterRegistry registry;
        final Meter meter;

        Bound(MeterRegistry registry, Meter meter) {
            this.registry = registry;
            this.meter = meter;
        }
    }
}
