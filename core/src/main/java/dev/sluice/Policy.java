package dev.sluice;

import java.util.List;
import java.util.Objects;

/**
 * One limit as a {@link RateLimiterService} applies it: the limit, the name decisions and headers give it, and what
 * it counts on. Built once per rule when the rules are installed, so that a request only passes a reference to it.
 *
 * <p>The name is the one given with {@link Rule#named}, else derived from where the rule is set: {@code default},
 * {@code user}, {@code api} or {@code user-api}, with {@code -additive} for an additive rule; never a user name or
 * an API path unless the operator named the rule so. The limits of a composite rule are suffixed {@code -1},
 * {@code -2}, ... in the rule's order.
 *
 * <p>Its RateLimit header text is computed here, once, when it is built: its Quota Policy Item, its quoted name
 * and the {@code RateLimit-Policy} value of all the limits of its rule, so that writing the fields of a decision
 * finds them instead of formatting them per response. Immutable (every field final, so safely published).
 */
public final class Policy {

    private final String name;
    private final RateLimitConfig config;
    private final KeyScope keyScope;
    private final boolean additive;
    private final String quotedName;
    private final String quotaPolicyItem;
    /** The RateLimit-Policy value of every limit of the rule, in the rule's order; shared by those policies. */
    private final String rulePolicyValue;
    private final int ruleIndex;
    private final int ruleSize;

    /** A policy named {@code name} (printable ASCII, not empty) for {@code config}: a rule of this one limit. */
    public Policy(String name, RateLimitConfig config, KeyScope keyScope, boolean additive) {
        this.name = Rule.checkName("policy name", name);
        this.config = Objects.requireNonNull(config, "config must not be null");
        this.keyScope = Objects.requireNonNull(keyScope, "keyScope must not be null");
        this.additive = additive;
        this.quotedName = StructuredFields.quote(name);
        this.quotaPolicyItem = StructuredFields.quotaPolicyItem(name, config);
        this.rulePolicyValue = quotaPolicyItem;
        this.ruleIndex = 0;
        this.ruleSize = 1;
    }

    /** The {@code index}-th of a rule's {@code size} limits; {@code rulePolicyValue} is the value of them all. */
    private Policy(String name, RateLimitConfig config, KeyScope keyScope, boolean additive, String quotaPolicyItem,
            String rulePolicyValue, int index, int size) {
        this.name = name;
        this.config = config;
        this.keyScope = keyScope;
        this.additive = additive;
        this.quotedName = StructuredFields.quote(name);
        this.quotaPolicyItem = quotaPolicyItem;
        this.rulePolicyValue = rulePolicyValue;
        this.ruleIndex = index;
        this.ruleSize = size;
    }

    /**
     * The policies of a rule's limits, in the rule's order: one limit is named {@code name}, the limits of a
     * composite {@code name-1}, {@code name-2}, ...; each knows the RateLimit-Policy value of them all.
     */
    static Policy[] ofRule(String name, List<RateLimitConfig> limits, KeyScope keyScope, boolean additive) {
        int n = limits.size();
        if (n == 1) {
            return new Policy[] {new Policy(name, limits.get(0), keyScope, additive)};
        }
        String[] names = new String[n];
        String[] items = new String[n];
        StringBuilder joined = new StringBuilder();
        for (int i = 0; i < n; i++) {
            names[i] = Rule.checkName("policy name", name + "-" + (i + 1));
            items[i] = StructuredFields.quotaPolicyItem(names[i], limits.get(i));
            joined.append(i > 0 ? ", " : "").append(items[i]);
        }
        String value = joined.toString();
        Policy[] policies = new Policy[n];
        for (int i = 0; i < n; i++) {
            policies[i] = new Policy(names[i], Objects.requireNonNull(limits.get(i), "config must not be null"),
                    Objects.requireNonNull(keyScope, "keyScope must not be null"), additive, items[i], value, i, n);
        }
        return policies;
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

    /** The name as a Structured Field String (RFC 9651 §3.3.3): quoted, {@code "} and {@code \} escaped. */
    public String quotedName() {
        return quotedName;
    }

    /** This limit's Quota Policy Item, as {@link StructuredFields#quotaPolicyItem} formats it. */
    public String quotaPolicyItem() {
        return quotaPolicyItem;
    }

    /**
     * The {@code RateLimit-Policy} value of every limit of the rule this policy was built for, in the rule's order
     * (items separated by a comma and a space); this policy's own item for a policy built alone. The same String
     * instance for every policy of one rule.
     */
    public String rulePolicyValue() {
        return rulePolicyValue;
    }

    /** This limit's position among its rule's limits, from 0; 0 for a policy built alone. */
    public int ruleIndex() {
        return ruleIndex;
    }

    /** How many limits the rule this policy was built for has; 1 for a policy built alone. */
    public int ruleSize() {
        return ruleSize;
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
