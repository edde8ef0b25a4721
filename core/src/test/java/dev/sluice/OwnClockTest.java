package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The methods without a time read the limiter's clock once per call, after the key has been read (the engine hashes
 * the key first, so that a cold key's miss on its slot is not serialised behind the clock read).
 */
class OwnClockTest {

    /** A manual clock that counts its reads and records whether the key had been read by then. */
    private static final class CountingClock implements Clock {
        final ManualClock time = new ManualClock();
        RecordingKey key;
        int reads;
        boolean keyReadFirst = true;

        @Override
        public long nanoTime() {
            reads++;
            keyReadFirst &= key == null || key.charsRead > 0;
            return time.nanoTime();
        }
    }

    /** A key that counts how many of its characters were read. */
    private static final class RecordingKey implements CharSequence {
        final String text;
        int charsRead;

        RecordingKey(String text) {
            this.text = text;
        }

        @Override
        public int length() {
            return text.length();
        }

        @Override
        public char charAt(int index) {
            charsRead++;
            return text.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return text.subSequence(start, end);
        }

        @Override
        public String toString() {
            return text;
        }
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void readsTheClockOncePerCallAfterTheKey(Algorithm algorithm) {
        CountingClock clock = new CountingClock();
        try (RateLimiter limiter = RateLimiter.create(RateLimitConfig.of(algorithm, 2, Duration.ofSeconds(1)), clock)) {
            int before = clock.reads;
            for (int i = 0; i < 3; i++) {
                clock.key = new RecordingKey("user-" + i);
                assertTrue(limiter.tryAcquire(clock.key));
                assertEquals(before + 2 * i + 1, clock.reads, "one clock read per String-key call");
                assertTrue(limiter.tryAcquire(1000L + i));
                assertEquals(before + 2 * i + 2, clock.reads, "one clock read per long-key call");
            }
            clock.key = new RecordingKey("user-0");
            assertTrue(limiter.tryAcquire(clock.key, 1));
            assertFalse(limiter.tryAcquire(clock.key, 1), "the limit of 2 holds through the own-clock methods");
            assertTrue(clock.keyReadFirst, "every clock read came after the key's characters were read");
        }
    }
}
