package dev.sluice.scg;

import dev.sluice.Algorithm;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiterService;
import dev.sluice.http.ClientAddressResolver;
import java.time.Duration;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cloud.gateway.filter.ratelimit.KeyResolver;
import org.springframework.context.annotation.Bean;

/** A gateway as a user writes it: the service, the limiter and the key resolver as beans; routes in YAML. */
@SpringBootApplication
public class GatewayTestApplication {

    @Bean
    ManualClock clock() {
        ManualClock clock = new ManualClock();
        clock.setMillis(1_000);
        return clock;
    }

    @Bean(destroyMethod = "close")
    RateLimiterService rateLimiterService(ManualClock clock) {
        RateLimiterService service = RateLimiterService.builder().clock(clock)
                .defaultConfig(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3, Duration.ofSeconds(10))).build();
        service.configureApi("pay", RateLimitConfig.of(Algorithm.FIXED_WINDOW, 2, Duration.ofMinutes(1)));
        return service;
    }

    @Bean
    SluiceGatewayRateLimiter sluiceRateLimiter(RateLimiterService service) {
        return new SluiceGatewayRateLimiter(service);
    }

    @Bean
    KeyResolver sluiceKeyResolver() {
        return SluiceKeyResolvers.principal(SluiceKeyResolvers.clientAddress(ClientAddressResolver.peer()));
    }
}
