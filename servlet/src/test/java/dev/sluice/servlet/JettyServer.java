package dev.sluice.servlet;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import java.util.EnumSet;
import org.eclipse.jetty.ee11.servlet.FilterHolder;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** Embedded Jetty 12, ee11 (Servlet 6.1). */
final class JettyServer implements EmbeddedServer {
    private Server server;

    @Override
    public int start(HttpServlet app, Filter... filters) throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        for (Filter f : filters) {
            context.addFilter(new FilterHolder(f), "/*", EnumSet.of(DispatcherType.REQUEST));
        }
        context.addServlet(new ServletHolder(app), "/*");
        server.setHandler(context);
        server.start();
        return connector.getLocalPort();
    }

    @Override
    public void stop() throws Exception {
        server.stop();
    }
}
