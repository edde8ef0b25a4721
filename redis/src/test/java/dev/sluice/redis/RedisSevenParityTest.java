package dev.sluice.redis;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.RateLimitConfig;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The parity traces again, against the distribution's {@code /usr/bin/redis-server} (Debian ships Redis 7) when it
 * is installed; skipped, saying so, when it is not. The server's version is printed.
 */
class RedisSevenParityTest {

    private static final Path DISTRIBUTION = Path.of("/usr/bin/redis-server");

    private static RedisServer server;
    private static RedisClient client;
    private static StatefulRedisConnection<String, String> connection;

    @BeforeAll
    static void startRedis() {
        assumeTrue(Files.isExecutable(DISTRIBUTION),
                DISTRIBUTION + " is not installed (apt-get install redis-server): the parity tests on it are skipped");
        server = RedisServer.startNew(DISTRIBUTION.toString());
        client = RedisClient.create(server.uri());
        connection = client.connect();
        String version = connection.sync().info("server").lines()
                .filter(l -> l.startsWith("redis_version:")).findFirst().orElse("redis_version:unknown");
        System.out.println("RedisSevenParityTest: " + DISTRIBUTION + " " + version.trim());
    }

    @AfterAll
    static void stopRedis() {
        if (server == null) {
            return;
        }
        connection.close();
        client.shutdown();
        server.close();
    }

    static Stream<RateLimitConfig> configs() {
        return RedisParityTest.configs();
    }

    @ParameterizedTest
    @MethodSource("configs")
    void makesTheSameDecisionsAsTheLocalEngine(RateLimitConfig config) {
        RedisParityTest.replay(config, connection);
    }
}
