package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import dev.sluice.RateLimiterService;
import dev.sluice.Rule;
import dev.sluice.RuleSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Exact header values for decisions taken on a ManualClock. */
class RateLimitHeadersTest {

    private static final long SECOND = 1_000_000_000L;

    private final ManualClock clock = new ManualClock();
    private final Decision d = new Decision();

    private static RateLimitConfig config(Algorithm a, long limit, Duration window) {
        return RateLimitConfig.of(a, limit, window);
    }

    /** Takes {@code n} single permits for key 1 at the clock's time; the decision is the last one's. */
    private boolean take(RateLimiter limiter, int n) {
        boolean last = false;
        for (int i = 0; i < n; i++) {
            last = limiter.tryAcquire(1L, 1, clock.nanoTime(), d);
        }
        return last;
    }

    @Test
    void fixedWindowHalfwayWithFortyTwoLeftGivesTheDraftExample() {
        RateLimitConfig cfg = config(Algorithm.FIXED_WINDOW, 100, Duration.ofSeconds(60));
        try (RateLimiter limiter = RateLimiter.create(cfg, clock)) {
            clock.setMillis(30_000);
            assertTrue(take(limiter, 58));
            RateLimitHeaders h = RateLimitHeaders.of(cfg);
            assertEquals(Map.of("RateLimit-Policy", "\"default\";q=100;w=60", "RateLimit", "\"default\";r=42;t=30"),
                    h.headers(d));
            assertEquals(200, RateLimitHeaders.status(d));
            assertNull(RateLimitHeaders.retryAfterValue(d));
        }
    }

    @Test
    void deniedFixedWindowRetriesAtTheWindowEndRoundedUp() {
        RateLimitConfig cfg = config(Algorithm.FIXED_WINDOW, 3, Duration.ofSeconds(10));
        try (RateLimiter limiter = RateLimiter.create(cfg, clock)) {
            clock.setMillis(2_500);
            assertTrue(take(limiter, 3));
            assertFalse(take(limiter, 1));
            assertEquals(7_500_000_000L, d.retryAfterNanos());
            RateLimitHeaders h = RateLimitHeaders.of("per-10s", cfg);
            assertEquals("\"per-10s\";q=3;w=10", h.policyValue());
            assertEquals("\"per-10s\";r=0;t=8", h.rateLimitValue(d));
            assertEquals("8", RateLimitHeaders.retryAfterValue(d));
            assertEquals(RateLimitHeaders.TOO_MANY_REQUESTS, RateLimitHeaders.status(d));
        }
    }

    @Test
    void writesPolicyThenRateLimitThenRetryAfterInThatOrder() {
        RateLimitConfig cfg = config(Algorithm.FIXED_WINDOW, 1, Duration.ofSeconds(5));
        try (RateLimiter limiter = RateLimiter.create(cfg, clock)) {
            clock.setMillis(1_000);
            assertTrue(take(limiter, 1));
            assertFalse(take(limiter, 1));
            List<String> written = new ArrayList<>();
            RateLimitHeaders.of(cfg).write(d, (name, value) -> written.add(name + ": " + value));
            assertEquals(List.of("RateLimit-Policy: \"default\";q=1;w=5", "RateLimit: \"default\";r=0;t=4",
                    "Retry-After: 4"), written);
        }
    }

    @Test
    void tokenBucketRetryAfterOfOneEmissionIntervalRoundsUpToOneSecond() {
        RateLimitConfig cfg = config(Algorithm.TOKEN_BUCKET, 10, Duration.ofSeconds(1));
        try (RateLimiter limiter = RateLimiter.create(cfg, clock)) {
            assertTrue(take(limiter, 10));
            assertFalse(take(limiter, 1));
            assertEquals(100_000_000L, d.retryAfterNanos());
            assertEquals("1", RateLimitHeaders.retryAfterValue(d));
            assertEquals("\"default\";r=0;t=1", RateLimitHeaders.of(cfg).rateLimitValue(d));
        }
    }

    @Test
    void tokenBucketAdmittedReportsTimeUntilFullAsT() {
        RateLimitConfig cfg = config(Algorithm.TOKEN_BUCKET, 60, Duration.ofSeconds(60));
        try (RateLimiter limiter = RateLimiter.create(cfg, clock)) {
            assertTrue(take(limiter, 5));
            assertEquals(5 * SECOND, d.resetAfterNanos());
            assertEquals("\"default\";r=55;t=5", RateLimitHeaders.of(cfg).rateLimitValue(d));
            clock.advanceMillis(2_500);
            assertTrue(take(limiter, 1));
            assertEquals(3_500_000_000L, d.resetAfterNanos());
            assertEquals("\"default\";r=56;t=4", RateLimitHeaders.of(cfg).rateLimitValue(d));
        }
    }

