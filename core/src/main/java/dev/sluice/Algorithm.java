package dev.sluice;

/** The rate-limiting algorithms Sluice implements. See the README for the exact semantics of each. */
public enum Algorithm {
    /** Capacity {@code limit} (or the configured burst), refilled continuously at {@code limit} per window. GCRA in one {@code long}. */
    TOKEN_BUCKET,
    /**
     * At most {@code limit} per window; windows are {@code [k*W, (k+1)*W)} on the clock's time line, shifted by the
     * config's {@linkplain RateLimitConfig#alignedTo alignment}.
     */
    FIXED_WINDOW,
    /** At most {@code limit} admitted in any interval {@code (t - W, t]}: exact, one ring of timestamps per key. */
    SLIDING_WINDOW_LOG,
    /** Admit iff {@code prev * (W - e) / W + curr + n <= limit}; {@code e} is the time since the current window began. */
    SLIDING_WINDOW_COUNTER,
    /** A queue of {@code limit} slots drained at {@code limit} per window; an admission also yields its delay. */
    LEAKY_BUCKET
}
