package dev.sluice.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.RuleSet;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The rule file shown in the root README parses as written. */
class ReadmeRuleFileTest {

    @Test
    void theReadmesYamlExampleLoads() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
        int start = readme.indexOf("```yaml\n");
        assertTrue(start >= 0, "README has a yaml block");
        int end = readme.indexOf("```", start + 8);
        String yaml = readme.substring(start + 8, end);
        RuleSet rules = RuleFiles.parse(yaml, "README.md", RuleFiles.Format.YAML);
        assertEquals(100, rules.defaultRule().limits().get(0).limit());
        assertEquals(10, rules.userApiRule("alice", "/pay").limits().get(0).limit());
        assertEquals(10_000, rules.apiRule("/search").limits().get(0).limit());
    }
}
