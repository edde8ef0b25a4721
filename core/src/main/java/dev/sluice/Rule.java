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

    private Rule(List<RateLimitConfig> limits, boolean shadow, String backend) {
        this.limits = limits;
        this.shadow = shadow;
        this.backend = backend;
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
        return new Rule(Collections.unmodifiableList(Arrays.asList(limits.clone())), false, LOCAL);
    }

    /** The same limits as a shadow rule. */
    public Rule asShadow() {
        return new Rule(limits, true, backend);
    }

    /** The same limits on another backend (registered with the service builder). */
    public Rule onBackend(String backend) {
        Objects.requireNonNull(backend, "backend must not be null");
        if (backend.isEmpty()) {
            throw new IllegalArgumentException("backend must not be empty");
        }
        return new Rule(limits, shadow, backend);
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
        return shadow == r.shadow && limits.equals(r.limits) && backend.equals(r.backend);
    }

    @Override
    public int hashCode() {
        return Objects.hash(limits, shadow, backend);
    }

    @Override
    public String toString() {
        return (shadow ? "shadow " : "") + limits + (LOCAL.equals(backend) ? "" : " on " + backend);
    }
}
