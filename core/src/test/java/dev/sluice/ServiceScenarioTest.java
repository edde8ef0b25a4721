package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The scenario of the core issue, decision by decision, through {@link RateLimiterService} on a ManualClock. */
class ServiceScenarioTest {

    private static String run(RateLimiterService service, String user, String api, int times) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < times; i++) {
            sb.append(service.allow(user, api) ? 'Y' : 'N');
        }
        return sb.toString();
    }

    @Test
    void decidesTheIssueScenarioExactly() {
        ManualClock clock = new ManualClock();
        try (RateLimiterService service = RateLimiterService.builder().clock(clock)
                .defaultConfig(new RateLimitConfig(Algorithm.FIXED_WINDOW, 3, 1000)).build()) {
            service.configureApi("search", new RateLimitConfig(Algorithm.TOKEN_BUCKET, 5, 1000));
            service.configureUser("premium", new RateLimitConfig(Algorithm.SLIDING_WINDOW_LOG, 4, 1000));
            service.configureUserApi("premium", "pay", new RateLimitConfig(Algorithm.TOKEN_BUCKET, 2, 1000));

            assertEquals("YYYNN", run(service, "alice", "home", 5));
            assertEquals("YYYN", run(service, "bob", "home", 4));
            assertEquals("YYYYYNN", run(service, "alice", "search", 7));
            clock.advanceMillis(400);
            assertEquals("YYN", run(service, "alice", "search", 3));
            clock.setMillis(10_900);
            assertEquals("YYY", run(service, "carl", "home", 3));
            clock.setMillis(11_050);
            assertEquals("YYY", run(service, "carl", "home", 3));
            clock.setMillis(20_000);
            assertEquals("YYYYN", run(service, "premium", "feed", 5));
            clock.setMillis(20_900);
            assertEquals("N", run(service, "premium", "feed", 1));
            clock.setMillis(21_001);
            assertEquals("YYYYN", run(service, "premium", "feed", 5));
            assertEquals("YYN", run(service, "premium", "pay", 3));
        }
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void admitsExactlyTheLimitFromSixteenThreadsOnOneKey(Algorithm algorithm) throws InterruptedException {
        ManualClock clock = new ManualClock();
        try (RateLimiterService service = RateLimiterService.builder().clock(clock)
                .defaultConfig(RateLimitConfig.of(algorithm, 100, Duration.ofSeconds(60))).build()) {
            AtomicInteger admitted = new AtomicInteger();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            AtomicInteger calls = new AtomicInteger();
            for (int t = 0; t < 16; t++) {
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    while (calls.getAndIncrement() < 1000) {
                        if (service.allow("user", "api")) {
                            admitted.incrementAndGet();
                        }
                    }
                });
                thread.start();
                threads.add(thread);
            }
            start.countDown();
            for (Thread thread : threads) {
                thread.join();
            }
            assertEquals(100, admitted.get());
        }
    }
}
