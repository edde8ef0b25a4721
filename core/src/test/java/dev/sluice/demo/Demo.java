package dev.sluice.demo;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.KeyScope;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiterService;
import dev.sluice.Rule;
import dev.sluice.RuleSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The main job: the seed scenario through {@link RateLimiterService} on a manual clock, decision by decision, then
 * rules that apply together (a user's total, an API's total across users, a pair's own limit); each line says which
 * rule decided and why a request was denied. Then the command that measures throughput for real.
 */
public final class Demo {

    private static final long MILLI = 1_000_000L;

    private Demo() {
    }

    public static void main(String[] args) {
        System.out.println("Sluice scenario (Y = allowed), rules: default FIXED_WINDOW 3/1000 ms, api search TOKEN_BUCKET"
                + " 5/1000 ms, user premium SLIDING_WINDOW_LOG 4/1000 ms, (premium, pay) TOKEN_BUCKET 2/1000 ms");
        scenario(true).forEach(line -> System.out.println("  " + line));
        System.out.println();
        System.out.println("Rules that apply together: default 100/min per (user, api); alice 1,000/hour in total"
                + " (additive, per user);");
        System.out.println("/search 10,000/s from everyone together (additive, per API); alice on /pay 10/min");
        gateway().forEach(line -> System.out.println("  " + line));
        System.out.println();
        System.out.println("Throughput is measured with JMH, side by side, several forks (on a quiet machine):");
        System.out.println("  mvn -B -q -pl jmh -am package -DskipTests && java -jar jmh/target/benchmarks.jar"
                + " 'ServiceBenchmark' -f 3 -prof gc");
        System.out.println("  results and how they were taken: jmh/results/REPORT.md");
    }

    /** The scenario's decisions, one line per step: time, user, api, count and the Y/N string. */
    public static List<String> scenarioLines() {
        return scenario(false);
    }

    private static List<String> scenario(boolean explained) {
        ManualClock clock = new ManualClock();
        List<String> lines = new ArrayList<>();
        try (RateLimiterService service = RateLimiterService.builder().clock(clock)
                .defaultConfig(new RateLimitConfig(Algorithm.FIXED_WINDOW, 3, 1000)).build()) {
            service.configureApi("search", new RateLimitConfig(Algorithm.TOKEN_BUCKET, 5, 1000));
            service.configureUser("premium", new RateLimitConfig(Algorithm.SLIDING_WINDOW_LOG, 4, 1000));
            service.configureUserApi("premium", "pay", new RateLimitConfig(Algorithm.TOKEN_BUCKET, 2, 1000));
            Object[][] steps = {{0, "alice", "home", 5}, {0, "bob", "home", 4}, {0, "alice", "search", 7},
                {400, "alice", "search", 3}, {10_900, "carl", "home", 3}, {11_050, "carl", "home", 3},
                {20_000, "premium", "feed", 5}, {20_900, "premium", "feed", 1}, {21_001, "premium", "feed", 5},
                {21_001, "premium", "pay", 3}};
            for (Object[] step : steps) {
                lines.add(step(service, clock, (Integer) step[0], (String) step[1], (String) step[2],
                        (Integer) step[3], explained));
            }
        }
        return lines;
    }

    /** The rules of a gateway, all applying at once, on a manual clock. */
    public static List<String> gateway() {
        ManualClock clock = new ManualClock();
        List<String> lines = new ArrayList<>();
        RuleSet rules = RuleSet.builder()
                .defaultConfig(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 100, Duration.ofMinutes(1)))
                .addUser("alice", Rule.of(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1_000, Duration.ofHours(1)))
                        .countedPer(KeyScope.USER).additive().named("alice-hourly"))
                .addApi("/search", Rule.of(RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 10_000, Duration.ofSeconds(1)))
                        .countedPer(KeyScope.API).additive().named("search-total"))
                .addUserApi("alice", "/pay", Rule.of(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 10,
                        Duration.ofMinutes(1))).named("alice-pay"))
                .build();
        try (RateLimiterService service = RateLimiterService.builder().clock(clock).rules(rules).build()) {
            lines.add(step(service, clock, 0, "alice", "/pay", 11, true));
            for (int minute = 0; minute < 10; minute++) {
                lines.add(step(service, clock, minute * 60_000, "alice", "/feed", 99, true));
            }
            lines.add(step(service, clock, 600_000, "alice", "/home", 2, true));
            for (int user = 0; user < 100; user++) {
                step(service, clock, 600_000, "user" + user, "/search", 100, false);
            }
            lines.add("t=600000 ms  user0..user99 /search x10000 (100 each): all admitted");
            lines.add(step(service, clock, 600_000, "carol", "/search", 1, true));
            lines.add(step(service, clock, 600_000, "carol", "/home", 1, true));
            lines.add(step(service, clock, 600_001, "carol", "/search", 1, true));
        }
        return lines;
    }

    /**
     * {@code times} requests at {@code atMillis}; the line shows the Y/N string and, if {@code explained}, which
     * limit decided each run of equal outcomes and, for a denial, why.
     */
    private static String step(RateLimiterService service, ManualClock clock, int atMillis, String user, String api,
            int times, boolean explained) {
        clock.setMillis(atMillis);
        Decision d = new Decision();
        StringBuilder yn = new StringBuilder();
        StringBuilder why = new StringBuilder();
        Decision last = new Decision();
        for (int i = 0; i < times; i++) {
            boolean allowed = service.allow(user, api, 1, d);
            yn.append(allowed ? 'Y' : 'N');
            if (i > 0 && (allowed != last.allowed() || !d.policyName().equals(last.policyName()))) {
                explain(why, last);
            }
            last.copyFrom(d);
        }
        explain(why, last);
        String line = String.format("t=%6d ms  %-8s %-7s x%d  %s", atMillis, user, api, times,
                yn.length() > 40 ? yn.substring(0, 20) + "..." + yn.substring(yn.length() - 17) : yn);
        return explained ? line + "   " + why : line;
    }

    /** One run of equal outcomes: the limit that decided and, for a denial, why. */
    private static void explain(StringBuilder why, Decision d) {
        why.append(why.length() == 0 ? "" : "; ").append(d.allowed() ? "Y by " : "N by ").append(d.policyName());
        if (d.allowed()) {
            why.append(" (then ").append(d.remaining()).append(" left)");
        } else {
            why.append(": its ").append(d.limit()).append(" spent, retry in ").append(d.retryAfterNanos() == Decision.NEVER
                    ? "never" : String.format("%.1f ms", d.retryAfterNanos() / (double) MILLI));
        }
    }
}