    @Test
    void retryAfterIsExactOnWholeSecondsAndRoundsUpOneNanosecondPast() {
        RateLimitConfig cfg = config(Algorithm.FIXED_WINDOW, 1, Duration.ofSeconds(10));
        try (RateLimiter limiter = RateLimiter.create(cfg, clock)) {
            clock.setNanos(8 * SECOND - 1);
            assertTrue(take(limiter, 1));
            assertFalse(take(limiter, 1));
            assertEquals(2 * SECOND + 1, d.retryAfterNanos());
            assertEquals("3", RateLimitHeaders.retryAfterValue(d));
            clock.setNanos(8 * SECOND);
            assertFalse(take(limiter, 1));
            assertEquals(2 * SECOND, d.retryAfterNanos());
            assertEquals("2", RateLimitHeaders.retryAfterValue(d));
        }
    }

    @Test
    void slidingLogRetriesWhenTheOldestStampLeavesTheWindow() {
        RateLimitConfig cfg = config(Algorithm.SLIDING_WINDOW_LOG, 2, Duration.ofSeconds(10));
        try (RateLimiter limiter = RateLimiter.create(cfg, clock)) {
            assertTrue(take(limiter, 1));
            clock.setMillis(3_000);
            assertTrue(take(limiter, 1));
            clock.setMillis(4_200);
            assertFalse(take(limiter, 1));
            assertEquals(5_800_000_000L, d.retryAfterNanos());
            assertEquals("6", RateLimitHeaders.retryAfterValue(d));
            assertEquals("\"default\";r=0;t=6", RateLimitHeaders.of(cfg).rateLimitValue(d));
        }
    }

    @Test
    void requestLargerThanTheBurstGetsNoRetryAfter() {
        RateLimitConfig cfg = config(Algorithm.TOKEN_BUCKET, 10, Duration.ofSeconds(1));
        try (RateLimiter limiter = RateLimiter.create(cfg, clock)) {
            assertFalse(limiter.tryAcquire(1L, 11, clock.nanoTime(), d));
            assertEquals(Decision.NEVER, d.retryAfterNanos());
            Map<String, String> h = RateLimitHeaders.of(cfg).headers(d);
            assertEquals(Map.of("RateLimit-Policy", "\"default\";q=10;w=1", "RateLimit", "\"default\";r=10;t=0"), h);
            assertEquals(429, RateLimitHeaders.status(d));
        }
    }

    @Test
    void denialWithNoWaitStillSaysRetryAfterOneSecond() {
        d.set(false, 5, 0, 0, 0, 0);
        assertEquals("1", RateLimitHeaders.retryAfterValue(d));
        d.set(false, 5, 0, 1, 1, 0);
        assertEquals("1", RateLimitHeaders.retryAfterValue(d));
    }

    @Test
    void burstApartFromRateIsAdvertisedAsAVendorParameter() {
        RateLimitConfig cfg = config(Algorithm.TOKEN_BUCKET, 100, Duration.ofMinutes(1)).withBurst(10);
        try (RateLimiter limiter = RateLimiter.create(cfg, clock)) {
            assertTrue(take(limiter, 10));
            assertFalse(take(limiter, 1));
            assertEquals(600_000_000L, d.retryAfterNanos());
            RateLimitHeaders h = RateLimitHeaders.of(cfg);
            assertEquals("\"default\";q=100;w=60;sluice-burst=10", h.policyValue());
            assertEquals("\"default\";r=0;t=1", h.rateLimitValue(d));
        }
    }

    @Test
    void subSecondWindowsAreRoundedUpToWholeSeconds() {
        assertEquals("\"default\";q=5;w=1",
                RateLimitHeaders.of(config(Algorithm.FIXED_WINDOW, 5, Duration.ofMillis(500))).policyValue());
        assertEquals("\"default\";q=5;w=2",
                RateLimitHeaders.of(config(Algorithm.FIXED_WINDOW, 5, Duration.ofMillis(1_500))).policyValue());
        assertEquals("\"default\";q=7;w=86400",
                RateLimitHeaders.of(config(Algorithm.SLIDING_WINDOW_COUNTER, 7, Duration.ofDays(1))).policyValue());
    }

    @Test
    void ceilSecondsRoundsUpAndNeverOverflows() {
        assertEquals(0, RateLimitHeaders.ceilSeconds(0));
        assertEquals(0, RateLimitHeaders.ceilSeconds(-5));
        assertEquals(1, RateLimitHeaders.ceilSeconds(1));
        assertEquals(1, RateLimitHeaders.ceilSeconds(SECOND));
        assertEquals(2, RateLimitHeaders.ceilSeconds(SECOND + 1));
        assertEquals(9_223_372_037L, RateLimitHeaders.ceilSeconds(Long.MAX_VALUE));
    }

