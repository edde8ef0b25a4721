package dev.sluice.servlet;

import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

/** Embedded Tomcat 11 (Servlet 6.1). */
final class TomcatServer implements EmbeddedServer {
    private Tomcat tomcat;
    private Path base;

    @Override
    public int start(HttpServlet app, Filter... filters) throws Exception {
        base = Files.createTempDirectory("sluice-tomcat");
        tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        Connector connector = new Connector();
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        tomcat.setConnector(connector);
        Context context = tomcat.addContext("", base.toString());
        for (int i = 0; i < filters.length; i++) {
            FilterDef def = new FilterDef();
            def.setFilterName("f" + i);
            def.setFilter(filters[i]);
            context.addFilterDef(def);
            FilterMap map = new FilterMap();
            map.setFilterName("f" + i);
            map.addURLPattern("/*");
            context.addFilterMap(map);
        }
        Tomcat.addServlet(context, "app", app);
        context.addServletMapping("/*", "app");
        tomcat.start();
        return connector.getLocalPort();
    }

    @Override
    public void stop() throws Exception {
        tomcat.stop();
        tomcat.destroy();
        try (var files = Files.walk(base)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
