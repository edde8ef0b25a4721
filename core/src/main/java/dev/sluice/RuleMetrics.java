package dev.sluice;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of one rule of a {@link RateLimiterService}, readable at any time. Admitted and denied count the
 * requests the rule decided; would-deny counts the requests a shadow rule would have denied. Counters are
 * {@link LongAdder}s: an increment touches a cell of the calling thread's own, so counting does not make threads
 * contend. Table-full events and live keys are those of the limiters holding the rule's state, which rules with an
 * equal limit share. A rule that is replaced by a different one at the same scope starts new counters.
 */
public final class RuleMetrics {

    private final String scope;
    private final Rule rule;
    private final List<RateLimiter> limiters;
    final LongAdder admitted = new LongAdder();
    final LongAdder denied = new LongAdder();
    final LongAdder wouldDeny = new LongAdder();

    RuleMetrics(String scope, Rule rule, List<RateLimiter> limiters) {
        this.scope = scope;
        this.rule = rule;
        this.limiters = limiters;
    }

    /** {@code default}, {@code user=NAME}, {@code api=NAME} or {@code user=NAME,api=NAME}. */
    public String scope() {
        return scope;
    }

    public Rule rule() {
        return rule;
    }

    public long admitted() {
        return admitted.sum();
    }

    public long denied() {
        return denied.sum();
    }

    /** Requests a shadow rule would have denied (always 0 for an enforcing rule). */
    public long wouldDeny() {
        return wouldDeny.sum();
    }

    public long tableFullEvents() {
        long sum = 0;
        for (RateLimiter l : limiters) {
            sum += l.tableFullEvents();
        }
        return sum;
    }

    public long liveKeys() {
        long sum = 0;
        for (RateLimiter l : limiters) {
            sum += l.liveKeys();
        }
        return sum;
    }

    @Override
    public String toString() {
        return "RuleMetrics[" + scope + ": admitted=" + admitted() + ", denied=" + denied() + ", wouldDeny="
                + wouldDeny() + "]";
    }
}
