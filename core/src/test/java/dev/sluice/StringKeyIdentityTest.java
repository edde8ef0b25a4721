package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.reference.ReferenceRateLimiter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Distinct string keys never share state, whatever their relation, and a key's identity is the same whether it
 * arrives as chars, as bytes in an array or as bytes in a heap or direct buffer.
 */
class StringKeyIdentityTest {

    private static final RateLimitConfig ONE_PER_HOUR =
            RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1, Duration.ofHours(1));

    private static RateLimiter limiter(boolean engine, ManualClock clock) {
        return engine ? RateLimiter.builder(ONE_PER_HOUR).clock(clock).maxKeys(4096).build()
                : new ReferenceRateLimiter(ONE_PER_HOUR, clock);
    }

    @Test
    void keysDifferingInTheTopBitOfOneCharAndBit12OfTheCharAfterNextDoNotShareState() {
        // The differential that collided the earlier unkeyed block hash: bit 63 of one 4-char block, bit 28 of the
        // next. Each of 300 limiters has its own secret key; every pair is two keys, so both are admitted.
        SplittableRandom random = new SplittableRandom(63_28);
        for (int run = 0; run < 300; run++) {
            char[] chars = new char[84];
            for (int i = 0; i < chars.length; i++) {
                chars[i] = (char) ('a' + random.nextInt(26));
            }
            String a = new String(chars);
            int block = random.nextInt(20) * 4;
            chars[block + 3] ^= 0x8000;
            chars[block + 5] ^= 0x1000;
            String b = new String(chars);
            try (RateLimiter limiter = limiter(true, new ManualClock())) {
                assertTrue(limiter.tryAcquire(a, 1, 0));
                assertTrue(limiter.tryAcquire(b, 1, 0), "run " + run);
                assertFalse(limiter.tryAcquire(a, 1, 0));
                assertFalse(limiter.tryAcquire(b, 1, 0));
            }
        }
    }

    @Test
    void engineAgreesWithReferenceOnAdversarialKeyFamilies() {
        List<String> keys = adversarialKeys();
        SplittableRandom random = new SplittableRandom(0xFA3117L);
        RateLimitConfig config = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 2, Duration.ofSeconds(1));
        ManualClock clock = new ManualClock();
        Decision expected = new Decision();
        Decision actual = new Decision();
        try (RateLimiter engine = RateLimiter.builder(config).clock(clock).maxKeys(keys.size() * 2).build();
                RateLimiter reference = new ReferenceRateLimiter(config, clock)) {
            for (int i = 0; i < 60_000; i++) {
                if (random.nextInt(2000) == 0) {
                    clock.advance(Duration.ofMillis(1000));
                }
                String key = keys.get(random.nextInt(keys.size()));
                long now = clock.nanoTime();
                boolean want = reference.tryAcquire(key, 1, now, expected);
                boolean got = engine.tryAcquire(key, 1, now, actual);
                assertEquals(want, got, "request " + i + " on " + escape(key));
                assertEquals(expected.remaining(), actual.remaining(), "request " + i + " on " + escape(key));
            }
            assertEquals(0, engine.tableFullEvents());
        }
    }

    @Test
    void everyAdversarialKeyHasItsOwnStateInTheEngine() {
        List<String> keys = adversarialKeys();
        try (RateLimiter engine = limiter(true, new ManualClock())) {
            for (String key : keys) {
                assertTrue(engine.tryAcquire(key, 1, 0), escape(key));
            }
            for (String key : keys) {
                assertFalse(engine.tryAcquire(key, 1, 0), escape(key));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void bytesAndTheStringTheySpellInUtf8ShareOneState(boolean engine) {
        for (String key : new String[] {"alice", "user42|api7", "naïve-東京-\uD83D\uDE00", "0123456789abcdefghij"}) {
            byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
            try (RateLimiter limiter = limiter(engine, new ManualClock())) {
                assertTrue(limiter.tryAcquire(utf8, 0, utf8.length, 1, 0, null));
                assertFalse(limiter.tryAcquire(key, 1, 0), key);
            }
            try (RateLimiter limiter = limiter(engine, new ManualClock())) {
                assertTrue(limiter.tryAcquire(key, 1, 0));
                assertFalse(limiter.tryAcquire(utf8, 0, utf8.length, 1, 0, null), key);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void anArrayRangeAHeapBufferAndADirectBufferWithTheSameBytesShareOneState(boolean engine) {
        byte[] key = "gateway-key-0042".getBytes(StandardCharsets.US_ASCII);
        byte[] padded = new byte[key.length + 10];
        System.arraycopy(key, 0, padded, 3, key.length);
        ByteBuffer heap = ByteBuffer.wrap(padded, 3, key.length);
        ByteBuffer direct = ByteBuffer.allocateDirect(key.length + 5);
        direct.position(5).mark();
        direct.put(key).reset();
        RateLimitConfig three = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3, Duration.ofHours(1));
        ManualClock clock = new ManualClock();
        try (RateLimiter limiter = engine ? RateLimiter.builder(three).clock(clock).maxKeys(64).build()
                : new ReferenceRateLimiter(three, clock)) {
            assertTrue(limiter.tryAcquire(padded, 3, key.length, 1, 0, null));
            assertTrue(limiter.tryAcquire(heap, 1, 0, null));
            assertTrue(limiter.tryAcquire(direct, 1, 0, null));
            assertFalse(limiter.tryAcquire(key, 0, key.length, 1, 0, null));
            assertFalse(limiter.tryAcquire("gateway-key-0042", 1, 0));
            assertEquals(3, heap.position());
            assertEquals(3 + key.length, heap.limit());
            assertEquals(5, direct.position());
            assertEquals(direct.capacity(), direct.limit());
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aByteRangeOutsideTheArrayThrowsIndexOutOfBounds(boolean engine) {
        byte[] key = new byte[8];
        try (RateLimiter limiter = limiter(engine, new ManualClock())) {
            assertThrows(IndexOutOfBoundsException.class, () -> limiter.tryAcquire(key, -1, 2, 1, 0, null));
            assertThrows(IndexOutOfBoundsException.class, () -> limiter.tryAcquire(key, 4, 5, 1, 0, null));
            assertThrows(IndexOutOfBoundsException.class, () -> limiter.tryAcquire(key, 2, -1, 1, 0, null));
            assertEquals(0, limiter.liveKeys());
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void bytesOfAnUnpairedSurrogateAreTheKeyOfThatCharAndNotOfTheReplacementChar(boolean engine) {
        byte[] lone = {'k', (byte) 0xED, (byte) 0xA0, (byte) 0x80};
        try (RateLimiter limiter = limiter(engine, new ManualClock())) {
            assertTrue(limiter.tryAcquire(lone, 0, lone.length, 1, 0, null));
            assertTrue(limiter.tryAcquire("k\uFFFD", 1, 0));
            assertFalse(limiter.tryAcquire("k\uD800", 1, 0));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void bytesThatAreNotUtf8OfAnyCharsAreStillOneKeyEach(boolean engine) {
        byte[][] keys = {{(byte) 0xFF}, {(byte) 0xFE}, {(byte) 0xC0, (byte) 0x80}, {0}, {(byte) 0x80}};
        try (RateLimiter limiter = limiter(engine, new ManualClock())) {
            for (byte[] key : keys) {
                assertTrue(limiter.tryAcquire(key, 0, key.length, 1, 0, null));
            }
            for (byte[] key : keys) {
                assertFalse(limiter.tryAcquire(key, 0, key.length, 1, 0, null));
            }
        }
    }

    @Test
    void twoPartKeysSplitDifferentlyAreDifferentKeys() {
        try (RateLimiter limiter = limiter(true, new ManualClock())) {
            assertTrue(limiter.tryAcquire("ab", "c", 1, 0, null));
            assertTrue(limiter.tryAcquire("a", "bc", 1, 0, null));
            assertTrue(limiter.tryAcquire("", "abc", 1, 0, null));
            assertTrue(limiter.tryAcquire("abc", "", 1, 0, null));
            assertTrue(limiter.tryAcquire("abc", 1, 0));
            assertFalse(limiter.tryAcquire("ab", "c", 1, 0, null));
            assertFalse(limiter.tryAcquire(new StringBuilder("a"), "bc", 1, 0, null));
        }
    }

    @Test
    void aStringKeyNamedByTheKeyCacheIsTheSameKeyAsItsCharsHashedUncached() {
        // Limit 1: the first form of a key is admitted, every other form is the same key and is denied. The String
        // is named by the cache from its second use on; a StringBuilder and the bytes always run the keyed hash.
        List<String> keys = adversarialKeys();
        SplittableRandom random = new SplittableRandom(0xCAC4EL);
        for (int i = 0; i < 500; i++) {
            keys.add(randomKey(random));
        }
        try (RateLimiter limiter = RateLimiter.builder(ONE_PER_HOUR).clock(new ManualClock()).maxKeys(4096).build()) {
            for (String key : keys) {
                assertTrue(limiter.tryAcquire(key, 1, 0), escape(key));
                assertFalse(limiter.tryAcquire(key, 1, 0), escape(key));
                assertFalse(limiter.tryAcquire(new String(key.toCharArray()), 1, 0), escape(key));
                assertFalse(limiter.tryAcquire(new StringBuilder(key), 1, 0), escape(key));
                if (key.equals(new String(key.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))) {
                    byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
                    assertFalse(limiter.tryAcquire(utf8, 0, utf8.length, 1, 0, null), escape(key));
                }
            }
        }
    }

    @Test
    void aTwoPartKeyNamedByTheKeyCacheIsTheSameKeyAsItsPartsHashedUncached() {
        List<String> parts = adversarialKeys();
        SplittableRandom random = new SplittableRandom(0x9A125L);
        try (RateLimiter limiter = RateLimiter.builder(ONE_PER_HOUR).clock(new ManualClock()).maxKeys(8192).build()) {
            for (int i = 0; i < 2000; i++) {
                String user = parts.get(random.nextInt(parts.size()));
                String api = parts.get(random.nextInt(parts.size()));
                // The uncached form first (admitted, or denied if the pair came before), then the cached forms.
                limiter.tryAcquire(new StringBuilder(user), new StringBuilder(api), 1, 0, null);
                assertFalse(limiter.tryAcquire(user, api, 1, 0, null), escape(user) + " / " + escape(api));
                assertFalse(limiter.tryAcquire(new String(user.toCharArray()), api, 1, 0, null));
            }
        }
    }

    @Test
    void engineAgreesWithReferenceOnFreshCopiesOfAdversarialKeysWhileCacheEntriesAreReplaced() {
        // Tens of thousands of distinct keys on a cache of 1,024 entries, so entries are replaced all the time; each
        // request builds its key afresh (its hashCode() not yet cached), single and two-part keys interleaved.
        List<String> keys = adversarialKeys();
        SplittableRandom random = new SplittableRandom(0xF2E54L);
        RateLimitConfig config = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3, Duration.ofSeconds(1));
        ManualClock clock = new ManualClock();
        Decision expected = new Decision();
        Decision actual = new Decision();
        try (RateLimiter engine = RateLimiter.builder(config).clock(clock).maxKeys(64 * 1024).build();
                RateLimiter reference = new ReferenceRateLimiter(config, clock)) {
            for (int i = 0; i < 60_000; i++) {
                if (random.nextInt(3000) == 0) {
                    clock.advance(Duration.ofMillis(1000));
                }
                String a = keys.get(random.nextInt(keys.size()));
                String b = keys.get(random.nextInt(keys.size()));
                long now = clock.nanoTime();
                boolean pair = random.nextBoolean();
                boolean want = pair ? reference.tryAcquire(a, b, 1, now, expected)
                        : reference.tryAcquire(a, 1, now, expected);
                String freshA = new String(a.toCharArray());
                boolean got = pair ? engine.tryAcquire(freshA, new String(b.toCharArray()), 1, now, actual)
                        : engine.tryAcquire(freshA, 1, now, actual);
                assertEquals(want, got, "request " + i + " on " + escape(a) + (pair ? " / " + escape(b) : ""));
                assertEquals(expected.remaining(), actual.remaining(), "request " + i);
            }
            assertEquals(0, engine.tableFullEvents());
        }
    }

    private static String randomKey(SplittableRandom random) {
        int length = random.nextInt(3) == 0 ? 120 + random.nextInt(20) : 1 + random.nextInt(70);
        char[] c = new char[length];
        for (int i = 0; i < length; i++) {
            int kind = random.nextInt(10);
            c[i] = (char) (kind < 7 ? 0x20 + random.nextInt(0x5F) : kind < 9 ? random.nextInt(0x800)
                    : random.nextInt(0x10000));
        }
        return new String(c);
    }

    /** Keys a caller might craft: one-char and high-bit differences, length-only differences, equal hashCode(). */
    private static List<String> adversarialKeys() {
        List<String> keys = new ArrayList<>();
        String base = "user-0042|api/v1/orders";
        keys.add(base);
        for (int i = 0; i < base.length(); i++) {
            for (int bit : new int[] {0, 1, 5, 7, 8, 12, 15}) {
                char[] c = base.toCharArray();
                c[i] ^= (char) (1 << bit);
                keys.add(new String(c));
            }
        }
        StringBuilder zeros = new StringBuilder("z");
        for (int n = 0; n < 40; n++) {
            keys.add(zeros.toString());
            zeros.append('\0');
        }
        String[] equalHash = {"Aa", "BB"};
        for (int mask = 0; mask < 1 << 6; mask++) {
            StringBuilder sb = new StringBuilder();
            for (int j = 0; j < 6; j++) {
                sb.append(equalHash[mask >>> j & 1]);
            }
            keys.add(sb.toString());
        }
        keys.add("\uD800");
        keys.add("\uDC00");
        keys.add("\uD800\uDC00");
        keys.add("\uDC00\uD800");
        keys.add("\uFFFD");
        keys.add("");
        String longKey = "k".repeat(130);
        keys.add(longKey);
        keys.add(longKey.substring(1) + "j");
        keys.add(longKey.substring(2));
        String capped = "c".repeat(128);
        keys.add(capped);
        keys.add(capped.substring(1) + "\u00e9");
        keys.add(capped + "c");
        return keys;
    }

    private static String escape(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            sb.append(c >= 0x20 && c < 0x7F ? String.valueOf(c) : String.format("\\u%04x", (int) c));
        }
        return sb.toString();
    }
}
