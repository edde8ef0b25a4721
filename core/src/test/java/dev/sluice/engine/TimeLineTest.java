package dev.sluice.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import org.junit.jupiter.api.Test;

/** The time line: wrapping differences from a window-aligned origin, clamped to its ends, caller readings bounded. */
class TimeLineTest {

    private static final long HORIZON = RateLimitConfig.HORIZON_NANOS;
    private static final long LEAD = RateLimitConfig.MAX_LEAD_NANOS;

    private static TimeLine at(long firstReading, long window) {
        ManualClock clock = new ManualClock();
        clock.setNanos(firstReading);
        return new TimeLine(clock, window, 0);
    }

    @Test
    void theOriginIsTheFirstReadingRoundedDownToTheWindow() {
        TimeLine line = at(1_234_567, 1000);
        assertEquals(1_234_000, line.origin());
        assertEquals(567, line.elapsed(1_234_567));
        assertEquals(1_000_000, line.elapsed(2_234_000));
    }

    @Test
    void readingsBeforeTheOriginCountAsTheOriginAndPastTheHorizonAsTheHorizon() {
        assertEquals(0, at(1_000_000, 1000).elapsed(999_999));
        assertEquals(HORIZON, at(1_000_000, 1000).elapsed(1_000_000 + HORIZON + 1));
    }

    @Test
    void aReadingEarlierThanAnotherIsItsOwnTimeNotRaisedByIt() {
        TimeLine line = at(0, 1000);
        assertEquals(5_000_000, line.callerElapsed(5_000_000));
        assertEquals(4_000_000, line.callerElapsed(4_000_000));
    }

    @Test
    void aClockThatWrapsPastLongMaxKeepsCounting() {
        TimeLine line = at(Long.MAX_VALUE - 1_000_000_000L, 1_000_000L);
        long before = line.elapsed(Long.MAX_VALUE);
        long after = line.elapsed(Long.MIN_VALUE + 999_999_999L); // 1 s after Long.MAX_VALUE
        assertEquals(1_000_000_000L, after - before);
        assertEquals(after, line.callerElapsed(Long.MIN_VALUE + 999_999_999L) , "caller readings across the wrap too");
    }

    @Test
    void theOriginWrapsWhenRoundingDownFallsBelowLongMin() {
        TimeLine line = at(Long.MIN_VALUE + 3, 1000);
        assertEquals(Long.MIN_VALUE + 3 - line.origin(), line.elapsed(Long.MIN_VALUE + 3));
        assertTrue(line.elapsed(Long.MIN_VALUE + 3) < 1000);
    }

    @Test
    void aCallerReadingAYearAheadOfTheClockIsRejectedNamingTheBound() {
        TimeLine line = at(0, 1000);
        long aYear = 365L * 24 * 3600 * 1_000_000_000L;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> line.callerElapsed(aYear));
        assertTrue(e.getMessage().contains("365 days"), e.getMessage());
        assertTrue(e.getMessage().contains("at most 1 hour"), e.getMessage());
        assertEquals(LEAD, line.callerElapsed(LEAD), "exactly the lead is accepted");
    }

    @Test
    void anAlignmentShiftsTheOriginToWhereReadingPlusAlignmentIsAMultipleOfTheWindow() {
        ManualClock clock = new ManualClock();
        clock.setNanos(1_234_567);
        assertEquals(1_233_700, new TimeLine(clock, 1000, 300).origin());
        assertEquals(1_234_300, new TimeLine(clock, 1000, -300).origin());
        assertEquals(1_234_000, new TimeLine(clock, 1000, 7000).origin());
        clock.setNanos(Long.MAX_VALUE);
        long origin = new TimeLine(clock, 1000, Long.MAX_VALUE).origin();
        assertEquals(0, Math.floorMod(Math.floorMod(origin, 1000) + Math.floorMod(Long.MAX_VALUE, 1000), 1000));
        assertTrue(Long.MAX_VALUE - origin >= 0 && Long.MAX_VALUE - origin < 1000);
    }

    @Test
    void theLeadIsMeasuredFromTheClockNow() {
        ManualClock clock = new ManualClock();
        TimeLine line = new TimeLine(clock, 1000, 0);
        assertThrows(IllegalArgumentException.class, () -> line.callerElapsed(2 * LEAD));
        clock.setNanos(LEAD);
        assertEquals(2 * LEAD, line.callerElapsed(2 * LEAD));
    }
}