    @Test
    void valuesAboveTheStructuredFieldIntegerRangeAreCapped() {
        d.set(true, 5_000_000_000_000_000L, 5_000_000_000_000_000L, 0, Long.MAX_VALUE - 1, 0);
        RateLimitHeaders h = RateLimitHeaders.of(config(Algorithm.FIXED_WINDOW, 10, Duration.ofSeconds(1)));
        assertEquals("\"default\";r=999999999999999;t=9223372037", h.rateLimitValue(d));
        d.set(false, 10, 0, Long.MAX_VALUE - 1, Long.MAX_VALUE - 1, 0);
        assertEquals("9223372037", RateLimitHeaders.retryAfterValue(d));
    }

    @Test
    void decisionWithNoLimitWritesNothing() {
        d.set(true, Long.MAX_VALUE, Long.MAX_VALUE, 0, 0, 0);
        RateLimitHeaders h = RateLimitHeaders.of(config(Algorithm.FIXED_WINDOW, 10, Duration.ofSeconds(1)));
        assertEquals(Map.of(), h.headers(d));
        assertNull(h.rateLimitValue(d));
    }

    @Test
    void compositeListsEveryLimitAndNamesTheOneThatDecided() {
        RateLimitConfig perSecond = config(Algorithm.TOKEN_BUCKET, 10, Duration.ofSeconds(1));
        RateLimitConfig hourly = config(Algorithm.FIXED_WINDOW, 12, Duration.ofHours(1));
        Rule rule = Rule.of(perSecond, hourly);
        try (RateLimiterService service = RateLimiterService.builder().clock(clock)
                .rules(RuleSet.builder().defaultRule(rule).build()).build()) {
            RateLimitHeaders h = RateLimitHeaders.of(rule, List.of("per-second", "hourly"));
            assertEquals("\"per-second\";q=10;w=1, \"hourly\";q=12;w=3600", h.policyValue());

            assertTrue(service.allow("u", "a", 1, d));
            assertEquals("\"per-second\";r=9;t=1", h.rateLimitValue(d));
            for (int i = 0; i < 9; i++) {
                assertTrue(service.allow("u", "a", 1, d));
            }
            assertFalse(service.allow("u", "a", 1, d));
            assertEquals("\"per-second\";r=0;t=1", h.rateLimitValue(d));
            assertEquals("1", RateLimitHeaders.retryAfterValue(d));

            clock.setMillis(1_000);
            assertTrue(service.allow("u", "a", 1, d));
            assertTrue(service.allow("u", "a", 1, d));
            assertEquals("\"hourly\";r=0;t=3599", h.rateLimitValue(d));
            assertFalse(service.allow("u", "a", 1, d));
            assertEquals("\"hourly\";r=0;t=3599", h.rateLimitValue(d));
            assertEquals("3599", RateLimitHeaders.retryAfterValue(d));
        }
    }

    @Test
    void compositeDefaultNamesAreNumberedInRuleOrder() {
        Rule rule = Rule.of(config(Algorithm.TOKEN_BUCKET, 10, Duration.ofSeconds(1)),
                config(Algorithm.FIXED_WINDOW, 1000, Duration.ofDays(1)));
        assertEquals("\"default-1\";q=10;w=1, \"default-2\";q=1000;w=86400", RateLimitHeaders.of(rule).policyValue());
        assertEquals("\"api-1\";q=10;w=1, \"api-2\";q=1000;w=86400", RateLimitHeaders.of("api", rule).policyValue());
    }

    @Test
    void limitsSharingABurstAreNamedAfterTheFirstButValuesComeFromTheDecision() {
        Rule rule = Rule.of(config(Algorithm.TOKEN_BUCKET, 10, Duration.ofSeconds(1)),
                config(Algorithm.FIXED_WINDOW, 10, Duration.ofMinutes(1)));
        d.set(false, 10, 0, 42 * SECOND, 42 * SECOND, 0);
        assertEquals("\"default-1\";r=0;t=42", RateLimitHeaders.of(rule).rateLimitValue(d));
    }

    @Test
    void policyNamesAreQuotedAndEscapedAsStructuredFieldStrings() {
        RateLimitConfig cfg = config(Algorithm.FIXED_WINDOW, 1, Duration.ofSeconds(1));
        assertEquals("\"a\\\"b\\\\c d\";q=1;w=1", RateLimitHeaders.of("a\"b\\c d", cfg).policyValue());
    }

