package dev.sluice.algorithm;

import dev.sluice.Decision;
import dev.sluice.RateLimitConfig;

/**
 * Token bucket and leaky bucket as GCRA: the state is the theoretical arrival time (TAT).
 *
 * <pre>
 * state: [ 0 | generation (2 bits) | TAT, ns of limiter time (61 bits) ]     TAT <= t + tau, so below 2^61
 * T   = ceil(window / limit)     emission interval: refill never faster than the ideal bucket
 * tau = burst * T                tolerance: the bucket's capacity, in time
 * admit n  iff  max(TAT, t) + n*T - t <= tau ;  then TAT' = max(TAT, t) + n*T
 * </pre>
 * This is exactly a bucket of {@code burst} tokens refilled by one token every {@code T} ns. The leaky bucket is the
 * same queue seen from the other side: an admitted request must wait {@code max(TAT, t) - t} before it proceeds,
 * which spaces the output by {@code T}. Ranges: {@code T <= 366 days}, {@code tau < 2^60} (checked by the config),
 * {@code t <= 2^58}: no sum here can overflow.
 *
 * <p>The generation: a give-back lowers the TAT, so a key's state can fall back to a value it had before. A slot's
 * next key starts with the previous key's generation plus one, so no state of the new key equals one of the old
 * key's, and an updater still holding an old value fails its CAS (unless four keys passed through the slot while
 * it stalled, with the same TAT besides).
 *
 * <p>Undo: an admission records the state before it ({@code S0}) and after it ({@code S1}). If the key's state is
 * still {@code S1}, the undo restores {@code S0}: the bucket is then exactly the bucket without that admission. If
 * it is not, the undo gives back nothing. Why no partial credit is safe:
 * <ul>
 *   <li>Every admission raises the state ({@code S1 >= S0 + n*T > S0}) and undo lowers it only back to an earlier
 *       admission's {@code S0}. So the admissions not undone since the last {@link #release} form a stack whose
 *       states strictly increase, the key's state is the top's {@code S1}, and a state equal to {@code S1} of an
 *       admission not undone means that admission is the top: nothing of it has been built on, and restoring
 *       {@code S0} is exact (proof by induction over admissions and undos).</li>
 *   <li>Once another admission has landed after it, the single word cannot tell whether that one came before or after
 *       a refill. Burst 1, T = 1 s: admit A at 0; the bucket refills; B is admitted at 5; crediting A now lets C in at
 *       5 too: two in [5, 5] against a burst of 1. So any positive credit is unsafe for some history.</li>
 *   <li>A partial credit that were safe on its own would still break the first point: it lowers the state to a value
 *       that is no admission's {@code S1}, a later admission can land exactly on an older admission's {@code S1}, and
 *       that one's undo would then restore an {@code S0} below what the requests built on it took. (Burst 3, T = 10:
 *       X and A at 0, X credited back, B at 10 lands on A's {@code S1 = 20}; restoring A's {@code S0 = 10} at 10 admits
 *       three more beside B.) So 0 is the largest credit that keeps every undo exact or harmless.</li>
 * </ul>
 * A {@link #release} is a credit (it may give back a refill) and breaks the stack; undos after it are exact only in
 * the sense above for admissions made after it.
 */
public final class TokenBucket implements PackedAlgorithm {

    private static final long GENERATION = 3L << 61;

    private final long emission;
    private final long tolerance;
    private final long burst;
    private final boolean leaky;

    TokenBucket(RateLimitConfig config, boolean leaky) {
        this.emission = RateLimitConfig.emissionIntervalNanos(config.limit(), config.windowNanos());
        this.burst = config.burst();
        this.tolerance = burst * emission;
        this.leaky = leaky;
    }

    @Override
    public long acquire(long state, long t, long permits) {
        if (permits > burst) {
            return DENIED;
        }
        long next = Math.max(state & ~GENERATION, t) + permits * emission;
        return next - t <= tolerance ? next | (state & GENERATION) : DENIED;
    }

    @Override
    public long release(long state, long t, long permits) {
        long tat = state & ~GENERATION;
        long back = Math.min(permits, burst) * emission;
        return Math.max(tat - back, Math.min(tat, t)) | (state & GENERATION);
    }

    @Override
    public long undoToken(long state, long next) {
        return state;
    }

    @Override
    public long undo(long state, long token, long after, long permits) {
        return state == after ? token : state; // exact, or nothing: see the class comment
    }

    @Override
    public boolean isIdle(long state, long t) {
        return (state & ~GENERATION) < t;
    }

    @Override
    public long freshState(long t) {
        return t;
    }

    @Override
    public long freshState(long t, long previous) {
        return t | ((previous + (1L << 61)) & GENERATION);
    }

    @Override
    public void describe(long state, long next, long t, long permits, Decision d) {
        long tat = state & ~GENERATION;
        if (next != DENIED) {
            next &= ~GENERATION;
            long remaining = (tolerance - (next - t)) / emission;
            long delay = leaky ? next - permits * emission - t : 0;
            d.set(true, burst, remaining, 0, next - t, delay);
        } else {
            long base = Math.max(tat, t);
            long remaining = (tolerance - (base - t)) / emission;
            long retry = permits > burst ? Decision.NEVER : base + permits * emission - tolerance - t;
            d.set(false, burst, remaining, retry, base - t, 0);
        }
    }
}
