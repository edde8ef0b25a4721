package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.http.RateLimitHeaders;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Additive rules: every applicable limit must admit, a denial takes nothing anywhere; on a ManualClock. */
class ServiceAdditiveTest {

    private static final RateLimitConfig PER_PAIR = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1_000,
            Duration.ofMinutes(1));
    private static final RateLimitConfig THOUSAND_AN_HOUR = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1_000,
            Duration.ofHours(1));
    private static final RateLimitConfig TEN_THOUSAND_A_SECOND = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 10_000,
            Duration.ofSeconds(1));
    private static final RateLimitConfig TEN_A_MINUTE = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 10,
            Duration.ofMinutes(1));
    private static final RateLimitConfig TWO_PER_SECOND = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 2,
            Duration.ofSeconds(1));
    private static final RateLimitConfig THREE_PER_SECOND = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 3,
            Duration.ofSeconds(1));

    private final ManualClock clock = new ManualClock();
    private final Decision d = new Decision();
    private RateLimiterService service;

    @AfterEach
    void close() {
        if (service != null) {
            service.close();
        }
    }

    private void rules(RuleSet rules) {
        service = RateLimiterService.builder().clock(clock).maxKeysPerLimiter(4096).rules(rules).build();
    }

    /** Alice 1,000 an hour in total, /search 10,000 a second from everyone together, alice on /pay 10 a minute. */
    private static RuleSet gatewayRules() {
        return RuleSet.builder()
                .defaultConfig(PER_PAIR)
                .addUser("alice", Rule.of(THOUSAND_AN_HOUR).countedPer(KeyScope.USER).additive())
                .addApi("/search", Rule.of(TEN_THOUSAND_A_SECOND).countedPer(KeyScope.API).additive())
                .addUserApi("alice", "/pay", Rule.of(TEN_A_MINUTE))
                .build();
    }

    private int admitted(String user, String api, int times) {
        int n = 0;
        for (int i = 0; i < times; i++) {
            if (service.allow(user, api)) {
                n++;
            }
        }
        return n;
    }

    @Test
    void aliceMakesAThousandCallsAnHourInTotalAcrossEveryApi() {
        rules(gatewayRules());
        assertEquals(400, admitted("alice", "/home", 400));
        assertEquals(400, admitted("alice", "/feed", 400));
        assertEquals(200, admitted("alice", "/search", 300), "her thousandth call ends her hour on any API");
        assertEquals(0, admitted("alice", "/home", 5));
        assertEquals(5, admitted("bob", "/home", 5), "bob has no total");
        clock.advanceMillis(Duration.ofHours(1).toMillis());
        assertEquals(1, admitted("alice", "/home", 1), "the next hour starts afresh");
    }

    @Test
    void searchTakesTenThousandASecondFromEveryoneTogether() {
        rules(gatewayRules());
        for (int user = 0; user < 100; user++) {
            assertEquals(100, admitted("user" + user, "/search", 100));
        }
        assertEquals(0, admitted("someone-else", "/search", 1), "the 10,001st call of the second is denied");
        assertEquals(1, admitted("someone-else", "/home", 1), "other APIs are not limited by /search");
        clock.advanceMillis(1000);
        assertEquals(1, admitted("someone-else", "/search", 1));
    }

    @Test
    void aliceOnPayAtMostTenAMinuteAndTheyCountInHerTotal() {
        rules(gatewayRules());
        assertEquals(10, admitted("alice", "/pay", 11));
        assertEquals(990, admitted("alice", "/home", 1_000),
                "ten on /pay and 990 elsewhere: the one denied /pay call took nothing from her total");
        clock.advanceMillis(60_000);
        assertEquals(0, admitted("alice", "/pay", 1), "her hour is spent even though /pay's minute is fresh");
    }

    @Test
    void aDeniedRequestTakesNothingFromTheLimitsThatAdmitted() {
        rules(gatewayRules());
        assertEquals(999, admitted("alice", "/home", 999));
        for (int user = 0; user < 10_000; user++) {
            assertTrue(service.allow("u" + (user % 100), "/search"));
        }
        assertFalse(service.allow("alice", "/search"), "/search is spent for this second");
        assertFalse(service.allow("alice", "/search"));
        assertTrue(service.allow("alice", "/feed"), "the two denied /search calls left alice her thousandth call");
        assertFalse(service.allow("alice", "/feed"));
    }

    @Test
    void theEnforcingRuleStillResolvesMostSpecificFirstBesideAdditiveRules() {
        rules(RuleSet.builder().defaultConfig(TWO_PER_SECOND)
                .addUser("u", Rule.of(THREE_PER_SECOND))
                .addUser("u", Rule.of(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 100, Duration.ofSeconds(1)))
                        .countedPer(KeyScope.USER).additive())
                .build());
        assertEquals(3, admitted("u", "/a", 4), "u's own rule replaces the default; the additive one adds to it");
        assertEquals(2, admitted("v", "/a", 3));
    }

    @Test
    void anAdditiveDefaultAppliesToEveryRequest() {
        rules(RuleSet.builder().defaultConfig(PER_PAIR)
                .addApi("/a", Rule.of(THREE_PER_SECOND))
                .addDefault(Rule.of(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 4, Duration.ofSeconds(1)))
                        .countedPer(KeyScope.GLOBAL).additive())
                .build());
        assertEquals(3, admitted("u", "/a", 4));
        assertEquals(1, admitted("v", "/b", 3), "four in the second from everyone, whatever rule enforces");
    }

    @Test
    void anAdditiveCompositeRollsBackEachPartExactly() {
        RateLimitConfig fivePerDay = RateLimitConfig.of(Algorithm.SLIDING_WINDOW_LOG, 5, Duration.ofDays(1));
        rules(RuleSet.builder().defaultConfig(TWO_PER_SECOND)
                .addUser("u", Rule.of(fivePerDay, THREE_PER_SECOND).countedPer(KeyScope.USER).additive())
                .build());
        assertEquals(2, admitted("u", "/a", 3), "the pair's two per second deny the third");
        assertEquals(1, admitted("u", "/b", 2), "u's bucket of three is spent by three admitted calls");
        clock.advanceMillis(1000);
        assertEquals(2, admitted("u", "/c", 3), "the day's five: three earlier, two now; denials took none");
        clock.advanceMillis(1000);
        assertEquals(0, admitted("u", "/d", 1));
    }

    @Test
    void aShadowAdditiveRuleCountsWouldDenyAndNeverDenies() {
        rules(RuleSet.builder().defaultConfig(PER_PAIR)
                .addUser("u", Rule.of(TWO_PER_SECOND).countedPer(KeyScope.USER).additive().asShadow())
                .build());
        assertEquals(5, admitted("u", "/a", 5));
        RuleMetrics shadow = service.metrics().stream().filter(m -> m.scope().equals("additive user=u"))
                .findFirst().orElseThrow();
        assertEquals(3, shadow.wouldDeny());
        service.allow("u", "/a", 1, d);
        assertEquals(1, d.appliedCount(), "a shadow rule is left out of the applied limits");
        assertEquals("default", d.policyName());
    }

    @Test
    void metricsCountEachApplicableRule() {
        rules(gatewayRules());
        assertEquals(10, admitted("alice", "/pay", 12));
        Map<String, RuleMetrics> byScope = new java.util.HashMap<>();
        service.metrics().forEach(m -> byScope.put(m.scope(), m));
        assertEquals(10, byScope.get("user=alice,api=/pay").admitted());
        assertEquals(2, byScope.get("user=alice,api=/pay").denied());
        assertEquals(10, byScope.get("additive user=alice").admitted());
        assertEquals(0, byScope.get("additive user=alice").denied(), "alice's total did not deny");
    }

    @Test
    void theDecisionNamesTheDenyingLimitAndEveryAppliedOne() {
        rules(gatewayRules());
        for (int i = 0; i < 10_000; i++) {
            service.allow("u" + (i % 100), "/search");
        }
        assertFalse(service.allow("alice", "/search", 1, d));
        assertEquals("api-additive", d.policyName());
        assertEquals(TEN_THOUSAND_A_SECOND, d.config());
        assertEquals(3, d.appliedCount());
        assertEquals("default", d.applied(0).name());
        assertEquals("user-additive", d.applied(1).name());
        assertEquals(KeyScope.USER, d.applied(1).keyScope());
        assertEquals("api-additive", d.applied(2).name());
        assertEquals(Map.of(
                "RateLimit-Policy", "\"default\";q=1000;w=60, \"user-additive\";q=1000;w=3600, "
                        + "\"api-additive\";q=10000;w=1",
                "RateLimit", "\"api-additive\";r=0;t=1",
                "Retry-After", "1"), RateLimitHeaders.headersOf(d));
    }

    @Test
    void anAdmittedDecisionReportsTheLimitWithTheFewestLeft() {
        rules(RuleSet.builder().defaultConfig(PER_PAIR)
                .addUser("alice", Rule.of(THOUSAND_AN_HOUR).countedPer(KeyScope.USER).additive().named("hourly"))
                .addUserApi("alice", "/pay", Rule.of(TEN_A_MINUTE).named("pay"))
                .build());
        assertTrue(service.allow("alice", "/home", 1, d));
        assertEquals("default", d.policyName(), "999 left of each: a tie goes to the limit tried first, the enforcing one");
        assertTrue(service.allow("alice", "/home", 1, d));
        assertTrue(service.allow("alice", "/feed", 1, d));
        assertEquals("hourly", d.policyName(), "997 left of the hour, 999 of the /feed pair's minute");
        assertEquals(997, d.remaining());
        assertTrue(service.allow("alice", "/pay", 1, d));
        assertEquals("pay", d.policyName());
        assertEquals(9, d.remaining());
        assertEquals(2, d.appliedCount());
        assertEquals("\"pay\";q=10;w=60, \"hourly\";q=1000;w=3600", RateLimitHeaders.policyValueOf(d));
        assertEquals("\"pay\";r=9;t=60", RateLimitHeaders.rateLimitValueOf(d));
    }

    @Test
    void compositePartsAreSuffixedInOrder() {
        rules(RuleSet.builder().defaultRule(Rule.of(TWO_PER_SECOND, THOUSAND_AN_HOUR)).build());
        assertTrue(service.allow("u", "/a", 1, d));
        assertEquals("default-1", d.policyName());
        assertEquals(2, d.appliedCount());
        assertEquals("default-2", d.applied(1).name());
    }

    @Test
    void twoAdditiveRulesAtOnePositionAreRejected() {
        Rule extra = Rule.of(TWO_PER_SECOND).additive();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RuleSet.builder().defaultConfig(PER_PAIR).addUser("u", extra).addUser("u", extra));
        assertEquals("the rule set has two additive rules for user 'u'", e.getMessage());
        IllegalStateException noDefault = assertThrows(IllegalStateException.class,
                () -> RuleSet.builder().defaultRule(extra).build());
        assertTrue(noDefault.getMessage().contains("not additive"), noDefault.getMessage());
    }

    @Test
    void removingAPositionRemovesBothRulesAndRemoveAdditiveOnlyTheAdditiveOne() {
        rules(gatewayRules());
        RuleSet withoutTotal = service.rules().toBuilder().removeAdditiveUser("alice").build();
        assertEquals(null, withoutTotal.additiveUserRule("alice"));
        service.configureUser("alice", Rule.of(TEN_A_MINUTE));
        service.removeUser("alice");
        assertEquals(null, service.rules().userRule("alice"));
        assertEquals(null, service.rules().additiveUserRule("alice"));
        assertEquals(1_000, admitted("alice", "/home", 1_001), "only the default's 1,000 a minute remains");
    }

    @Test
    void anUnchangedAdditiveRuleKeepsItsStateAcrossARuleChange() {
        rules(gatewayRules());
        assertEquals(10, admitted("alice", "/pay", 10));
        service.configureApi("/other", Rule.of(TWO_PER_SECOND));
        assertEquals(990, admitted("alice", "/home", 1_000), "alice's hour kept its ten");
    }

    @Test
    void theDemoSaysWhichRuleDecidedAndWhyARequestWasDenied() {
        java.util.List<String> lines = dev.sluice.demo.Demo.gateway();
        assertTrue(lines.get(0).endsWith("Y by alice-pay (then 0 left); N by alice-pay: its 10 spent, retry in 60000.0 ms"),
                lines.get(0));
        assertTrue(lines.stream().anyMatch(l -> l.contains("alice    /home   x2  NN   N by alice-hourly: its 1000 spent")),
                String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(l -> l.contains("carol    /search x1  N   N by search-total")),
                String.join("\n", lines));
    }
}
