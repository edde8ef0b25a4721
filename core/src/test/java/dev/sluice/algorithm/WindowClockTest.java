package dev.sluice.algorithm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WindowClockTest {

    private final WindowClock windows = new WindowClock(1000);

    @Test
    void latestKeepsTheStoredWindowUpToItsLastNanosecond() {
        assertEquals(5, windows.latest(5, 5000));
        assertEquals(5, windows.latest(5, 5999));
        assertEquals(6, windows.latest(5, 6000));
        assertEquals(9, windows.latest(5, 9500));
    }

    @Test
    void latestNeverGoesBackForAnEarlierTime() {
        assertEquals(5, windows.latest(5, 4999));
        assertEquals(5, windows.latest(5, 0));
    }

    @Test
    void latestIsTheMaximumOfStoredAndIndexOnRandomInputs() {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 100_000; i++) {
            long window = 1 + random.nextLong(1_000_000_000L);
            WindowClock clock = new WindowClock(window);
            long t = random.nextLong(1L << 50);
            long stored = Math.max(0, t / window + random.nextLong(-3, 4));
            assertEquals(Math.max(stored, clock.index(t)), clock.latest(stored, t),
                    () -> window + " " + t + " " + stored);
        }
    }
}
