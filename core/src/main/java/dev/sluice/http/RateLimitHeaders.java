package dev.sluice.http;

import dev.sluice.Decision;
import dev.sluice.Policy;
import dev.sluice.RateLimitConfig;
import dev.sluice.Rule;
import dev.sluice.StructuredFields;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * Turns a {@link Decision} into standard HTTP response header fields, with no HTTP library: the caller hands
 * over a {@link BiConsumer} of (name, value) (for example {@code exchange.getResponseHeaders()::add}) or takes a
 * {@link Map}.
 *
 * <p>Fields, following
 * <a href="https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/11/">draft-ietf-httpapi-ratelimit-headers-11</a>
 * (23 May 2026; Structured Field syntax of RFC 9651) and RFC 9110:
 * <ul>
 *   <li>{@code RateLimit-Policy: "default";q=100;w=60}: one Quota Policy Item per limit of the rule (draft §3).
 *       {@code q} is the limit, {@code w} the window in whole seconds, rounded <em>up</em> because the draft has no
 *       sub-second windows; so the advertised rate is never higher than the enforced one. A bucket whose burst
 *       differs from its limit adds the vendor parameter {@code sluice-burst} (draft §3.1 asks for a vendor
 *       prefix on such parameters). The value is computed once, when this object is built.</li>
 *   <li>{@code RateLimit: "default";r=42;t=30}: the Service Limit Item of the limit that decided (draft §4):
 *       {@code r} the permits remaining, {@code t} in whole seconds rounded up: for an admitted request the time
 *       until the key is back to a fresh state, for a denied one the same value as {@code Retry-After}, since the
 *       key can use nothing before then (and draft §6 asks that Retry-After not point earlier than the end of
 *       the effective window).</li>
 *   <li>{@code Retry-After: 7} on a denied request: delay-seconds (RFC 9110 §10.2.3), a non-negative integer,
 *       rounded up so that a client that waits it is never early, and at least 1 so that a denial never invites
 *       an immediate retry. A request that can never be admitted (more permits than the burst,
 *       {@link Decision#NEVER}) gets no Retry-After: waiting does not help.</li>
 * </ul>
 * Integers are capped at {@link #MAX_INTEGER}, the largest Structured Field Integer. A decision with no limit
 * (limit {@link Long#MAX_VALUE}: no enforcing rule applied) writes no field at all.
 *
 * <p>Which limit decided, for an instance built for a rule: the limit the decision names ({@link Decision#config()}) if
 * it is one of the rule's, else the first limit whose {@link RateLimitConfig#burst()} equals {@link Decision#limit()},
 * else the first limit; the {@code r} and {@code t} values always come from the decision itself.
 *
 * <p>From the decision alone: {@link #writeDecision(Decision, BiConsumer)} needs no instance and no rule. A decision
 * filled by {@link dev.sluice.RateLimiterService} names every limit that applied and the one that decided, so an
 * integration writes correct fields for every rule combination (additive rules included) without knowing the rules.
 *
 * <p>Immutable and thread-safe. Writing allocates only the {@code RateLimit} and {@code Retry-After} value
 * Strings, each built by one exactly sized concatenation: the {@code RateLimit-Policy} value is a String computed
 * when the rule's {@link Policy} objects (or this instance) were built, except for a decision whose limits come
 * from several rules (additive rules), where the rules' values are joined per response.
 */
public final class RateLimitHeaders {

    /** The status of a denied request: 429 Too Many Requests (RFC 6585 §4). */
    public static final int TOO_MANY_REQUESTS = 429;
    /** The status of an admitted request, for {@link #status(Decision)}. */
    public static final int OK = 200;
    public static final String RETRY_AFTER = "Retry-After";
    public static final String RATELIMIT_POLICY = "RateLimit-Policy";
    public static final String RATELIMIT = "RateLimit";
    /** The policy name used when the caller gives none. */
    public static final String DEFAULT_POLICY = "default";
    /** The largest Integer a Structured Field can carry (RFC 9651 §3.3.1): fifteen nines. */
    public static final long MAX_INTEGER = StructuredFields.MAX_INTEGER;

    private final RateLimitConfig[] limits;
    /** Each limit's policy name as a Structured Field String, quotes included. */
    private final String[] items;
    private final String policy;

    private RateLimitHeaders(List<RateLimitConfig> limits, List<String> names) {
        this.limits = limits.toArray(new RateLimitConfig[0]);
        this.items = new String[names.size()];
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < items.length; i++) {
            items[i] = StructuredFields.quote(names.get(i));
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(StructuredFields.quotaPolicyItem(names.get(i), this.limits[i]));
        }
        this.policy = sb.toString();
    }

    /** Headers for one limit, named {@value #DEFAULT_POLICY}. */
    public static RateLimitHeaders of(RateLimitConfig config) {
        return of(DEFAULT_POLICY, config);
    }

    /** Headers for one limit under the policy name {@code name} (printable ASCII, not empty). */
    public static RateLimitHeaders of(String name, RateLimitConfig config) {
        Objects.requireNonNull(config, "config must not be null");
        return new RateLimitHeaders(List.of(config), List.of(checkName(name)));
    }

    /** Headers for a rule, named {@value #DEFAULT_POLICY}; see {@link #of(String, Rule)}. */
    public static RateLimitHeaders of(Rule rule) {
        return of(DEFAULT_POLICY, rule);
    }

    /**
     * Headers for a rule: a rule of one limit is named {@code name}; the limits of a composite are named
     * {@code name-1}, {@code name-2}, ... in the rule's order.
     */
    public static RateLimitHeaders of(String name, Rule rule) {
        Objects.requireNonNull(rule, "rule must not be null");
        checkName(name);
        int n = rule.limits().size();
        List<String> names = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            names.add(n == 1 ? name : name + "-" + i);
        }
        return new RateLimitHeaders(rule.limits(), names);
    }

    /** Headers for a rule with one name per limit, in the rule's order. */
    public static RateLimitHeaders of(Rule rule, List<String> names) {
        Objects.requireNonNull(rule, "rule must not be null");
        Objects.requireNonNull(names, "names must not be null");
        if (names.size() != rule.limits().size()) {
            throw new IllegalArgumentException("names must hold one name per limit (" + rule.limits().size()
                    + "), held " + names.size());
        }
        names.forEach(RateLimitHeaders::checkName);
        return new RateLimitHeaders(rule.limits(), names);
    }

    /** The {@code RateLimit-Policy} field value; the same for every decision. */
    public String policyValue() {
        return policy;
    }

    /** The {@code RateLimit} field value for {@code decision}, or null if no limit applied. */
    public String rateLimitValue(Decision decision) {
        if (unlimited(decision)) {
            return null;
        }
        return serviceLimitItem(items[deciding(decision)], decision);
    }

    /** The Service Limit Item (draft §4) of the limit that decided: {@code r} and {@code t} from the decision. */
    private static String serviceLimitItem(String quotedName, Decision decision) {
        return quotedName + ";r=" + cap(decision.remaining()) + ";t=" + cap(limitSeconds(decision));
    }

    /** {@code t}: seconds until the window resets for an admitted request, until a retry may pass for a denied one. */
    private static long limitSeconds(Decision decision) {
        if (decision.allowed() || decision.retryAfterNanos() == Decision.NEVER) {
            return ceilSeconds(decision.resetAfterNanos());
        }
        return retryAfterSeconds(decision);
    }

    /**
     * The {@code RateLimit-Policy} field value written from {@code decision} alone: one Quota Policy Item per limit
     * that applied ({@link Decision#applied}), in the order they were tried, as a Structured Field List (draft §3:
     * items separated by a comma and a space); for a decision that names no applied limit, the item of the limit
     * that decided ({@link Decision#config()}). Null when no limit applied or the decision names none.
     *
     * <p>Allocates nothing when the limits that applied are those of one rule ({@link Policy#rulePolicyValue()});
     * the limits of several rules (additive rules) are joined per call, each rule's text already computed.
     */
    public static String policyValueOf(Decision decision) {
        if (unlimited(decision)) {
            return null;
        }
        int n = decision.appliedCount();
        if (n == 0) {
            return decision.config() == null ? null
                    : StructuredFields.quotaPolicyItem(nameOf(decision), decision.config());
        }
        int end = ruleEnd(decision, 0);
        if (end == n) {
            return segment(decision, 0, end);
        }
        StringBuilder sb = new StringBuilder(64 * n);
        for (int i = 0, e; i < n; i = e) {
            e = ruleEnd(decision, i);
            sb.append(i > 0 ? ", " : "").append(segment(decision, i, e));
        }
        return sb.toString();
    }

    /**
     * Where the run of applied limits starting at {@code start} ends: after all the limits of one rule if they
     * follow in the rule's order (they share one {@link Policy#rulePolicyValue()} instance), else after one limit.
     */
    private static int ruleEnd(Decision decision, int start) {
        Policy first = decision.applied(start);
        int size = first.ruleSize();
        if (first.ruleIndex() != 0 || size == 1 || start + size > decision.appliedCount()) {
            return start + 1;
        }
        for (int j = 1; j < size; j++) {
            Policy p = decision.applied(start + j);
            if (p.rulePolicyValue() != first.rulePolicyValue() || p.ruleIndex() != j) {
                return start + 1;
            }
        }
        return start + size;
    }

    /** The RateLimit-Policy text of the run {@code [start, end)} found by {@link #ruleEnd}. */
    private static String segment(Decision decision, int start, int end) {
        Policy p = decision.applied(start);
        return end - start == 1 ? p.quotaPolicyItem() : p.rulePolicyValue();
    }

    /**
     * The {@code RateLimit} field value written from {@code decision} alone: the Service Limit Item of the limit
     * that decided ({@link Decision#policyName()}, {@value #DEFAULT_POLICY} if it names none). The service fills
     * the decision with the limit that denied, or, for an admitted request, the applicable limit with the fewest
     * permits left, so the one item is the one a client must watch. Null when no limit applied.
     */
    public static String rateLimitValueOf(Decision decision) {
        if (unlimited(decision)) {
            return null;
        }
        String name = nameOf(decision);
        if (plain(name)) {
            // One concatenation: the usual name needs no escape, so the value is the only String built.
            return "\"" + name + "\";r=" + cap(decision.remaining()) + ";t=" + cap(limitSeconds(decision));
        }
        return serviceLimitItem(quotedName(decision, name), decision);
    }

    /** The decision's policy name quoted: the deciding limit's precomputed text if it is among those applied. */
    private static String quotedName(Decision decision, String name) {
        for (int i = 0; i < decision.appliedCount(); i++) {
            Policy p = decision.applied(i);
            if (p.name().equals(name)) {
                return p.quotedName();
            }
        }
        return StructuredFields.quote(name);
    }

    /**
     * Writes the fields for {@code decision} from the decision alone, with no knowledge of rules: {@code
     * RateLimit-Policy} (every limit that applied; left out if the decision names none), {@code RateLimit}, then
     * {@code Retry-After} if the request was denied; nothing if no limit applied. For decisions filled by
     * {@link dev.sluice.RateLimiterService}, which names every limit it applied.
     */
    public static void writeDecision(Decision decision, BiConsumer<String, String> out) {
        String rateLimit = rateLimitValueOf(decision);
        if (rateLimit == null) {
            return;
        }
        String policies = policyValueOf(decision);
        if (policies != null) {
            out.accept(RATELIMIT_POLICY, policies);
        }
        out.accept(RATELIMIT, rateLimit);
        String retryAfter = retryAfterValue(decision);
        if (retryAfter != null) {
            out.accept(RETRY_AFTER, retryAfter);
        }
    }

    /** The fields of {@link #writeDecision}, in the same order, as an unmodifiable map. */
    public static Map<String, String> headersOf(Decision decision) {
        Map<String, String> m = new LinkedHashMap<>();
        writeDecision(decision, m::put);
        return Collections.unmodifiableMap(m);
    }

    private static String nameOf(Decision decision) {
        return decision.policyName() == null ? DEFAULT_POLICY : decision.policyName();
    }

    /**
     * The {@code Retry-After} field value (delay-seconds) for a denied decision; null for an admitted one and for
     * one that can never be admitted.
     */
    public static String retryAfterValue(Decision decision) {
        if (decision.allowed() || decision.retryAfterNanos() == Decision.NEVER) {
            return null;
        }
        return Long.toString(cap(retryAfterSeconds(decision)));
    }

    /** {@link #OK} for an admitted decision, {@link #TOO_MANY_REQUESTS} for a denied one. */
    public static int status(Decision decision) {
        return decision.allowed() ? OK : TOO_MANY_REQUESTS;
    }

    /**
     * Writes the fields for {@code decision} to {@code out} as (name, value): {@code RateLimit-Policy},
     * {@code RateLimit}, then {@code Retry-After} if the request was denied; nothing if no limit applied.
     */
    public void write(Decision decision, BiConsumer<String, String> out) {
        String rateLimit = rateLimitValue(decision);
        if (rateLimit == null) {
            return;
        }
        out.accept(RATELIMIT_POLICY, policy);
        out.accept(RATELIMIT, rateLimit);
        String retryAfter = retryAfterValue(decision);
        if (retryAfter != null) {
            out.accept(RETRY_AFTER, retryAfter);
        }
    }

    /** The fields of {@link #write}, in the same order, as an unmodifiable map. */
    public Map<String, String> headers(Decision decision) {
        Map<String, String> m = new LinkedHashMap<>();
        write(decision, m::put);
        return Collections.unmodifiableMap(m);
    }

    /** {@code nanos} in whole seconds, rounded up; 0 for 0 or less. */
    public static long ceilSeconds(long nanos) {
        return StructuredFields.ceilSeconds(nanos);
    }

    private static long retryAfterSeconds(Decision decision) {
        return Math.max(1, ceilSeconds(decision.retryAfterNanos()));
    }

    private static boolean unlimited(Decision decision) {
        return decision.limit() == Long.MAX_VALUE;
    }

    private int deciding(Decision decision) {
        for (int i = 0; i < limits.length; i++) {
            if (limits[i].equals(decision.config())) {
                return i;
            }
        }
        for (int i = 0; i < limits.length; i++) {
            if (limits[i].burst() == decision.limit()) {
                return i;
            }
        }
        return 0;
    }

    private static long cap(long value) {
        return StructuredFields.cap(value);
    }

    private static String checkName(String name) {
        Objects.requireNonNull(name, "policy name must not be null");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("policy name must not be empty");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                throw new IllegalArgumentException("policy name must be printable ASCII (a Structured Field String),"
                        + " was '" + name + "' with U+" + String.format("%04X", (int) c) + " at index " + i);
            }
        }
        return name;
    }

    /** Whether {@code name} quotes to itself between the quotes (no {@code "} or {@code \} in it). */
    private static boolean plain(String name) {
        return name.indexOf('"') < 0 && name.indexOf('\\') < 0;
    }
}
