package dev.sluice.servlet;

import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;

/** A real servlet container on a loopback ephemeral port: {@code filters} in order, then {@code app} at /*. */
interface EmbeddedServer {

    /** Starts the container and answers its port. */
    int start(HttpServlet app, Filter... filters) throws Exception;

    void stop() throws Exception;
}
