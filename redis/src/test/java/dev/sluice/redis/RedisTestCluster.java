package dev.sluice.redis;

import io.lettuce.core.MigrateArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A Redis Cluster of {@code n} masters on loopback, no replicas: each node a {@link RedisServer} with
 * {@code --cluster-enabled yes}, the slots split in equal ranges with CLUSTER ADDSLOTS and the nodes joined with
 * CLUSTER MEET. Also the steps of a manual slot move (CLUSTER SETSLOT IMPORTING / MIGRATING, MIGRATE, SETSLOT NODE).
 */
final class RedisTestCluster implements AutoCloseable {

    static final int SLOTS = 16384;

    private final List<RedisServer> nodes = new ArrayList<>();
    private final List<RedisClient> admins = new ArrayList<>();
    private final List<StatefulRedisConnection<String, String>> links = new ArrayList<>();

    private RedisTestCluster(int masters, String binary) {
        for (int i = 0; i < masters; i++) {
            RedisServer node = RedisServer.startNew(binary, "--cluster-enabled", "yes", "--cluster-config-file",
                    "nodes.conf", "--cluster-node-timeout", "2000");
            nodes.add(node);
            RedisClient admin = RedisClient.create(node.uri());
            admins.add(admin);
            links.add(admin.connect());
        }
        for (int i = 0; i < masters; i++) {
            node(i).clusterAddSlots(IntStream.range(first(i), first(i + 1)).toArray());
            if (i > 0) {
                node(i).clusterMeet("127.0.0.1", nodes.get(0).port());
            }
        }
        for (int i = 0; i < masters; i++) {
            awaitOk(i);
        }
    }

    /** A started cluster of the tests' redis-server binary, every slot served (or an exception after 10 s). */
    static RedisTestCluster start(int masters) {
        return start(masters, null);
    }

    /** A started cluster of {@code binary} (null: the tests' binary). */
    static RedisTestCluster start(int masters, String binary) {
        return new RedisTestCluster(masters, binary);
    }

    int masters() {
        return nodes.size();
    }

    /** The URI of the first node: enough for a RedisClusterClient to discover the others. */
    String seed() {
        return nodes.get(0).uri();
    }

    RedisServer server(int i) {
        return nodes.get(i);
    }

    /** Synchronous commands on node {@code i} alone (no redirects followed). */
    RedisCommands<String, String> node(int i) {
        return links.get(i).sync();
    }

    String id(int i) {
        return node(i).clusterMyId();
    }

    /** The first slot master {@code i} was given: master i serves [first(i), first(i + 1)). */
    int first(int i) {
        return i * SLOTS / nodes.size();
    }

    /** The master that serves {@code slot} as the cluster was started. */
    int masterOf(int slot) {
        int i = 0;
        while (slot >= first(i + 1)) {
            i++;
        }
        return i;
    }

    /** Step 1 of a move: the target accepts ASKING commands for the slot, the source sends ASK for missing keys. */
    void beginMove(int slot, int from, int to) {
        node(to).clusterSetSlotImporting(slot, id(from));
        node(from).clusterSetSlotMigrating(slot, id(to));
    }

    /** The slot's keys still on {@code from}. */
    List<String> keysIn(int slot, int from) {
        return node(from).clusterGetKeysInSlot(slot, 1000);
    }

    /** Step 2: moves {@code keys} (together, atomically) from {@code from} to {@code to} with MIGRATE. */
    void migrate(int from, int to, List<String> keys) {
        node(from).migrate("127.0.0.1", nodes.get(to).port(), 0, 5000, MigrateArgs.Builder.keys(keys));
    }

    /** Step 3: every master is told that {@code to} owns the slot now (the target first, then the source). */
    void endMove(int slot, int from, int to) {
        String target = id(to);
        node(to).clusterSetSlotNode(slot, target);
        node(from).clusterSetSlotNode(slot, target);
        for (int i = 0; i < nodes.size(); i++) {
            if (i != from && i != to) {
                node(i).clusterSetSlotNode(slot, target);
            }
        }
    }

    /** The major version of the servers ({@code redis_version} of the first node). */
    int majorVersion() {
        String version = node(0).info("server").lines().filter(l -> l.startsWith("redis_version:")).findFirst()
                .orElseThrow();
        return Integer.parseInt(version.substring("redis_version:".length(), version.indexOf('.')));
    }

    /** A command's count in INFO commandstats of node {@code i} (0 if never called). */
    long calls(int i, String command) {
        String prefix = "cmdstat_" + command + ":calls=";
        return node(i).info("commandstats").lines().filter(l -> l.startsWith(prefix))
                .mapToLong(l -> Long.parseLong(l.substring(prefix.length(), l.indexOf(',')))).sum();
    }

    /** Gossip takes a moment: polls CLUSTER INFO until every slot is served and every master is known. */
    private void awaitOk(int i) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!node(i).clusterInfo().contains("cluster_state:ok")
                || node(i).clusterNodes().lines().filter(l -> l.contains("master")).count() != nodes.size()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("cluster_state:ok not reached on port " + nodes.get(i).port());
            }
            pause();
        }
    }

    /** Waiting for gossip; no rate-limit logic depends on it. */
    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the cluster", e);
        }
    }

    @Override
    public void close() {
        links.forEach(StatefulRedisConnection::close);
        admins.forEach(RedisClient::shutdown);
        nodes.forEach(RedisServer::close);
    }
}
