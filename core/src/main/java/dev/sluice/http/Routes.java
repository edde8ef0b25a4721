package dev.sluice.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Keys a request by its route: the id of the first route template its {@link PathNormalizer normalized} path
 * matches, else a fixed id for every other path ({@link Builder#otherwise}), else the normalized path itself,
 * never the raw path.
 *
 * <p>Templates: segments separated by {@code /}; {@code {name}} matches any one segment, and a last segment
 * {@code **} matches any rest of the path, including none. Templates are tried in the order given, so put the
 * specific ones first. A route id may not start with {@code /}, so no id can equal a normalized path.
 *
 * <p>{@link #match} works on the characters of the request target and a per-thread buffer: no String and no
 * allocation per request (the buffer grows only for a longer path than any seen before on that thread).
 * Immutable and thread-safe.
 */
public final class Routes {

    private static final byte[] ANY = new byte[0];
    private static final byte[] REST = new byte[0];

    private final String[] ids;
    private final byte[][][] templates;
    private final String otherwise;
    private final boolean foldCase;
    private final ThreadLocal<byte[]> scratch = ThreadLocal.withInitial(() -> new byte[PathNormalizer.maxLength(256)]);

    private Routes(Builder b) {
        this.ids = b.ids.toArray(new String[0]);
        this.templates = b.templates.toArray(new byte[0][][]);
        this.otherwise = b.otherwise;
        this.foldCase = b.foldCase;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** No templates: every request is keyed by its normalized path, case-sensitive. */
    public static Routes normalizedPaths() {
        return builder().build();
    }

    /** The route key of {@code request}. */
    public String resolve(HttpRequestView request) {
        return resolve(request.rawPath());
    }

    /** The route id of {@code rawPath}, else the {@code otherwise} id, else its normalized path. */
    public String resolve(CharSequence rawPath) {
        String id = match(rawPath, 0, rawPath.length());
        return id != null ? id : PathNormalizer.normalize(rawPath, foldCase);
    }

    /**
     * The id of the first route {@code raw[from, to)} matches, else the {@code otherwise} id, else null. Allocates
     * nothing once this thread's buffer fits the path.
     */
    public String match(CharSequence raw, int from, int to) {
        byte[] out = scratch.get();
        int max = PathNormalizer.maxLength(to - from);
        if (out.length < max) {
            out = new byte[max];
            scratch.set(out);
        }
        int n = PathNormalizer.normalize(raw, from, to, foldCase, out);
        for (int r = 0; r < templates.length; r++) {
            if (matches(templates[r], out, n)) {
                return ids[r];
            }
        }
        return otherwise;
    }

    private static boolean matches(byte[][] template, byte[] path, int n) {
        int p = 1;
        for (byte[] seg : template) {
            if (seg == REST) {
                return true;
            }
            if (p >= n) {
                return false;
            }
            int end = p;
            while (end < n && path[end] != '/') {
                end++;
            }
            if (seg != ANY && !regionEquals(seg, path, p, end)) {
                return false;
            }
            p = end + 1;
        }
        return p >= n;
    }

    private static boolean regionEquals(byte[] seg, byte[] path, int from, int to) {
        if (seg.length != to - from) {
            return false;
        }
        for (int i = 0; i < seg.length; i++) {
            if (seg[i] != path[from + i]) {
                return false;
            }
        }
        return true;
    }

    public static final class Builder {
        private final List<String> ids = new ArrayList<>();
        private final List<byte[][]> templates = new ArrayList<>();
        private final List<String> rawTemplates = new ArrayList<>();
        private String otherwise;
        private boolean foldCase;

        private Builder() {
        }

        /** A route {@code id} for paths matching {@code template}, such as {@code /users/{id}/orders/**}. */
        public Builder route(String id, String template) {
            checkId(id, "route id");
            Objects.requireNonNull(template, "template must not be null");
            if (!template.startsWith("/")) {
                throw new IllegalArgumentException("template of route '" + id + "' must start with '/', was '"
                        + template + "'");
            }
            ids.add(id);
            rawTemplates.add(template);
            return this;
        }

        /** One id for every path no route matches (for example {@code "other"}), instead of the normalized path. */
        public Builder otherwise(String id) {
            this.otherwise = checkId(id, "otherwise id");
            return this;
        }

        /** Matches and keys paths with ASCII letters folded to lower case; off by default (see {@link PathNormalizer}). */
        public Builder foldCase(boolean fold) {
            this.foldCase = fold;
            return this;
        }

        public Routes build() {
            templates.clear();
            for (int i = 0; i < rawTemplates.size(); i++) {
                templates.add(compile(ids.get(i), rawTemplates.get(i)));
            }
            return new Routes(this);
        }

        private byte[][] compile(String id, String template) {
            String[] parts = template.substring(1).split("/", -1);
            List<byte[]> segs = new ArrayList<>();
            for (int i = 0; i < parts.length; i++) {
                String part = parts[i];
                if (part.isEmpty()) {
                    continue;
                }
                if (part.equals("**")) {
                    if (i != parts.length - 1) {
                        throw new IllegalArgumentException("template of route '" + id
                                + "' may have '**' only as its last segment, was '" + template + "'");
                    }
                    segs.add(REST);
                } else if (part.startsWith("{") && part.endsWith("}")) {
                    segs.add(ANY);
                } else {
                    String norm = PathNormalizer.normalize("/" + part, foldCase);
                    if (norm.length() < 2 || norm.indexOf('/', 1) >= 0) {
                        throw new IllegalArgumentException("template of route '" + id + "' has segment '" + part
                                + "', which is not a plain path segment");
                    }
                    segs.add(norm.substring(1).getBytes(StandardCharsets.US_ASCII));
                }
            }
            return segs.toArray(new byte[0][]);
        }

        private static String checkId(String id, String what) {
            Objects.requireNonNull(id, what + " must not be null");
            if (id.isEmpty() || id.startsWith("/")) {
                throw new IllegalArgumentException(what + " must be non-empty and must not start with '/', was '"
                        + id + "'");
            }
            return id;
        }
    }
}
