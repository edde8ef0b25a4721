package dev.sluice;

import java.util.Objects;

/**
 * One limit as a {@link RateLimiterService} applies it: the limit, the name decisions and headers give it, and what
 * it counts on. Built once per rule when the rules are installed, so that a request only passes a reference to it.
 *
 * <p>The name is the one given with {@link Rule#named}, else derived from where the rule is set: {@code default},
 * {@code user}, {@code api} or {@code user-api}, with {@code -additive} for an additive rule; never a user name or
 * an API path unless the operator named the rule so. The limits of a composite rule are suffixed {@code -1},
 * {@code -2}, ... in the rule's order. Immutable.
 */
public final class Policy {

    private final String name;
    private final RateLimitConfig config;
    private final KeyScope keyScope;
    private final boolean additive;

    /** A policy named {@code name} (printable ASCII, not empty) for {@code config}. */
    public Policy(String name, RateLimitConfig config, KeyScope keyScope, boolean additive) {
        this.name = Rule.checkName("policy name", name);
        this.config = Objects.requireNonNull(config, "config must not be null");
        this.keyScope = Objects.requireNonNull(keyScope, "keyScope must not be null");
        this.additive = additive;
    }

    public String name() {
        return name;
    }

    public RateLimitConfig config() {
        return config;
    }

    /** What the limit counts on. */
    public KeyScope keyScope() {
        return keyScope;
    }

    /** Whether the limit belongs to an additive rule. */
    public boolean additive() {
        return additive;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Policy)) {
            return false;
        }
        Policy p = (Policy) o;
        return additive == p.additive && name.equals(p.name) && config.equals(p.config) && keyScope == p.keyScope;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, config, keyScope, additive);
    }

    @Override
    public String toString() {
        return name + " " + config + (keyScope == KeyScope.USER_API ? "" : " per " + keyScope)
                + (additive ? " (additive)" : "");
    }
}
