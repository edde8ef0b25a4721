package dev.sluice.rules;

import dev.sluice.RateLimiterService;
import dev.sluice.Rule;
import dev.sluice.RuleSet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/**
 * Rules from YAML and JSON files: Sluice's own schema (docs/rule-files.md) and the (user, api) subset of
 * envoyproxy/ratelimit's format. Every error, from a syntax error to a limit out of range, is a
 * {@link RuleFileException} naming the file, the line and column, the field and what is allowed.
 *
 * <p>A reload is one call, {@link #reload(Path, RateLimiterService)}: read, check, then
 * {@link RateLimiterService#replaceRules} (one atomic swap; keys whose rule keeps a limit keep their state). If
 * anything is wrong the service is not touched and keeps serving its current rules, and the checked exception
 * says why. Nothing here runs on the request path.
 */
public final class RuleFiles {

    /** The syntax of a rule file. */
    public enum Format {
        YAML, JSON;

        /** {@code .json} is JSON; {@code .yaml} and {@code .yml} are YAML (any case). */
        static Format of(Path file) throws RuleFileException {
            String name = String.valueOf(file.getFileName()).toLowerCase(Locale.ROOT);
            if (name.endsWith(".json")) {
                return JSON;
            }
            if (name.endsWith(".yaml") || name.endsWith(".yml")) {
                return YAML;
            }
            throw new RuleFileException(file.toString(), 0, 0, "",
                    "unknown file type; a rule file ends in .yaml, .yml or .json");
        }
    }

    private RuleFiles() {
    }

    /** The rules of a Sluice rule file, its format told by its extension. */
    public static RuleSet load(Path file) throws RuleFileException {
        Format format = Format.of(file);
        return parse(text(file), file.toString(), format);
    }

    /** The rules of a Sluice rule document, {@code source} naming it in errors. */
    public static RuleSet parse(String text, String source, Format format) throws RuleFileException {
        return SluiceFormat.read(NodeReader.read(text, source, format));
    }

    /**
     * The rules of an envoyproxy/ratelimit configuration file (YAML or JSON): descriptors keyed {@code user} and
     * {@code api}, mapped as docs/rule-files.md shows; what does not map is refused with the reason. {@code fallbackDefault} is the default rule
     * unless a descriptor without values gives one.
     */
    public static RuleSet loadEnvoy(Path file, Rule fallbackDefault) throws RuleFileException {
        Format format = Format.of(file);
        return parseEnvoy(text(file), file.toString(), format, fallbackDefault);
    }

    /** The rules of an envoyproxy/ratelimit configuration document. */
    public static RuleSet parseEnvoy(String text, String source, Format format, Rule fallbackDefault)
            throws RuleFileException {
        Objects.requireNonNull(fallbackDefault, "fallbackDefault must not be null");
        return EnvoyFormat.read(NodeReader.read(text, source, format), fallbackDefault);
    }

    /** Reads {@code file} with {@link #load} and installs its rules; see {@link #reload(Path, RateLimiterService, RuleFileReader)}. */
    public static RuleSet reload(Path file, RateLimiterService service) throws RuleFileException {
        return reload(file, service, RuleFiles::load);
    }

    /**
     * Reads {@code file} and installs its rules in {@code service} at once with
     * {@link RateLimiterService#replaceRules}. On any error (unreadable file, invalid rule, or rules the service
     * refuses, such as an unknown backend) the service keeps its current rules and this throws.
     *
     * @return the rules now in force
     * @throws RuleFileException why the file was not installed
     */
    public static RuleSet reload(Path file, RateLimiterService service, RuleFileReader reader)
            throws RuleFileException {
        Objects.requireNonNull(service, "service must not be null");
        RuleSet rules = reader.read(file);
        try {
            service.replaceRules(rules);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new RuleFileException(file.toString(), "the service refused these rules: " + e.getMessage(), e);
        }
        return rules;
    }

    static String text(Path file) throws RuleFileException {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new RuleFileException(file.toString(), "cannot be read: " + e, e);
        }
    }
}
