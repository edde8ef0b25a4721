package dev.sluice.servlet.bench;

import dev.sluice.Algorithm;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiterService;
import dev.sluice.http.ClientAddressResolver;
import dev.sluice.http.KeyResolver;
import dev.sluice.http.Routes;
import dev.sluice.servlet.SluiceFilter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import org.eclipse.jetty.ee11.servlet.FilterHolder;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Embedded Jetty on loopback answering {@code ok}, with or without {@link SluiceFilter} (a limit never reached):
 * {@code bench/http-overhead.sh} drives it with wrk. Arguments: {@code with|without} and a file for the bound port.
 */
public final class OverheadServer {

    private static final byte[] OK = "ok".getBytes(StandardCharsets.US_ASCII);
    private static final int RESERVED_THREADS = Integer.getInteger("bench.reservedThreads", 0);

    private OverheadServer() {
    }

    public static void main(String[] args) throws Exception {
        RateLimiterService service = RateLimiterService.builder()
                .defaultConfig(RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 1_000_000_000L, Duration.ofSeconds(1)))
                .build();
        service.configureApi("hello", RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 1_000_000_000L,
                Duration.ofSeconds(1)));
        QueuedThreadPool threads = new QueuedThreadPool();
        // No reserved threads: Jetty's adaptive strategy otherwise switches between running a request on the
        // selector's thread and handing it to another, which on one core moves a round's result by a third.
        threads.setReservedThreads(RESERVED_THREADS);
        Server server = new Server(threads);
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        if ("with".equals(args[0])) {
            context.addFilter(new FilterHolder(new SluiceFilter(service,
                    KeyResolver.principal(KeyResolver.clientAddress(ClientAddressResolver.peer())),
                    Routes.builder().route("hello", "/hello").otherwise("other").build())), "/*",
                    EnumSet.of(DispatcherType.REQUEST));
        }
        context.addServlet(new ServletHolder(new HttpServlet() {
            private static final long serialVersionUID = 1L;

            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.setContentLength(OK.length);
                resp.getOutputStream().write(OK);
            }
        }), "/*");
        server.setHandler(context);
        server.start();
        Files.writeString(Path.of(args[1]), Integer.toString(connector.getLocalPort()));
        server.join();
    }
}
