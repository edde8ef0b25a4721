package dev.sluice.http;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A request made up by a test: a peer, a path, headers, maybe a principal. */
final class TestRequest implements HttpRequestView {
    private final String peer;
    private final String path;
    private String principal;
    private final Map<String, List<String>> headers = new LinkedHashMap<>();

    private TestRequest(String peer, String path) {
        this.peer = peer;
        this.path = path;
    }

    static TestRequest from(String peer) {
        return new TestRequest(peer, "/");
    }

    static TestRequest path(String path) {
        return new TestRequest("192.0.2.1", path);
    }

    TestRequest header(String name, String value) {
        headers.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(value);
        return this;
    }

    TestRequest principal(String name) {
        this.principal = name;
        return this;
    }

    @Override
    public String rawPath() {
        return path;
    }

    @Override
    public String peerAddress() {
        return peer;
    }

    @Override
    public String principal() {
        return principal;
    }

    @Override
    public List<String> headers(String name) {
        return headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
    }
}
