package dev.sluice;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link RateLimiterService} enforces for one scope: one or more limits that must all admit (a composite,
 * e.g. 10 per second and 1000 per day), whether it is a shadow rule, and which backend holds its state.
 *
 * <p>A <b>shadow</b> rule is evaluated and counted (its would-deny count) but never denies: the request is decided
 * by the next, less specific enforcing rule, as if the shadow rule were not there. Its state is kept apart from
 * the enforcing rules' state, so rolling it out changes nothing for callers.
 *
 * <p>The <b>backend</b> names a limiter factory registered with {@link RateLimiterService.Builder#backend}; the
 * default, {@value #LOCAL}, is the lock-free in-process engine.
 */
public final class Rule {

    /** The in-process engine's backend name. */
    public static final String LOCAL = "local";

    private final List<RateLimitConfig> limits;
    private final boolean shadow;
    private final String backend;
    private final KeyScope keyScope;
    private final boolean additive;
    private final String name;
    private final int maxKeys;

    private Rule(List<RateLimitConfig> limits, boolean shadow, String backend, KeyScope keyScope, boolean additive,
            String name, int maxKeys) {
        this.limits = limits;
        this.shadow = shadow;
        this.backend = backend;
        this.keyScope = keyScope;
        this.additive = additive;
        this.name = name;
        this.maxKeys = maxKeys;
    }

    /** A rule whose limits must all admit. At least one limit; no two equal ones. */
    public static Rule of(RateLimitConfig... limits) {
        Objects.requireNonNull(limits, "limits must not be null");
        if (limits.length == 0) {
            throw new IllegalArgumentException("limits must hold at least one RateLimitConfig, was empty");
        }
        for (int i = 0; i < limits.length; i++) {
            Objects.requireNonNull(limits[i], "limits[" + i + "] must not be null");
            for (int j = 0; j < i; j++) {
                if (limits[j].equals(limits[i])) {
                    throw new IllegalArgumentException("limits must be distinct, " + limits[i] + " appears twice");
                }
            }
        }
        return new Rule(Collections.unmodifiableList(Arrays.asList(limits.clone())), false, LOCAL, KeyScope.USER_API,
                false, null, -1);
    }

    /** The same limits as a shadow rule. */
    public Rule asShadow() {
        return new Rule(limits, true, backend, keyScope, additive, name, maxKeys);
    }

    /** The same limits on another backend (registered with the service builder). */
    public Rule onBackend(String backend) {
        Objects.requireNonNull(backend, "backend must not be null");
        if (backend.isEmpty()) {
            throw new IllegalArgumentException("backend must not be empty");
        }
        return new Rule(limits, shadow, backend, keyScope, additive, name, maxKeys);
    }

    /** The same limits counted on another part of the request (default {@link KeyScope#USER_API}). */
    public Rule countedPer(KeyScope scope) {
        return new Rule(limits, shadow, backend, Objects.requireNonNull(scope, "scope must not be null"), additive,
                name, maxKeys);
    }

    /**
     * The same limits, applied in addition to whatever else applies to a request (rather than only when this is
     * the most specific rule): a request is admitted only if every applicable limit admits.
     */
    public Rule additive() {
        return new Rule(limits, shadow, backend, keyScope, true, name, maxKeys);
    }

    /** The same limits under a name, used in decisions, headers and metrics (printable ASCII, not empty). */
    public Rule named(String name) {
        return new Rule(limits, shadow, backend, keyScope, additive, checkName("name", name), maxKeys);
    }

    /** {@code name} if it is printable ASCII and not empty (a Structured Field String can carry it). */
    static String checkName(String field, String name) {
        Objects.requireNonNull(name, field + " must not be null");
        if (name.isEmpty()) {
            throw new IllegalArgumentException(field + " must not be empty");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                throw new IllegalArgumentException(field + " must be printable ASCII, was '" + name + "' with U+"
                        + String.format("%04X", (int) c) + " at index " + i);
            }
        }
        return name;
    }

    /** The same limits with room for {@code maxKeys} keys in each of this rule's local tables (1 to 2^30). */
    public Rule maxKeys(int maxKeys) {
        if (maxKeys < 1 || maxKeys > RateLimiterBuilder.MAX_KEYS) {
            throw new IllegalArgumentException("maxKeys must be in [1, " + RateLimiterBuilder.MAX_KEYS + "], was "
                    + maxKeys);
        }
        return new Rule(limits, shadow, backend, keyScope, additive, name, maxKeys);
    }

    /** What the rule counts on. */
    public KeyScope keyScope() {
        return keyScope;
    }

    /** Whether the rule applies in addition to the most specific rule. */
    public boolean isAdditive() {
        return additive;
    }

    /** The name given with {@link #named}, or null. */
    public String name() {
        return name;
    }

    /** The keys each of this rule's local tables holds, or -1 for the service's default. */
    public int maxKeysOrDefault() {
        return maxKeys;
    }

    public List<RateLimitConfig> limits() {
        return limits;
    }

    public boolean shadow() {
        return shadow;
    }

    public String backend() {
        return backend;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Rule)) {
            return false;
        }
        Rule r = (Rule) o;
        return shadow == r.shadow && additive == r.additive && maxKeys == r.maxKeys && limits.equals(r.limits)
                && backend.equals(r.backend) && keyScope == r.keyScope && Objects.equals(name, r.name);
    }

    @Override
    public int hashCode() {
        return Objects.hash(limits, shadow, backend, keyScope, additive, name, maxKeys);
    }

    @Override
    public String toString() {
        return (name == null ? "" : name + ": ") + (shadow ? "shadow " : "") + (additive ? "additive " : "") + limits
                + (keyScope == KeyScope.USER_API ? "" : " per " + keyScope) + (LOCAL.equals(backend) ? "" : " on " + backend)
                + (maxKeys < 0 ? "" : " maxKeys " + maxKeys);
    }
}
