package dev.sluice.redis;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;

/**
 * The slot migration tests again, on a cluster of the distribution's {@code /usr/bin/redis-server} (Debian ships
 * Redis 7) when it is installed; skipped, saying so, when it is not. The servers' version is printed.
 */
class RedisSevenSlotMigrationTest extends RedisSlotMigrationTest {

    private static final Path DISTRIBUTION = Path.of("/usr/bin/redis-server");

    @BeforeAll
    static void start() {
        assumeTrue(Files.isExecutable(DISTRIBUTION),
                DISTRIBUTION + " is not installed (apt-get install redis-server): the migration tests on it are skipped");
        cluster = RedisTestCluster.start(3, DISTRIBUTION.toString());
        System.out.println("RedisSevenSlotMigrationTest: " + DISTRIBUTION + " major version " + cluster.majorVersion());
    }
}
