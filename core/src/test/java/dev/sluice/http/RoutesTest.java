package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RoutesTest {

    private final Routes routes = Routes.builder()
            .route("pay", "/pay")
            .route("order", "/users/{id}/orders")
            .route("static", "/static/**")
            .build();

    @Test
    void everySpellingOfAPathFindsItsRoute() {
        for (String p : new String[] {"/pay", "/pay/", "/pay/../pay", "//pay", "/p%61y", "/x/../pay", "/pay?a=b",
                "/./pay", "/%70ay", "/pay;jsessionid=1"}) {
            assertEquals("pay", routes.resolve(p), p);
        }
    }

    @Test
    void upperCasePathIsAnotherPathUnlessFolded() {
        assertEquals("/PAY", routes.resolve("/PAY"));
        Routes folded = Routes.builder().route("pay", "/pay").foldCase(true).build();
        assertEquals("pay", folded.resolve("/PAY"));
        assertEquals("pay", folded.resolve("/Pay/"));
    }

    @Test
    void templatesMatchOneSegmentOrTheRest() {
        assertEquals("order", routes.resolve("/users/42/orders"));
        assertEquals("order", routes.resolve("/users/a%2Fb/orders"));
        assertEquals("/users/42/43/orders", routes.resolve("/users/42/43/orders"));
        assertEquals("static", routes.resolve("/static"));
        assertEquals("static", routes.resolve("/static/css/a.css"));
    }

    @Test
    void aPathBuiltToCollideKeepsItsOwnKey() {
        // An encoded slash is one segment: "/pay%2F.." is not "/pay/.." and so not "/", nor the pay route.
        assertEquals("/pay%2F..", routes.resolve("/pay%2F.."));
        assertEquals("/users%2F1%2Forders", routes.resolve("/users%2F1%2Forders"));
        // A path can never be keyed like a route id: ids do not start with '/'.
        assertTrue(routes.resolve("/order").startsWith("/"));
        assertEquals("/payx", routes.resolve("/payx"));
    }

    @Test
    void unmatchedPathsShareTheOtherwiseIdWhenGiven() {
        Routes r = Routes.builder().route("pay", "/pay").otherwise("other").build();
        assertEquals("other", r.resolve("/anything/else"));
        assertEquals("pay", r.match("/pay/", 0, 5));
        assertNull(routes.match("/none", 0, 5));
    }

    @Test
    void matchReadsARangeOfTheRequestTarget() {
        String target = "GET /p%61y/ HTTP/1.1";
        assertEquals("pay", routes.match(target, 4, 11));
    }

    @Test
    void badRoutesFailAtConfiguration() {
        assertThrows(IllegalArgumentException.class, () -> Routes.builder().route("/pay", "/pay"));
        assertThrows(IllegalArgumentException.class, () -> Routes.builder().route("pay", "pay"));
        assertThrows(IllegalArgumentException.class, () -> Routes.builder().route("x", "/a/**/b").build());
        assertThrows(IllegalArgumentException.class, () -> Routes.builder().otherwise(""));
    }
}
