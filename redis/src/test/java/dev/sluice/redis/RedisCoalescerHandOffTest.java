package dev.sluice.redis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The hand-off of a key's sending between requests, without Redis: the sender answers each call at once, later on
 * another thread, or with a failure, at random, while threads submit on a few keys. Every request is sent exactly
 * once, gets its own part of its call's reply (or the call's failure), and every future completes; afterwards no key
 * is left in the coalescer.
 */
class RedisCoalescerHandOffTest {

    private static final int THREADS = 6;
    private static final int PER_THREAD = 5_000;
    private static final RuntimeException DOWN = new IllegalStateException("redis down");

    /** Queues of 2 and 8 places are one array; 64 and 4096 grow in chunks. */
    @ParameterizedTest
    @ValueSource(ints = {2, 8, 64, 4096, 8, 64})
    void noRequestIsStrandedUnderRacingArrivalsAndCompletions(int maxBatch) throws Exception {
        ExecutorService answers = Executors.newFixedThreadPool(2);
        ConcurrentHashMap<Long, Boolean> sent = new ConcurrentHashMap<>();
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger alone = new AtomicInteger();
        AtomicInteger twice = new AtomicInteger();
        Coalescer coalescer = new Coalescer(maxBatch, 1, (key, batch, size) -> {
            calls.incrementAndGet();
            long[] reply = new long[size];
            for (int i = 0; i < size; i++) {
                if (sent.putIfAbsent(batch[i].permits, Boolean.TRUE) != null) {
                    twice.incrementAndGet();
                }
                reply[i] = batch[i].permits;
            }
            switch ((int) (batch[0].permits % 3)) {
                case 0:
                    return CompletableFuture.completedFuture(reply);
                case 1:
                    return CompletableFuture.supplyAsync(() -> reply, answers);
                default:
                    return CompletableFuture.supplyAsync(() -> {
                        throw DOWN;
                    }, answers);
            }
        });
        AtomicLong ids = new AtomicLong(1);
        List<List<Coalescer.Request>> submitted = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            List<Coalescer.Request> mine = new ArrayList<>();
            submitted.add(mine);
            SplittableRandom random = new SplittableRandom(t);
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < PER_THREAD; i++) {
                    Coalescer.Request r = new Coalescer.Request(ids.getAndIncrement(), 0);
                    if (coalescer.submit("k" + random.nextInt(3), r)) {
                        mine.add(r);
                    } else {
                        alone.incrementAndGet();
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        int requests = 0;
        for (List<Coalescer.Request> mine : submitted) {
            for (Coalescer.Request r : mine) {
                requests++;
                try {
                    assertArrayEquals(new long[] {r.permits}, r.reply.get(10, TimeUnit.SECONDS), "its own reply");
                } catch (java.util.concurrent.ExecutionException e) {
                    assertEquals(DOWN, e.getCause(), "the call's failure");
                }
            }
        }
        answers.shutdown();
        assertTrue(answers.awaitTermination(10, TimeUnit.SECONDS));
        assertEquals(THREADS * PER_THREAD, requests + alone.get());
        assertEquals(0, twice.get(), "no request sent twice");
        assertEquals(requests, sent.size(), "every queued request sent");
        assertTrue(calls.get() < requests, "some calls carried several requests: " + calls + " for " + requests);
        assertEquals(0, coalescer.keys(), "keys with nothing in flight leave the coalescer");
    }

    @Test
    void aRequestWhoseCallerGaveUpBeforeTheSendIsNotSent() {
        List<CompletableFuture<long[]>> inFlight = new ArrayList<>();
        List<Long> sent = new ArrayList<>();
        Coalescer coalescer = new Coalescer(4, 1, (key, batch, size) -> {
            long[] reply = new long[size];
            for (int i = 0; i < size; i++) {
                sent.add(batch[i].permits);
                reply[i] = batch[i].permits;
            }
            CompletableFuture<long[]> call = new CompletableFuture<>();
            inFlight.add(call);
            return call.thenApply(ignored -> reply);
        });
        Coalescer.Request first = new Coalescer.Request(1, 0);
        Coalescer.Request gaveUp = new Coalescer.Request(2, 0);
        Coalescer.Request third = new Coalescer.Request(3, 0);
        assertTrue(coalescer.submit("k", first));
        assertTrue(coalescer.submit("k", gaveUp));
        assertTrue(coalescer.submit("k", third));
        assertEquals(List.of(1L), sent, "one call in flight; the others wait");
        gaveUp.reply.cancel(false);
        inFlight.get(0).complete(null);
        assertEquals(List.of(1L, 3L), sent, "the next call carries only the request still waited for");
        assertFalse(third.reply.isDone());
        inFlight.get(1).complete(null);
        assertArrayEquals(new long[] {3}, third.reply.join());
        assertEquals(0, coalescer.keys());
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 16})
    void aFullQueueSendsTheRequestAlone(int places) {
        List<CompletableFuture<long[]>> inFlight = new ArrayList<>();
        Coalescer coalescer = new Coalescer(places, 1, (key, batch, size) -> {
            CompletableFuture<long[]> call = new CompletableFuture<>();
            inFlight.add(call);
            return call;
        });
        assertTrue(coalescer.submit("k", new Coalescer.Request(0, 0)), "sent at once");
        for (int i = 1; i <= places; i++) {
            assertTrue(coalescer.submit("k", new Coalescer.Request(i, 0)), "place " + i);
        }
        assertFalse(coalescer.submit("k", new Coalescer.Request(places + 1, 0)), "every place taken: sent alone");
        assertEquals(1, inFlight.size());
        assertTrue(coalescer.submit("other", new Coalescer.Request(places + 2, 0)), "another key has its own queue");
    }
}
