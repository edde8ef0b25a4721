package dev.sluice.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Each mistake in a rule file is reported at its line and column, naming the field and what is allowed. */
class BadRuleFileTest {

    private static final String DEFAULT = "default: {algorithm: fixed_window, limit: 3, window: 1s}\n";

    private static RuleFileException yaml(String text) {
        return assertThrows(RuleFileException.class, () -> RuleFiles.parse(text, "rules.yaml", RuleFiles.Format.YAML));
    }

    private static RuleFileException json(String text) {
        return assertThrows(RuleFileException.class, () -> RuleFiles.parse(text, "rules.json", RuleFiles.Format.JSON));
    }

    @Test
    void unknownFieldListsTheAllowedOnes() {
        RuleFileException e = yaml(DEFAULT + "rules:\n  - user: alice\n    limit: 5\n    window: 1s\n"
                + "    algorithm: token_bucket\n    burts: 2\n");
        assertEquals("rules.yaml:7:5: rules[0].burts: unknown field; allowed here: user, api, algorithm, limit, "
                + "window, burst, alignedTo, name, limits, shadow, additive, countedPer, backend, maxKeys",
                e.getMessage());
        assertEquals(7, e.line());
        assertEquals(5, e.column());
        assertEquals("rules[0].burts", e.field());
    }

    @Test
    void badAlgorithmListsTheAlgorithms() {
        RuleFileException e = yaml("default:\n  algorithm: token-buckets\n  limit: 3\n  window: 1s\n");
        assertEquals("rules.yaml:2:3: default.algorithm: 'token-buckets' is not one of token_bucket, fixed_window, "
                + "sliding_window_log, sliding_window_counter, leaky_bucket", e.getMessage());
    }

    @Test
    void badDurationShowsHowToWriteOne() {
        RuleFileException e = yaml("default:\n  algorithm: fixed_window\n  limit: 3\n  window: 10 minutes\n");
        assertEquals("rules.yaml:4:3: default.window: '10 minutes' is not a duration; write a whole number and a "
                + "unit (ms, s, m, h, d), or several, such as 500ms, 1s, 10m, 1h30m, 1d", e.getMessage());
    }

    @Test
    void windowOutOfRangeNamesTheRangeInHumanUnits() {
        RuleFileException e = yaml("default: {algorithm: fixed_window, limit: 3, window: 400d}\n");
        assertEquals("rules.yaml:1:46: default.window: must be from 1ms to 366d, was 400d", e.getMessage());
    }

    @Test
    void limitOutOfRangeNamesTheRangeForThatAlgorithmAndWindow() {
        RuleFileException zero = yaml(DEFAULT + "rules:\n  - api: /a\n    limits:\n"
                + "      - {algorithm: token_bucket, limit: 0, window: 1s}\n");
        assertEquals("rules.yaml:5:35: rules[0].limits[0].limit: must be from 1 to 1000000000 for token_bucket per 1s, "
                + "was 0", zero.getMessage());
        RuleFileException log = yaml("default: {algorithm: sliding_window_log, limit: 70000, window: 1s}\n");
        assertEquals("rules.yaml:1:42: default.limit: must be from 1 to 65536 for sliding_window_log per 1s, was 70000",
                log.getMessage());
    }

    @Test
    void burstOutOfRangeAndBurstOnAWindowAreRejected() {
        RuleFileException big = yaml("default: {algorithm: token_bucket, limit: 10, window: 1d, burst: 99999999999999}\n");
        assertEquals("rules.yaml:1:59: default.burst: must be from 1 to 133439 for a limit of 10 per 1d, "
                + "was 99999999999999", big.getMessage());
        RuleFileException onWindow = yaml("default: {algorithm: fixed_window, limit: 10, window: 1d, burst: 5}\n");
        assertEquals("rules.yaml:1:59: default.burst: applies to token_bucket and leaky_bucket only, not fixed_window",
                onWindow.getMessage());
    }

    @Test
    void alignmentOfABucketAndABadOffsetAreRejected() {
        RuleFileException bucket = yaml("default: {algorithm: token_bucket, limit: 10, window: 1d, alignedTo: '+01:00'}\n");
        assertEquals("rules.yaml:1:59: default.alignedTo: alignment applies to FIXED_WINDOW and SLIDING_WINDOW_COUNTER "
                + "only, not TOKEN_BUCKET", bucket.getMessage());
        RuleFileException zone = yaml("default: {algorithm: fixed_window, limit: 10, window: 1d, alignedTo: CET}\n");
        assertEquals("rules.yaml:1:59: default.alignedTo: 'CET' is not a UTC offset; write Z, UTC or an offset such as "
                + "+02:00, -05:30 (at most 18 hours)", zone.getMessage());
    }

    @Test
    void duplicateScopeNamesTheFirstRule() {
        RuleFileException e = yaml(DEFAULT + "rules:\n"
                + "  - {user: alice, algorithm: fixed_window, limit: 5, window: 1s}\n"
                + "  - {user: bob, algorithm: fixed_window, limit: 5, window: 1s}\n"
                + "  - {user: alice, algorithm: fixed_window, limit: 9, window: 1m}\n");
        assertEquals("rules.yaml:5:5: rules[2]: a second rule for user 'alice' (the first is at line 3); one rule per "
                + "scope: put both limits in one rule's 'limits'", e.getMessage());
    }

