package dev.sluice.redis;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link RedisServer}, a client of it and a connection, shared by the tests of a class: started before the
 * first, closed after the last. Registered on a static field with {@code @RegisterExtension}.
 */
final class SingleRedis implements BeforeAllCallback, AfterAllCallback {

    private final Path binary;
    private RedisServer server;
    private RedisClient client;
    private StatefulRedisConnection<String, String> connection;

    /** The tests' redis-server binary. */
    SingleRedis() {
        this(null);
    }

    /** An installed binary (null: the tests' one); the class is skipped, saying so, where it is not installed. */
    SingleRedis(Path binary) {
        this.binary = binary;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (binary != null) {
            assumeTrue(Files.isExecutable(binary),
                    binary + " is not installed (apt-get install redis-server): the tests on it are skipped");
        }
        server = RedisServer.startNew(binary == null ? null : binary.toString());
        client = RedisClient.create(server.uri());
        connection = client.connect();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (connection != null) {
            connection.close();
        }
        if (client != null) {
            client.shutdown();
        }
        if (server != null) {
            server.close();
        }
    }

    RedisClient client() {
        return client;
    }

    StatefulRedisConnection<String, String> connection() {
        return connection;
    }
}
