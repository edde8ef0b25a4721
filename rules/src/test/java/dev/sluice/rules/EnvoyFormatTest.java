package dev.sluice.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.Algorithm;
import dev.sluice.KeyScope;
import dev.sluice.RateLimitConfig;
import dev.sluice.Rule;
import dev.sluice.RuleSet;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The (user, api) subset of envoyproxy/ratelimit's format maps onto Sluice rules; the rest is refused with why. */
class EnvoyFormatTest {

    private static final Rule FALLBACK = Rule.of(RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 100, Duration.ofMinutes(1)));

    private static Rule fixed(long limit, Duration window) {
        return Rule.of(RateLimitConfig.of(Algorithm.FIXED_WINDOW, limit, window));
    }

    private static RuleFileException refused(String text) {
        return assertThrows(RuleFileException.class,
                () -> RuleFiles.parseEnvoy(text, "envoy.yaml", RuleFiles.Format.YAML, FALLBACK));
    }

    @Test
    void userAndApiDescriptorsMapOntoSluiceRules() throws Exception {
        RuleSet expected = RuleSet.builder()
                .defaultRule(fixed(1000, Duration.ofDays(1)).countedPer(KeyScope.USER))
                .addUser("alice", fixed(50, Duration.ofMinutes(1)).named("alice-total").countedPer(KeyScope.USER))
                .addUserApi("alice", "/pay", fixed(10, Duration.ofMinutes(1)))
                .addApi("/search", fixed(10_000, Duration.ofSeconds(1)).countedPer(KeyScope.API).asShadow())
                .addApi("/upload", fixed(5, Duration.ofHours(1)))
                .build();
        assertEquals(expected, RuleFiles.loadEnvoy(RuleFilesTest.resource("envoy.yaml"), FALLBACK));
    }

    @Test
    void withoutADescriptorForEveryoneTheFallbackIsTheDefault() throws Exception {
        RuleSet rules = RuleFiles.parseEnvoy("domain: d\ndescriptors:\n  - key: api\n    value: /a\n    rate_limit: "
                + "{unit: second, requests_per_unit: 3}\n", "envoy.yaml", RuleFiles.Format.YAML, FALLBACK);
        assertEquals(FALLBACK, rules.defaultRule());
        assertEquals(fixed(3, Duration.ofSeconds(1)).countedPer(KeyScope.API), rules.apiRule("/a"));
    }

    @Test
    void userAndApiWithoutValuesAreTheDefaultPerPair() throws Exception {
        RuleSet rules = RuleFiles.parseEnvoy("domain: d\ndescriptors:\n  - key: user\n    descriptors:\n"
                + "      - key: api\n        rate_limit: {unit: hour, requests_per_unit: 7}\n", "envoy.yaml",
                RuleFiles.Format.YAML, FALLBACK);
        assertEquals(fixed(7, Duration.ofHours(1)), rules.defaultRule());
    }

    @Test
    void otherKeysAreRefused() {
        assertEquals("envoy.yaml:3:5: descriptors[0].key: key 'remote_address' does not map to Sluice rules; only "
                + "'user' and 'api' descriptors do",
                refused("domain: d\ndescriptors:\n  - key: remote_address\n    rate_limit: {unit: second, "
                        + "requests_per_unit: 1}\n").getMessage());
    }

    @Test
    void unlimitedAndReplacesAreRefused() {
        assertEquals("envoy.yaml:5:7: descriptors[0].rate_limit.unlimited: does not map to Sluice rules (every Sluice "
                + "rule limits; the most specific rule replaces the others); remove it",
                refused("domain: d\ndescriptors:\n  - key: user\n    rate_limit:\n      unlimited: true\n").getMessage());
        assertEquals("envoy.yaml:5:7: descriptors[0].rate_limit.replaces: does not map to Sluice rules (every Sluice "
                + "rule limits; the most specific rule replaces the others); remove it",
                refused("domain: d\ndescriptors:\n  - key: user\n    rate_limit:\n      replaces: [{name: x}]\n"
                        + "      unit: second\n      requests_per_unit: 1\n").getMessage());
    }

    @Test
    void detailedMetricIsRefused() {
        assertEquals("envoy.yaml:4:5: descriptors[0].detailed_metric: does not map to Sluice rules (Sluice's metrics "
                + "are per rule); remove it",
                refused("domain: d\ndescriptors:\n  - key: user\n    detailed_metric: true\n    rate_limit: "
                        + "{unit: second, requests_per_unit: 1}\n").getMessage());
    }

    @Test
    void unitsWithoutAFixedLengthAndZeroLimitsAreRefused() {
        assertEquals("envoy.yaml:4:18: descriptors[0].rate_limit.unit: 'month' does not map; one of second, minute, "
                + "hour, day",
                refused("domain: d\ndescriptors:\n  - key: user\n    rate_limit: {unit: month, requests_per_unit: 1}\n")
                        .getMessage());
        assertEquals("envoy.yaml:4:29: descriptors[0].rate_limit.requests_per_unit: must be from 1 to 1099511627776 "
                + "(a limit of 0 does not map), was 0",
                refused("domain: d\ndescriptors:\n  - key: user\n    rate_limit: {unit: day, requests_per_unit: 0}\n")
                        .getMessage());
    }

    @Test
    void deeperNestingWildcardsAndEmptyDescriptorsAreRefused() {
        assertEquals("envoy.yaml:7:9: descriptors[0].descriptors[0].descriptors: nesting deeper than user and api "
                + "does not map",
                refused("domain: d\ndescriptors:\n  - key: user\n    descriptors:\n      - key: api\n"
                        + "        rate_limit: {unit: day, requests_per_unit: 1}\n"
                        + "        descriptors:\n          - {key: tenant, rate_limit: {unit: day, requests_per_unit: 1}}\n")
                        .getMessage());
        assertEquals("envoy.yaml:4:5: descriptors[0].value: wildcard values ('/v1/*') do not map; name each api",
                refused("domain: d\ndescriptors:\n  - key: api\n    value: /v1/*\n    rate_limit: {unit: day, "
                        + "requests_per_unit: 1}\n").getMessage());
        assertEquals("envoy.yaml:3:5: descriptors[0]: a descriptor with neither rate_limit nor descriptors (no limit) "
                + "does not map; remove it",
                refused("domain: d\ndescriptors:\n  - key: api\n    value: /free\n").getMessage());
    }

    @Test
    void twoDescriptorsOnOneSluiceScopeAreRefused() {
        assertEquals("envoy.yaml:4:45: descriptors[1].descriptors[0]: maps onto the rule of user 'alice', as the descriptor at line 3 "
                + "does; Sluice has one rule per scope",
                refused("domain: d\ndescriptors:\n  - {key: user, value: alice, rate_limit: {unit: day, "
                        + "requests_per_unit: 1}}\n  - {key: user, value: alice, descriptors: [{key: api, rate_limit: "
                        + "{unit: day, requests_per_unit: 2}}]}\n").getMessage());
    }

    @Test
    void domainIsRequired() {
        assertEquals("envoy.yaml:1:1: domain: missing; expected the domain's name",
                refused("descriptors: []\n").getMessage());
    }
}
