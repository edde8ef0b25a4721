package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What each counting scope counts on, on a ManualClock. */
class ServiceScopesTest {

    private static final RateLimitConfig THREE_PER_SECOND = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3,
            Duration.ofSeconds(1));
    private static final RateLimitConfig HUNDRED_PER_SECOND = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 100,
            Duration.ofSeconds(1));

    private final ManualClock clock = new ManualClock();
    private RateLimiterService service;

    @AfterEach
    void close() {
        service.close();
    }

    private void defaultRule(Rule rule) {
        service = RateLimiterService.builder().clock(clock).maxKeysPerLimiter(1024)
                .rules(RuleSet.builder().defaultRule(rule).build()).build();
    }

    private String run(String user, String api, int times) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < times; i++) {
            sb.append(service.allow(user, api) ? 'Y' : 'N');
        }
        return sb.toString();
    }

    @Test
    void perUserApiPairIsTheDefaultScope() {
        defaultRule(Rule.of(THREE_PER_SECOND));
        assertEquals(KeyScope.USER_API, service.rules().defaultRule().keyScope());
        assertEquals("YYYN", run("alice", "/a", 4));
        assertEquals("YYYN", run("alice", "/b", 4), "another API of the same user counts apart");
        assertEquals("YYYN", run("bob", "/a", 4), "another user of the same API counts apart");
    }

    @Test
    void perUserCountsAUserAcrossAllApis() {
        defaultRule(Rule.of(THREE_PER_SECOND).countedPer(KeyScope.USER));
        assertEquals("YY", run("alice", "/a", 2));
        assertEquals("YN", run("alice", "/b", 2), "alice's third request on any API is her last");
        assertEquals("YYYN", run("bob", "/a", 4), "bob has his own count");
        clock.advanceMillis(1000);
        assertEquals("YYYN", run("alice", "/c", 4), "the next window starts alice afresh");
    }

    @Test
    void perApiCountsAnApiAcrossAllUsers() {
        defaultRule(Rule.of(THREE_PER_SECOND).countedPer(KeyScope.API));
        assertEquals("YY", run("alice", "/search", 2));
        assertEquals("YN", run("bob", "/search", 2), "everyone together takes three on /search");
        assertEquals("YYYN", run("alice", "/pay", 4), "/pay has its own count");
    }

    @Test
    void globalCountsEveryRequestTogether() {
        defaultRule(Rule.of(THREE_PER_SECOND).countedPer(KeyScope.GLOBAL));
        assertEquals("Y", run("alice", "/a", 1));
        assertEquals("Y", run("bob", "/b", 1));
        assertEquals("YN", run("carol", "/c", 2));
        clock.advanceMillis(1000);
        assertEquals("YYYN", run("dave", "/d", 4));
    }

    @Test
    void aUserNamedLikeAnApiNeverSharesItsCount() {
        service = RateLimiterService.builder().clock(clock).maxKeysPerLimiter(1024)
                .rules(RuleSet.builder().defaultConfig(HUNDRED_PER_SECOND)
                        .addUser("x", Rule.of(THREE_PER_SECOND).countedPer(KeyScope.USER).additive())
                        .addApi("x", Rule.of(THREE_PER_SECOND).countedPer(KeyScope.API).additive())
                        .build()).build();
        assertEquals("YYYN", run("x", "/other", 4), "user x's own count");
        assertEquals("YYYN", run("other", "x", 4), "api x's own count, untouched by user x");
        assertNotSame(service.limiter("additive user=x", THREE_PER_SECOND),
                service.limiter("additive api=x", THREE_PER_SECOND));
    }

    @Test
    void eachScopeOfOneLimitHasItsOwnLimiter() {
        service = RateLimiterService.builder().clock(clock).maxKeysPerLimiter(1024)
                .rules(RuleSet.builder().defaultRule(Rule.of(THREE_PER_SECOND).countedPer(KeyScope.GLOBAL))
                        .addUser("alice", Rule.of(THREE_PER_SECOND).countedPer(KeyScope.USER))
                        .build()).build();
        assertEquals("YYYN", run("alice", "/a", 4), "alice's rule counts her alone");
        assertEquals("YYYN", run("bob", "/a", 4), "the global count was not touched by alice");
    }

    @Test
    void aScopeWhoseKeyThePositionFixesGetsASmallTable() {
        service = RateLimiterService.builder().clock(clock)
                .rules(RuleSet.builder().defaultRule(Rule.of(THREE_PER_SECOND).countedPer(KeyScope.GLOBAL))
                        .build()).build();
        assertEquals("Y", run("alice", "/a", 1));
        long held = service.offHeapBytes();
        assertTrue(held > 0 && held < RateLimiter.builder(THREE_PER_SECOND).maxKeys(1024).offHeapBytes(),
                "a one-key count holds a small table, held " + held + " bytes");
    }
}
