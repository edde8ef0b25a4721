package dev.sluice.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Algorithm;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiterService;
import dev.sluice.Rule;
import dev.sluice.RuleMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Meter values equal the service's counts, through rule changes, on a ManualClock. */
class SluiceMetricsTest {

    private static final RateLimitConfig THREE_PER_10S = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3,
            Duration.ofSeconds(10));
    private static final RateLimitConfig TWO_PER_S = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 2,
            Duration.ofSeconds(1));

    private final ManualClock clock = new ManualClock();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private RateLimiterService service = RateLimiterService.builder().clock(clock).defaultConfig(THREE_PER_10S)
            .build();

    @AfterEach
    void close() {
        service.close();
    }

    private void send(String user, String api, int times) {
        for (int i = 0; i < times; i++) {
            service.allow(user, api);
        }
    }

    private static double requests(MeterRegistry registry, String scope, String outcome) {
        return registry.get(SluiceMetrics.REQUESTS).tag(SluiceMetrics.SCOPE_TAG, scope)
                .tag(SluiceMetrics.OUTCOME_TAG, outcome).functionCounter().count();
    }

    private double requests(String scope, String outcome) {
        return requests(registry, scope, outcome);
    }

    private double counter(String name, String scope) {
        return registry.get(name).tag(SluiceMetrics.SCOPE_TAG, scope).functionCounter().count();
    }

    private double liveKeys(String scope) {
        return registry.get(SluiceMetrics.LIVE_KEYS).tag(SluiceMetrics.SCOPE_TAG, scope).gauge().value();
    }

    private RuleMetrics metricsOf(String scope) {
        return service.metrics().stream().filter(m -> m.scope().equals(scope)).findFirst().orElseThrow();
    }

    @Test
    void countsAdmittedDeniedAndLiveKeysPerScope() {
        service.configureApi("/search", TWO_PER_S);
        new SluiceMetrics(service).bindTo(registry);
        send("alice", "/home", 5);
        send("bob", "/home", 1);
        send("alice", "/search", 3);

        assertEquals(4, requests("default", "admitted"));
        assertEquals(2, requests("default", "denied"));
        assertEquals(2, requests("api=/search", "admitted"));
        assertEquals(1, requests("api=/search", "denied"));
        assertEquals(2, liveKeys("default"));
        assertEquals(1, liveKeys("api=/search"));
        assertEquals(0, counter(SluiceMetrics.WOULD_DENY, "default"));
        assertEquals(0, counter(SluiceMetrics.TABLE_FULL, "default"));
    }

    @Test
    void valuesAreReadLiveNotCopiedAtBindTime() {
        new SluiceMetrics(service).bindTo(registry);
        assertEquals(0, requests("default", "admitted"));
        send("alice", "/home", 2);
        assertEquals(2, requests("default", "admitted"));
        clock.setMillis(10_000);
        send("alice", "/home", 4);
        assertEquals(5, requests("default", "admitted"));
        assertEquals(1, requests("default", "denied"));
    }

    @Test
    void countsWhatAShadowRuleWouldHaveDenied() {
        service.configureApi("/beta", Rule.of(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1,
                Duration.ofSeconds(10))).asShadow());
        new SluiceMetrics(service).bindTo(registry);
        send("alice", "/beta", 3);
        assertEquals(2, counter(SluiceMetrics.WOULD_DENY, "api=/beta"));
        assertEquals(0, requests("api=/beta", "denied"));
        assertEquals(3, requests("default", "admitted"));
    }

    @Test
    void countsTableFullEventsOfTheRulesLimiters() {
        service.close();
        service = RateLimiterService.builder().clock(clock).defaultConfig(THREE_PER_10S).maxKeysPerLimiter(4).build();
        new SluiceMetrics(service).bindTo(registry);
        for (int i = 0; i < 50; i++) {
            service.allow("user" + i, "/home");
        }
        RuleMetrics m = metricsOf("default");
        assertTrue(m.tableFullEvents() > 0, "a table of 4 keys must fill up with 50 users");
        // Every user sends one request, under a limit of 3: each denial is a full table's.
        assertEquals(m.denied(), m.tableFullEvents());
        assertEquals(m.tableFullEvents(), counter(SluiceMetrics.TABLE_FULL, "default"));
        assertEquals(m.denied(), requests("default", "denied"));
        assertEquals(m.liveKeys(), liveKeys("default"));
        assertEquals(50 - m.denied(), requests("default", "admitted"));
    }

    @Test
    void countersStayMonotonicWhenARuleIsReplacedAtTheSameScope() {
        new SluiceMetrics(service).bindTo(registry);
        send("alice", "/home", 5);
        assertEquals(3, requests("default", "admitted"));
        service.configureDefault(Rule.of(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1, Duration.ofSeconds(10))));
        send("bob", "/home", 2);

        assertEquals(1, metricsOf("default").admitted(), "the service starts new counters for the new rule");
        assertEquals(4, requests("default", "admitted"));
        assertEquals(3, requests("default", "denied"));
    }

    @Test
    void anUnchangedRuleKeepsItsCountersThroughAWholeRuleSetReplacement() {
        new SluiceMetrics(service).bindTo(registry);
        send("alice", "/home", 4);
        service.replaceRules(service.rules().toBuilder().putApi("/search", Rule.of(TWO_PER_S)).build());
        send("alice", "/home", 1);
        assertEquals(3, requests("default", "admitted"));
        assertEquals(2, requests("default", "denied"));
    }

    @Test
    void refreshAddsMetersForNewScopesAndRemovesThoseOfGoneScopes() {
        SluiceMetrics metrics = new SluiceMetrics(service);
        metrics.bindTo(registry);
        service.configureUser("carol", TWO_PER_S);
        send("carol", "/home", 3);
        assertNull(registry.find(SluiceMetrics.REQUESTS).tag(SluiceMetrics.SCOPE_TAG, "user=carol").meter());

        metrics.refresh();
        assertEquals(2, requests("user=carol", "admitted"));
        assertEquals(1, requests("user=carol", "denied"));

        service.removeUser("carol");
        assertEquals(2, requests("user=carol", "admitted"), "kept at its last value until refresh");
        metrics.refresh();
        assertNull(registry.find(SluiceMetrics.REQUESTS).tag(SluiceMetrics.SCOPE_TAG, "user=carol").meter());
        assertNull(registry.find(SluiceMetrics.LIVE_KEYS).tag(SluiceMetrics.SCOPE_TAG, "user=carol").meter());
        assertNotNull(registry.find(SluiceMetrics.REQUESTS).tag(SluiceMetrics.SCOPE_TAG, "default").meter());
    }

    @Test
    void everyBoundRegistryGetsTheMetersOfANewScope() {
        SimpleMeterRegistry second = new SimpleMeterRegistry();
        SluiceMetrics metrics = new SluiceMetrics(service);
        metrics.bindTo(registry);
        metrics.bindTo(second);
        metrics.bindTo(second);
        service.configureApi("/pay", TWO_PER_S);
        metrics.refresh();
        send("dave", "/pay", 3);
        assertEquals(2, requests(registry, "api=/pay", "admitted"));
        assertEquals(2, requests(second, "api=/pay", "admitted"));
        assertEquals(1, requests(second, "api=/pay", "denied"));
        assertEquals(11, second.getMeters().size(),
                "one set of five meters per scope and the retired-limiters counter, however often bound");
    }

    @Test
    void metersCarryTheCommonTagsAndTheirTypes() {
        new SluiceMetrics(service, Tags.of("gateway", "edge-1")).bindTo(registry);
        send("alice", "/home", 1);
        FunctionCounter admitted = registry.get(SluiceMetrics.REQUESTS).tags("gateway", "edge-1", "scope", "default",
                "outcome", "admitted").functionCounter();
        assertEquals(1, admitted.count());
        Gauge live = registry.get(SluiceMetrics.LIVE_KEYS).tags("gateway", "edge-1", "scope", "default").gauge();
        assertEquals(1, live.value());
        assertEquals(6, registry.getMeters().size(), "five meters of the default and the retired-limiters counter");
    }

    @Test
    void afterTheServiceClosesCountersKeepTheirValuesAndLiveKeysIsZero() {
        new SluiceMetrics(service).bindTo(registry);
        send("alice", "/home", 4);
        assertEquals(1, liveKeys("default"));
        service.close();
        assertEquals(3, requests("default", "admitted"));
        assertEquals(1, requests("default", "denied"));
        assertEquals(0, counter(SluiceMetrics.TABLE_FULL, "default"));
        assertEquals(0, liveKeys("default"));
    }

    @Test
    void additiveRulesHaveTheirOwnTaggedMetersAndRetiredLimitersAreCounted() {
        new SluiceMetrics(service).bindTo(registry);
        service.configureUser("u", dev.sluice.Rule.of(TWO_PER_S).countedPer(dev.sluice.KeyScope.USER).additive());
        SluiceMetrics metrics = new SluiceMetrics(service);
        SimpleMeterRegistry second = new SimpleMeterRegistry();
        metrics.bindTo(second);
        send("u", "a", 3);
        assertEquals(2.0, requests(second, "additive user=u", "admitted"));
        assertEquals(1.0, requests(second, "additive user=u", "denied"), "u's total of two denied the third");
        assertEquals("true", second.get(SluiceMetrics.REQUESTS).tag(SluiceMetrics.SCOPE_TAG, "additive user=u")
                .functionCounters().iterator().next().getId().getTag(SluiceMetrics.ADDITIVE_TAG));
        assertEquals(2.0, requests(second, "default", "admitted"));
        assertEquals(0.0, second.get(SluiceMetrics.RETIRED).functionCounter().count());
        service.removeUser("u");
        assertEquals(1.0, second.get(SluiceMetrics.RETIRED).functionCounter().count(), "u's own limiter retired");
    }
}
