package dev.sluice.rules;

import dev.sluice.RuleSet;
import java.nio.file.Path;

/** Reads a rule file into a {@link RuleSet}: {@link RuleFiles#load}, or an Envoy file with a fallback default. */
@FunctionalInterface
public interface RuleFileReader {

    /**
     * The rules the file holds.
     *
     * @throws RuleFileException if the file cannot be read or holds an error, placed and explained
     */
    RuleSet read(Path file) throws RuleFileException;
}
