package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import dev.sluice.demo.Demo;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The seed scenario (default, API, user and user-API rules), decision by decision, through {@link RateLimiterService} on a ManualClock. */
class ServiceScenarioTest {

    @Test
    void decidesTheSeedScenarioExactly() {
        List<String> decisions = new ArrayList<>();
        for (String line : Demo.scenarioLines()) {
            decisions.add(line.replaceAll("^t=\\s*(\\d+) ms\\s+(\\S+)\\s+(\\S+)\\s+x\\d+\\s+", "$1 $2/$3 "));
        }
        assertEquals(List.of("0 alice/home YYYNN", "0 bob/home YYYN", "0 alice/search YYYYYNN", "400 alice/search YYN",
                "10900 carl/home YYY", "11050 carl/home YYY", "20000 premium/feed YYYYN", "20900 premium/feed N",
                "21001 premium/feed YYYYN", "21001 premium/pay YYN"), decisions);
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