    @Test
    void rejectsPolicyNamesThatAreNotPrintableAscii() {
        RateLimitConfig cfg = config(Algorithm.FIXED_WINDOW, 1, Duration.ofSeconds(1));
        assertThrows(IllegalArgumentException.class, () -> RateLimitHeaders.of("", cfg));
        assertThrows(IllegalArgumentException.class, () -> RateLimitHeaders.of("caf\u00e9", cfg));
        assertThrows(IllegalArgumentException.class, () -> RateLimitHeaders.of("tab\there", cfg));
        assertThrows(NullPointerException.class, () -> RateLimitHeaders.of((String) null, cfg));
    }

    @Test
    void rejectsANameListOfTheWrongLength() {
        Rule rule = Rule.of(config(Algorithm.FIXED_WINDOW, 1, Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> RateLimitHeaders.of(rule, List.of("a", "b")));
    }

    @Test
    void aLimiterDecisionWritesTheRateLimitFieldFromTheDecisionAlone() {
        RateLimitConfig cfg = config(Algorithm.FIXED_WINDOW, 3, Duration.ofSeconds(10));
        try (RateLimiter limiter = RateLimiter.create(cfg, clock)) {
            assertFalse(take(limiter, 4));
            d.decidedBy(null, null);
            assertEquals(Map.of("RateLimit", "\"default\";r=0;t=10", "Retry-After", "10"),
                    RateLimitHeaders.headersOf(d), "no limit named: no RateLimit-Policy");
            d.decidedBy("per-10s", cfg);
            assertEquals(Map.of("RateLimit-Policy", "\"per-10s\";q=3;w=10", "RateLimit", "\"per-10s\";r=0;t=10",
                    "Retry-After", "10"), RateLimitHeaders.headersOf(d));
        }
    }

    @Test
    void aDecisionsPolicyNameIsEscapedInBothFields() {
        RateLimitConfig cfg = config(Algorithm.FIXED_WINDOW, 3, Duration.ofSeconds(10));
        try (RateLimiterService service = RateLimiterService.builder().clock(clock)
                .rules(RuleSet.builder().defaultConfig(cfg)
                        .addApi("/q", Rule.of(cfg).named("say \"hi\" \\o/"))
                        .build()).build()) {
            assertTrue(service.allow("alice", "/q", 1, d));
            assertEquals(Map.of("RateLimit-Policy", "\"say \\\"hi\\\" \\\\o/\";q=3;w=10",
                    "RateLimit", "\"say \\\"hi\\\" \\\\o/\";r=2;t=10"), RateLimitHeaders.headersOf(d));
            assertTrue(service.allow("alice", "/other", 1, d));
            assertEquals("\"default\";r=2;t=10", RateLimitHeaders.rateLimitValueOf(d), "a plain name is copied as is");
        }
    }

    @Test
    void aServiceDecisionWritesEveryAppliedPolicyAndTheOneWithTheFewestLeft() {
        RateLimitConfig perPair = config(Algorithm.FIXED_WINDOW, 100, Duration.ofSeconds(60));
        RateLimitConfig bucket = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 10, Duration.ofSeconds(1)).withBurst(20);
        try (RateLimiterService service = RateLimiterService.builder().clock(clock)
                .rules(RuleSet.builder().defaultConfig(perPair)
                        .addApi("/search", Rule.of(bucket).countedPer(dev.sluice.KeyScope.API).additive())
                        .build()).build()) {
            assertTrue(service.allow("alice", "/search", 15, d));
            List<String> written = new ArrayList<>();
            RateLimitHeaders.writeDecision(d, (name, value) -> written.add(name + ": " + value));
            assertEquals(List.of("RateLimit-Policy: \"default\";q=100;w=60, \"api-additive\";q=10;w=1;sluice-burst=20",
                    "RateLimit: \"api-additive\";r=5;t=2"), written);
            assertTrue(service.allow("bob", "/home", 1, d));
            assertEquals(Map.of("RateLimit-Policy", "\"default\";q=100;w=60", "RateLimit", "\"default\";r=99;t=60"),
                    RateLimitHeaders.headersOf(d), "only the default applies to /home");
        }
    }

    @Test
    void anInstanceNamesTheLimitTheDecisionNames() {
        RateLimitConfig a = config(Algorithm.FIXED_WINDOW, 10, Duration.ofSeconds(1));
        RateLimitConfig b = config(Algorithm.FIXED_WINDOW, 10, Duration.ofSeconds(60));
        RateLimitHeaders h = RateLimitHeaders.of(Rule.of(a, b), List.of("second", "minute"));
        d.set(true, 10, 3, 0, SECOND, 0).decidedBy("minute", b);
        assertEquals("\"minute\";r=3;t=1", h.rateLimitValue(d), "both limits are 10: the named config decides");
    }
}
