package dev.sluice.redis;

import dev.sluice.Algorithm;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * One algorithm's Lua script and its SHA-1 digest, the name Redis gives it for EVALSHA. The digest is computed here
 * so that a limiter can call EVALSHA before (or without) ever loading the script: Redis answers NOSCRIPT until the
 * script is loaded, and the limiter then sends it whole with EVAL, which also caches it.
 */
final class LuaScript {

    private final String body;
    private final String sha;

    private LuaScript(String body) {
        this.body = body;
        this.sha = sha1(body);
    }

    static LuaScript of(Algorithm algorithm) {
        switch (algorithm) {
            case TOKEN_BUCKET:
            case LEAKY_BUCKET:
                return load("token_bucket.lua");
            case FIXED_WINDOW:
                return load("fixed_window.lua");
            case SLIDING_WINDOW_COUNTER:
                return load("sliding_window_counter.lua");
            case SLIDING_WINDOW_LOG:
                return load("sliding_window_log.lua");
            default:
                throw new AssertionError(algorithm);
        }
    }

    /**
     * The script that decides several requests for one key in one run, each as {@code single} alone, in order (see
     * batch.lua).
     */
    static LuaScript batchOf(LuaScript single) {
        return new LuaScript("local function one(ARGV)\n" + single.body + "\nend\n" + read("batch.lua"));
    }

    String body() {
        return body;
    }

    String sha() {
        return sha;
    }

    private static LuaScript load(String name) {
        return new LuaScript(read(name));
    }

    private static String read(String name) {
        try (InputStream in = LuaScript.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha1(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder(40);
            for (byte b : digest) {
                hex.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by every Java platform", e);
        }
    }
}
