package dev.sluice.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.RateLimitConfig;
import org.junit.jupiter.api.Test;

/** The time line clamps readings to its ends and never goes back, with no overflow anywhere in the long range. */
class TimeLineTest {

    private static final long HORIZON = RateLimitConfig.HORIZON_NANOS;

    @Test
    void theOriginIsTheFirstReadingRoundedDownToTheWindow() {
        TimeLine line = new TimeLine(1_234_567, 1000);
        assertEquals(1_234_000, line.origin());
        assertEquals(567, line.elapsed(1_234_567));
        assertEquals(1_000_000, line.elapsed(2_234_000));
    }

    @Test
    void readingsBeforeTheOriginCountAsTheOriginAndPastTheHorizonAsTheHorizon() {
        assertEquals(0, new TimeLine(1_000_000, 1000).elapsed(999_999));
        assertEquals(0, new TimeLine(1_000_000, 1000).elapsed(Long.MIN_VALUE));
        assertEquals(HORIZON, new TimeLine(1_000_000, 1000).elapsed(1_000_000 + HORIZON + 1));
        assertEquals(HORIZON, new TimeLine(1_000_000, 1000).elapsed(Long.MAX_VALUE));
    }

    @Test
    void aReadingEarlierThanTheMarkCountsAsTheMark() {
        TimeLine line = new TimeLine(0, 1000);
        assertEquals(5_000_000, line.elapsed(5_000_000)); // more than a step past the mark: the mark moves to it
        assertEquals(5_000_000, line.elapsed(4_000_000));
        assertEquals(5_500_000, line.elapsed(5_500_000)); // within a step: counted, the mark stays
        assertEquals(5_000_000, line.elapsed(4_000_000));
    }

    @Test
    void theEndsOfTheLongRangeDoNotOverflow() {
        TimeLine nearMax = new TimeLine(Long.MAX_VALUE - 10, 1000);
        assertEquals(Long.MAX_VALUE - nearMax.origin(), nearMax.elapsed(Long.MAX_VALUE));

        TimeLine nearMin = new TimeLine(Long.MIN_VALUE + 3, 1000);
        assertEquals(0, nearMin.elapsed(Long.MIN_VALUE));
        assertEquals(10_000, nearMin.elapsed(nearMin.origin() + 10_000));
    }
}
