package dev.sluice.redis;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real redis-server for the tests, on a free loopback port: the Linux x86-64 binary that the embedded-redis
 * artifact ships (extracted from the class path), or {@code redis-server} from the PATH elsewhere. No persistence.
 * {@link #stop()} and {@link #start()} again keep the port, as a restarted server would.
 */
final class RedisServer implements AutoCloseable {

    private static final String SHIPPED = "redis-server-6.2.6-v5-linux-amd64";

    private final int port;
    private final Path dir;
    private final String binary;
    private final List<String> extra;
    private Process process;

    private RedisServer(String binary, List<String> extra) throws IOException {
        this.port = freePort();
        this.dir = Files.createTempDirectory("sluice-redis");
        this.binary = binary != null ? binary : binary(dir);
        this.extra = extra;
    }

    /** A started server. */
    static RedisServer startNew() {
        return startNew(null);
    }

    /** A started server of the given binary (null: the shipped one), with {@code extra} command-line options. */
    static RedisServer startNew(String binary, String... extra) {
        try {
            RedisServer server = new RedisServer(binary, List.of(extra));
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int port() {
        return port;
    }

    String uri() {
        return "redis://127.0.0.1:" + port;
    }

    void start() {
        try {
            List<String> args = new java.util.ArrayList<>(List.of(binary, "--port", Integer.toString(port),
                    "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString(),
                    "--logfile", ""));
            args.addAll(extra);
            process = new ProcessBuilder(args)
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("redis.log").toFile())
                    .start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!"+PONG".equals(command("PING"))) {
                if (System.nanoTime() > deadline || !process.isAlive()) {
                    throw new IllegalStateException("redis-server did not start: " + Files.readString(dir.resolve("redis.log")));
                }
                pause();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waiting for a process to come up; no rate-limit logic depends on it. */
    private static void pause() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for redis-server", e);
        }
    }

    /** Kills the server (SIGKILL): no goodbye to the clients, as a crash. */
    void stop() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
    }

    /** One inline command over a fresh socket; the first reply line, or null if the server is not there. */
    String command(String inline) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write((inline + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            return in.readLine();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public void close() {
        stop();
        for (File f : dir.toFile().listFiles()) {
            f.delete();
        }
        dir.toFile().delete();
    }

    private static String binary(Path dir) throws IOException {
        String os = System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT);
        String arch = System.getProperty("os.arch");
        if (os.contains("linux") && (arch.equals("amd64") || arch.equals("x86_64"))) {
            try (InputStream in = RedisServer.class.getClassLoader().getResourceAsStream(SHIPPED)) {
                if (in != null) {
                    Path exe = dir.resolve("redis-server");
                    Files.copy(in, exe, StandardCopyOption.REPLACE_EXISTING);
                    if (exe.toFile().setExecutable(true)) {
                        return exe.toString();
                    }
                }
            }
        }
        return "redis-server";
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
