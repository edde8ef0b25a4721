package dev.sluice.redis;

import dev.sluice.RateLimitConfig;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The parity traces again, against the distribution's {@code /usr/bin/redis-server} (Debian ships Redis 7) when it
 * is installed; skipped, saying so, when it is not. The server's version is printed.
 */
class RedisSevenParityTest {

    private static final Path DISTRIBUTION = Path.of("/usr/bin/redis-server");

    @RegisterExtension
    static final SingleRedis server = new SingleRedis(DISTRIBUTION);

    @BeforeAll
    static void printVersion() {
        String version = server.connection().sync().info("server").lines()
                .filter(l -> l.startsWith("redis_version:")).findFirst().orElse("redis_version:unknown");
        System.out.println("RedisSevenParityTest: " + DISTRIBUTION + " " + version.trim());
    }

    static Stream<RateLimitConfig> configs() {
        return RedisParityTest.configs();
    }

    @ParameterizedTest
    @MethodSource("configs")
    void makesTheSameDecisionsAsTheLocalEngine(RateLimitConfig config) {
        RedisParityTest.replay(config, server.connection());
    }
}
