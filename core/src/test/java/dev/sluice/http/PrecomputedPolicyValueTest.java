package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.KeyScope;
import dev.sluice.ManualClock;
import dev.sluice.Policy;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiterService;
import dev.sluice.Rule;
import dev.sluice.RuleSet;
import dev.sluice.StructuredFields;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The RateLimit-Policy text a Policy and its rule compute when they are built equals the text formatted item by
 * item from the decision's applied limits, for one-limit, composite, additive and escaped-name rules; and writing
 * it from a decision of one rule allocates nothing.
 */
class PrecomputedPolicyValueTest {

    private static final RateLimitConfig PER_MINUTE = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 100,
            Duration.ofSeconds(60));
    private static final RateLimitConfig PER_SECOND = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 10,
            Duration.ofSeconds(1));
    private static final RateLimitConfig BUCKET = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 10,
            Duration.ofSeconds(1)).withBurst(20);
    private static final RateLimitConfig PER_DAY = RateLimitConfig.of(Algorithm.SLIDING_WINDOW_COUNTER, 5000,
            Duration.ofDays(1));

    private final ManualClock clock = new ManualClock();
    private final Decision d = new Decision();

    /** The value formatted from scratch: each applied limit's item, separated by a comma and a space. */
    private static String builtItemByItem(Decision decision) {
        List<String> items = new ArrayList<>();
        for (int i = 0; i < decision.appliedCount(); i++) {
            Policy p = decision.applied(i);
            items.add(StructuredFields.quotaPolicyItem(p.name(), p.config()));
        }
        return String.join(", ", items);
    }

    private RateLimiterService service(RuleSet rules) {
        return RateLimiterService.builder().clock(clock).rules(rules).build();
    }

    @Test
    void aPolicyBuiltAloneIsARuleOfItsOneLimit() {
        Policy p = new Policy("per-10s", BUCKET, KeyScope.USER, false);
        assertEquals("\"per-10s\";q=10;w=1;sluice-burst=20", p.quotaPolicyItem());
        assertSame(p.quotaPolicyItem(), p.rulePolicyValue());
        assertEquals("\"per-10s\"", p.quotedName());
        assertEquals(0, p.ruleIndex());
        assertEquals(1, p.ruleSize());
    }

    @Test
    void aCompositeRuleWritesItsPrecomputedValueWhichEqualsTheValueBuiltItemByItem() {
        Rule composite = Rule.of(PER_SECOND, PER_MINUTE, PER_DAY);
        try (RateLimiterService service = service(RuleSet.builder().defaultConfig(PER_MINUTE)
                .addApi("/pay", composite).build())) {
            assertTrue(service.allow("alice", "/pay", 1, d));
            String value = RateLimitHeaders.policyValueOf(d);
            assertEquals("\"api-1\";q=10;w=1, \"api-2\";q=100;w=60, \"api-3\";q=5000;w=86400", value);
            assertEquals(builtItemByItem(d), value);
            assertEquals(RateLimitHeaders.of("api", composite).policyValue(), value);
            assertSame(d.applied(0).rulePolicyValue(), value, "the rule's String, not a new one");
            for (int i = 0; i < 3; i++) {
                assertEquals(i, d.applied(i).ruleIndex());
                assertEquals(3, d.applied(i).ruleSize());
                assertSame(value, d.applied(i).rulePolicyValue(), "one instance shared by the rule's limits");
            }
        }
    }

    @Test
    void additiveRulesJoinTheRulesValuesToTheValueBuiltItemByItem() {
        try (RateLimiterService service = service(RuleSet.builder().defaultConfig(PER_MINUTE)
                .addApi("/pay", Rule.of(PER_SECOND, PER_MINUTE))
                .addApi("/pay", Rule.of(BUCKET).countedPer(KeyScope.API).additive())
                .addUser("alice", Rule.of(PER_DAY, PER_SECOND).countedPer(KeyScope.USER).additive())
                .build())) {
            assertTrue(service.allow("bob", "/pay", 1, d));
            assertEquals(3, d.appliedCount());
            assertEquals("\"api-1\";q=10;w=1, \"api-2\";q=100;w=60, \"api-additive\";q=10;w=1;sluice-burst=20",
                    RateLimitHeaders.policyValueOf(d), "two rules");
            assertEquals(builtItemByItem(d), RateLimitHeaders.policyValueOf(d));
            assertTrue(service.allow("alice", "/pay", 1, d));
            assertEquals(5, d.appliedCount());
            assertEquals("\"api-1\";q=10;w=1, \"api-2\";q=100;w=60, \"user-additive-1\";q=5000;w=86400, "
                    + "\"user-additive-2\";q=10;w=1, \"api-additive\";q=10;w=1;sluice-burst=20",
                    RateLimitHeaders.policyValueOf(d), "three rules");
            assertEquals(builtItemByItem(d), RateLimitHeaders.policyValueOf(d));
        }
    }

    @Test
    void aRulesLimitsOutOfOrderOrInPartAreWrittenItemByItem() {
        try (RateLimiterService service = service(RuleSet.builder().defaultConfig(PER_MINUTE)
                .addApi("/pay", Rule.of(PER_SECOND, PER_MINUTE, PER_DAY)).build())) {
            assertTrue(service.allow("alice", "/pay", 1, d));
            Policy first = d.applied(0);
            Policy second = d.applied(1);
            Policy third = d.applied(2);
            Decision reversed = new Decision().copyFrom(d).clearApplied().addApplied(third).addApplied(second)
                    .addApplied(first);
            assertEquals("\"api-3\";q=5000;w=86400, \"api-2\";q=100;w=60, \"api-1\";q=10;w=1",
                    RateLimitHeaders.policyValueOf(reversed));
            Decision part = new Decision().copyFrom(d).clearApplied().addApplied(first).addApplied(second);
            assertEquals("\"api-1\";q=10;w=1, \"api-2\";q=100;w=60", RateLimitHeaders.policyValueOf(part));
            Decision twice = new Decision().copyFrom(d).clearApplied().addApplied(first).addApplied(second)
                    .addApplied(third).addApplied(first).addApplied(second).addApplied(third);
            assertEquals(builtItemByItem(twice), RateLimitHeaders.policyValueOf(twice));
        }
    }

    @Test
    void escapedNamesArePrecomputedAsTheyAreBuilt() {
        Rule named = Rule.of(PER_SECOND, BUCKET).named("say \"hi\" \\o/");
        try (RateLimiterService service = service(RuleSet.builder().defaultConfig(PER_MINUTE)
                .addApi("/q", named).build())) {
            assertTrue(service.allow("alice", "/q", 1, d));
            String value = RateLimitHeaders.policyValueOf(d);
            assertEquals("\"say \\\"hi\\\" \\\\o/-1\";q=10;w=1, \"say \\\"hi\\\" \\\\o/-2\";q=10;w=1;sluice-burst=20",
                    value);
            assertEquals(builtItemByItem(d), value);
            assertEquals(RateLimitHeaders.of("say \"hi\" \\o/", named).policyValue(), value);
            assertEquals(StructuredFields.quote(d.policyName()) + ";r=" + d.remaining() + ";t=1",
                    RateLimitHeaders.rateLimitValueOf(d));
        }
    }

    @Test
    void theHttpConstantsAreTheFormattersOwn() {
        assertEquals(StructuredFields.MAX_INTEGER, RateLimitHeaders.MAX_INTEGER);
        assertEquals(StructuredFields.ceilSeconds(1_000_000_001L), RateLimitHeaders.ceilSeconds(1_000_000_001L));
    }

    @Test
    void aDecisionOfOneRuleWritesItsPolicyValueWithoutAllocatingAndItsRateLimitValueAsOneString() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory
                .getThreadMXBean();
        try (RateLimiterService service = service(RuleSet.builder().defaultConfig(PER_MINUTE)
                .addApi("/pay", Rule.of(PER_SECOND, PER_MINUTE)).build())) {
            assertTrue(service.allow("alice", "/pay", 1, d));
            int calls = 100_000;
            policyValues(calls);
            long before = threads.getCurrentThreadAllocatedBytes();
            int length = policyValues(calls);
            long bytes = threads.getCurrentThreadAllocatedBytes() - before;
            assertEquals(calls * RateLimitHeaders.policyValueOf(d).length(), length);
            assertTrue(bytes < calls / 100, bytes + " bytes for " + calls + " RateLimit-Policy values");

            String rateLimit = RateLimitHeaders.rateLimitValueOf(d);
            assertEquals("\"api-1\";r=9;t=1", rateLimit);
            rateLimitValues(calls);
            before = threads.getCurrentThreadAllocatedBytes();
            rateLimitValues(calls);
            bytes = threads.getCurrentThreadAllocatedBytes() - before;
            // One String: its object header and fields (24 B) and its byte[] (16 B header + the bytes, 8-aligned).
            long oneString = 24 + ((16 + rateLimit.length() + 7) / 8) * 8;
            assertTrue(bytes <= calls * oneString + calls / 100,
                    bytes / calls + " bytes per RateLimit value, one String is " + oneString);
        }
    }

    private int policyValues(int calls) {
        int length = 0;
        for (int i = 0; i < calls; i++) {
            length += RateLimitHeaders.policyValueOf(d).length();
        }
        return length;
    }

    private int rateLimitValues(int calls) {
        int length = 0;
        for (int i = 0; i < calls; i++) {
            length += RateLimitHeaders.rateLimitValueOf(d).length();
        }
        return length;
    }
}
