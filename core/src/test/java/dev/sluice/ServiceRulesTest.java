package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Rule resolution, composite and shadow rules, live reconfiguration, metrics and bad input of the service. */
class ServiceRulesTest {

    private static final RateLimitConfig TWO_PER_SECOND = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 2, Duration.ofSeconds(1));
    private static final RateLimitConfig FIVE_PER_SECOND = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 5, Duration.ofSeconds(1));
    private static final RateLimitConfig THREE_PER_DAY = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3, Duration.ofDays(1));

    private final ManualClock clock = new ManualClock();
    private final RateLimiterService service = RateLimiterService.builder().clock(clock).maxKeysPerLimiter(1024)
            .defaultConfig(TWO_PER_SECOND).build();

    @AfterEach
    void close() {
        service.close();
    }

    private String run(String user, String api, int times) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < times; i++) {
            sb.append(service.allow(user, api) ? 'Y' : 'N');
        }
        return sb.toString();
    }

    @Test
    void mostSpecificRuleWins() {
        service.configureUser("u", RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3, Duration.ofSeconds(1)));
        service.configureApi("a", RateLimitConfig.of(Algorithm.FIXED_WINDOW, 4, Duration.ofSeconds(1)));
        service.configureUserApi("u", "a", RateLimitConfig.of(Algorithm.FIXED_WINDOW, 5, Duration.ofSeconds(1)));
        assertEquals("YYYYYN", run("u", "a", 6));
        assertEquals("YYYYN", run("v", "a", 5));
        assertEquals("YYYN", run("u", "b", 4));
        assertEquals("YYN", run("v", "b", 3));
    }

    @Test
    void everyUserApiPairHasItsOwnState() {
        assertEquals("YYN", run("u", "a", 3));
        assertEquals("YYN", run("u", "b", 3));
        assertEquals("YYN", run("v", "a", 3));
    }

    @Test
    void compositeRuleNeedsEveryLimitAndADenialConsumesNothing() {
        service.configureApi("a", Rule.of(FIVE_PER_SECOND, THREE_PER_DAY));
        assertEquals("YYYN", run("u", "a", 4));
        clock.advanceMillis(10_000);
        assertEquals("N", run("u", "a", 1), "the daily limit is spent");
        service.configureApi("b", Rule.of(TWO_PER_SECOND, THREE_PER_DAY));
        assertEquals("YYN", run("u", "b", 3));
        clock.advanceMillis(1000);
        assertEquals("YN", run("u", "b", 2), "the denied request took nothing from the daily limit");
    }

    @Test
    void compositeDenialGivesPermitsBackToTheLimitsThatAdmitted() {
        service.configureApi("a", Rule.of(THREE_PER_DAY, TWO_PER_SECOND));
        assertTrue(service.allow("u", "a", 2));
        assertFalse(service.allow("u", "a", 1), "the per-second limit denies after the daily one admitted");
        clock.advanceMillis(1000);
        assertTrue(service.allow("u", "a", 1), "the daily limit got its permit back");
        assertFalse(service.allow("u", "a", 1));
    }

    @Test
    void compositeDecisionReportsTheLimitThatDecided() {
        service.configureApi("a", Rule.of(FIVE_PER_SECOND, THREE_PER_DAY));
        Decision d = new Decision();
        assertTrue(service.allow("u", "a", 1, d));
        assertEquals(2, d.remaining(), "the daily limit has the fewest permits left");
        assertTrue(service.allow("u", "a", 2, d));
        assertFalse(service.allow("u", "a", 1, d));
        assertEquals(Duration.ofDays(1).toNanos(), d.retryAfterNanos());
    }

    @Test
    void shadowRuleCountsWouldDenyButNeverDenies() {
        service.configureApi("a", Rule.of(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1, Duration.ofSeconds(1))).asShadow());
        assertEquals("YYN", run("u", "a", 3), "the default rule still decides");
        RuleMetrics shadow = metrics("api=a");
        assertEquals(2, shadow.wouldDeny());
        assertEquals(0, shadow.denied());
        RuleMetrics def = metrics("default");
        assertEquals(2, def.admitted());
        assertEquals(1, def.denied());
    }

    @Test
    void replacingTheRuleSetKeepsStateOfUnchangedLimits() {
        service.configureApi("a", TWO_PER_SECOND);
        service.configureApi("b", FIVE_PER_SECOND);
        assertEquals("YYN", run("u", "a", 3));
        assertEquals("YYYYYN", run("u", "b", 6));
        service.replaceRules(RuleSet.builder().defaultConfig(TWO_PER_SECOND).addApi("a", Rule.of(TWO_PER_SECOND))
                .addApi("b", Rule.of(RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 6, Duration.ofSeconds(1)))).build());
        assertEquals("N", run("u", "a", 1), "same limit: state kept");
        assertEquals("YYYYYYN", run("u", "b", 7), "new limit: starts fresh");
    }

    @Test
    void removedRuleFallsBackToTheNextScope() {
        service.configureUserApi("u", "a", FIVE_PER_SECOND);
        assertEquals("YYYYYN", run("u", "a", 6));
        service.removeUserApi("u", "a");
        assertEquals("YYN", run("u", "a", 3));
        assertEquals(TWO_PER_SECOND, service.rules().defaultRule().limits().get(0));
    }

    @Test
    void weightedRequestsThroughTheService() {
        assertTrue(service.allow("u", "a", 2));
        assertFalse(service.allow("u", "a", 1));
        assertFalse(service.allow("v", "a", 3), "more than the limit is never admitted");
    }

    @Test
    void badInputGetsClearErrors() {
        assertThrows(NullPointerException.class, () -> service.allow(null, "a"));
        assertThrows(NullPointerException.class, () -> service.allow("u", null));
        IllegalArgumentException permits = assertThrows(IllegalArgumentException.class, () -> service.allow("u", "a", 0));
        assertTrue(permits.getMessage().contains("permits"));
        assertTrue(service.allow("", ""), "empty names are ordinary names");
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class, Rule::of);
        assertTrue(empty.getMessage().contains("at least one"));
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> RuleSet.builder().defaultConfig(TWO_PER_SECOND).addUser("u", Rule.of(TWO_PER_SECOND))
                        .addUser("u", Rule.of(FIVE_PER_SECOND)));
        assertTrue(twice.getMessage().contains("two rules for user 'u'"), twice.getMessage());
        assertThrows(IllegalStateException.class, () -> RateLimiterService.builder().build());
        IllegalArgumentException backend = assertThrows(IllegalArgumentException.class,
                () -> service.configureApi("x", Rule.of(TWO_PER_SECOND).onBackend("redis")));
        assertTrue(backend.getMessage().contains("redis"));
    }

    @Test
    void oneLimiterPerDistinctLimitIsSharedByRules() {
        service.configureApi("a", FIVE_PER_SECOND);
        service.configureUser("u", FIVE_PER_SECOND);
        RateLimiter shared = service.limiter(Rule.LOCAL, FIVE_PER_SECOND, false);
        assertNotNull(shared);
        service.configureApi("c", FIVE_PER_SECOND);
        assertSame(shared, service.limiter(Rule.LOCAL, FIVE_PER_SECOND, false));
    }

    @Test
    void aRuleCanUseAnotherBackend() {
        AtomicInteger created = new AtomicInteger();
        try (RateLimiterService withBackend = RateLimiterService.builder().clock(clock).defaultConfig(TWO_PER_SECOND)
                .backend("other", config -> {
                    created.incrementAndGet();
                    return RateLimiter.builder(config).clock(clock).maxKeys(64).build();
                }).build()) {
            withBackend.configureApi("a", Rule.of(FIVE_PER_SECOND).onBackend("other"));
            assertEquals(1, created.get());
            assertTrue(withBackend.allow("u", "a", 5));
            assertFalse(withBackend.allow("u", "a"));
        }
    }

    @Test
    void metricsCountAdmittedAndDeniedPerRule() {
        service.configureApi("a", FIVE_PER_SECOND);
        run("u", "a", 7);
        run("u", "b", 3);
        assertEquals(5, metrics("api=a").admitted());
        assertEquals(2, metrics("api=a").denied());
        assertEquals(2, metrics("default").admitted());
        assertEquals(1, metrics("default").denied());
        assertEquals(1, metrics("api=a").liveKeys());
    }

    @Test
    void useAfterCloseThrows() {
        service.close();
        assertThrows(IllegalStateException.class, () -> service.allow("u", "a"));
        assertThrows(IllegalStateException.class, () -> service.configureApi("a", TWO_PER_SECOND));
    }

    private RuleMetrics metrics(String scope) {
        return service.metrics().stream().filter(m -> m.scope().equals(scope)).findFirst()
                .orElseThrow(() -> new AssertionError("no metrics for " + scope));
    }
}
