package dev.sluice.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.Algorithm;
import dev.sluice.KeyScope;
import dev.sluice.RateLimitConfig;
import dev.sluice.Rule;
import dev.sluice.RuleSet;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** Good rule files in both syntaxes build exactly the rules they describe. */
class RuleFilesTest {

    static Path resource(String name) throws URISyntaxException {
        return Path.of(RuleFilesTest.class.getResource(name).toURI());
    }

    /** The rules every-feature.yaml and every-feature.json describe, built with the Java API. */
    static RuleSet everyFeature() {
        return RuleSet.builder()
                .defaultRule(Rule.of(RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 100, Duration.ofMinutes(1))
                        .withBurst(20)))
                .addUser("alice", Rule.of(RateLimitConfig.of(Algorithm.SLIDING_WINDOW_COUNTER, 1000,
                        Duration.ofHours(1))).named("alice-hourly").countedPer(KeyScope.USER).additive())
                .addApi("/search", Rule.of(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 10_000, Duration.ofSeconds(1)),
                        RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1_000_000, Duration.ofDays(1))
                                .alignedTo(ZoneOffset.ofHours(2)))
                        .countedPer(KeyScope.GLOBAL).additive())
                .addUserApi("alice", "/pay", Rule.of(RateLimitConfig.of(Algorithm.SLIDING_WINDOW_LOG, 10,
                        Duration.ofMinutes(1))).maxKeys(4096))
                .addApi("/export", Rule.of(RateLimitConfig.of(Algorithm.LEAKY_BUCKET, 5, Duration.ofMinutes(90)))
                        .onBackend("redis").asShadow())
                .build();
    }

    @Test
    void yamlFileWithEveryFeatureBuildsTheRulesItDescribes() throws Exception {
        assertEquals(everyFeature(), RuleFiles.load(resource("every-feature.yaml")));
    }

    @Test
    void jsonFileWithEveryFeatureBuildsTheSameRules() throws Exception {
        assertEquals(everyFeature(), RuleFiles.load(resource("every-feature.json")));
    }

    @Test
    void aDefaultAloneIsAWholeRuleSet() throws Exception {
        RuleSet rules = RuleFiles.parse("default: {algorithm: fixed_window, limit: 3, window: 1s}", "inline",
                RuleFiles.Format.YAML);
        assertEquals(RuleSet.builder().defaultConfig(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3,
                Duration.ofSeconds(1))).build(), rules);
    }

    @Test
    void algorithmAndScopeNamesAcceptAnyCaseAndDashes() throws Exception {
        RuleSet rules = RuleFiles.parse("default: {algorithm: Sliding-Window-Log, limit: 3, window: 500ms}\n"
                + "rules:\n  - {user: bob, algorithm: TOKEN_BUCKET, limit: 1, window: 2d, countedPer: USER-API}\n",
                "inline", RuleFiles.Format.YAML);
        assertEquals(RateLimitConfig.of(Algorithm.SLIDING_WINDOW_LOG, 3, Duration.ofMillis(500)),
                rules.defaultRule().limits().get(0));
        assertEquals(Rule.of(RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 1, Duration.ofDays(2))), rules.userRule("bob"));
    }

    @Test
    void offsetsReadQuotedOrNotAndUtcByName() throws Exception {
        for (String[] c : new String[][] {{"-05:30", "-05:30"}, {"'+02:00'", "+02:00"}, {"UTC", "Z"}, {"Z", "Z"}}) {
            RuleSet rules = RuleFiles.parse("default: {algorithm: fixed_window, limit: 3, window: 1d, alignedTo: "
                    + c[0] + "}", "inline", RuleFiles.Format.YAML);
            assertEquals(ZoneOffset.of(c[1]), rules.defaultRule().limits().get(0).alignment(), c[0]);
        }
    }

    @Test
    void durationsAddUpTheirParts() {
        assertEquals(Duration.ofMinutes(90), Durations.parse("1h30m"));
        assertEquals(Duration.ofMillis(1500), Durations.parse("1s500ms"));
        assertEquals(Duration.ofDays(366), Durations.parse("366d"));
        assertEquals("1d2h3m4s5ms", Durations.format(Duration.ofDays(1).plusHours(2).plusMinutes(3).plusSeconds(4)
                .plusMillis(5)));
        assertEquals(null, Durations.parse("1.5s"));
        assertEquals(null, Durations.parse("s"));
        assertEquals(null, Durations.parse("99999999999999999999d"));
    }

    @Test
    void aFileOfAnotherTypeIsRejectedByName() {
        RuleFileException e = assertThrows(RuleFileException.class, () -> RuleFiles.load(Path.of("rules.toml")));
        assertEquals("rules.toml: unknown file type; a rule file ends in .yaml, .yml or .json", e.getMessage());
    }

    @Test
    void aMissingFileSaysItCannotBeRead() {
        RuleFileException e = assertThrows(RuleFileException.class,
                () -> RuleFiles.load(Path.of("/nonexistent/rules.yaml")));
        assertEquals(0, e.line());
        assertEquals("/nonexistent/rules.yaml", e.file());
        assertEquals(true, e.problem().startsWith("cannot be read: java.nio.file.NoSuchFileException"), e.problem());
    }
}
