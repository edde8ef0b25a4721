package dev.sluice.jmh.support;

/** Which key form a many-keys benchmark passes. */
public enum KeyType {
    LONG,
    /** Precomputed {@code String}s ("user-123"), so the benchmark builds none. */
    STRING
}