    @Test
    void duplicateFieldNamesBothLines() {
        RuleFileException e = yaml("default:\n  algorithm: fixed_window\n  limit: 3\n  window: 1s\n  limit: 4\n");
        assertEquals("rules.yaml:5:3: default.limit: given twice (first at line 3)", e.getMessage());
    }

    @Test
    void missingDefaultSaysWhatItIsFor() {
        RuleFileException e = yaml("rules:\n  - {user: alice, algorithm: fixed_window, limit: 5, window: 1s}\n");
        assertEquals("rules.yaml:1:1: default: missing; expected the rule that applies when no other does",
                e.getMessage());
    }

    @Test
    void missingWindowIsPlacedAtItsRule() {
        RuleFileException e = yaml(DEFAULT + "rules:\n  - user: alice\n    algorithm: fixed_window\n    limit: 5\n");
        assertEquals("rules.yaml:3:5: rules[0].window: missing; expected a duration such as 1s, 10m, 1h, 1d",
                e.getMessage());
    }

    @Test
    void wrongTypeSaysWhatWasExpectedAndWhatWasFound() {
        RuleFileException limit = json("{\"default\": {\"algorithm\": \"fixed_window\", \"limit\": \"ten\", "
                + "\"window\": \"1s\"}}");
        assertEquals("rules.json:1:43: default.limit: expected a whole number from 1 to 17179869183 for fixed_window "
                + "per 1s, was a string 'ten'", limit.getMessage());
        RuleFileException shadow = yaml(DEFAULT + "rules:\n  - {api: /a, algorithm: fixed_window, limit: 1, window: 1s, "
                + "shadow: maybe}\n");
        assertEquals("rules.yaml:3:62: rules[0].shadow: expected true or false, was a string 'maybe'",
                shadow.getMessage());
        RuleFileException rules = yaml(DEFAULT + "rules: {user: alice}\n");
        assertEquals("rules.yaml:2:1: rules: expected a list of rules, was an object", rules.getMessage());
    }

    @Test
    void aRuleWithoutUserOrApiPointsToDefault() {
        RuleFileException e = yaml(DEFAULT + "rules:\n  - {algorithm: fixed_window, limit: 1, window: 1s}\n");
        assertEquals("rules.yaml:3:5: rules[0]: a rule needs 'user', 'api' or both (the rule for everyone else is "
                + "'default')", e.getMessage());
    }

    @Test
    void inlineLimitBesideLimitsIsRejected() {
        RuleFileException e = yaml("default:\n  limit: 5\n  limits:\n    - {algorithm: fixed_window, limit: 1, window: 1s}\n");
        assertEquals("rules.yaml:2:3: default.limit: a rule has either 'limits' or one inline limit, not both: move "
                + "'limit' into an item of 'limits'", e.getMessage());
    }

    @Test
    void equalLimitsInOneRuleAreRejectedAtTheList() {
        RuleFileException e = yaml("default:\n  limits:\n    - {algorithm: fixed_window, limit: 1, window: 1s}\n"
                + "    - {algorithm: fixed_window, limit: 1, window: 1000ms}\n");
        assertEquals("rules.yaml:2:3: default.limits: limits must be distinct, FIXED_WINDOW 1/PT1S appears twice",
                e.getMessage());
    }

    @Test
    void badNameAndMaxKeysAreRejectedWithTheirRange() {
        RuleFileException name = yaml("default: {algorithm: fixed_window, limit: 1, window: 1s, name: \"caf\\u00e9\"}\n");
        assertEquals("rules.yaml:1:58: default.name: name must be printable ASCII, was 'café' with U+00E9 at index 3",
                name.getMessage());
        RuleFileException keys = yaml("default: {algorithm: fixed_window, limit: 1, window: 1s, maxKeys: 0}\n");
        assertEquals("rules.yaml:1:58: default.maxKeys: must be from 1 to 1073741824, was 0", keys.getMessage());
        RuleFileException scope = yaml("default: {algorithm: fixed_window, limit: 1, window: 1s, countedPer: team}\n");
        assertEquals("rules.yaml:1:58: default.countedPer: 'team' is not one of user_api, user, api, global",
                scope.getMessage());
    }

    @Test
    void syntaxErrorsArePlacedByTheParser() {
        RuleFileException e = json("{\"default\": {\"algorithm\": \"fixed_window\",, }}");
        assertEquals(1, e.line());
        assertEquals(true, e.getMessage().startsWith("rules.json:1:42: not valid JSON: "), e.getMessage());
        RuleFileException y = yaml("default:\n  algorithm: [fixed_window\n");
        assertEquals(true, y.getMessage().startsWith("rules.yaml:"), y.getMessage());
        assertEquals(true, y.problem().startsWith("not valid YAML: "), y.problem());
    }

    @Test
    void emptyFileNeedsADefault() {
        assertEquals("rules.yaml:1:1: the file is empty; it needs at least a 'default' rule", yaml("").getMessage());
    }
}
