package dev.sluice.redis;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.varhandle.MpscChunkedVarHandleArrayQueue;
import org.jctools.queues.varhandle.MpscVarHandleArrayQueue;

/**
 * Requests for one key that arrive while a script call for that key is in flight wait in a bounded lock-free queue;
 * when the call completes, the next call takes up to {@code maxBatch} of them, in queue order, and one script run
 * decides them all. At most one call per key is in flight from one coalescer (except briefly while a key goes
 * cold and warms up again: then two may overlap, which only costs a round trip, since Redis decides each call
 * atomically either way).
 *
 * <p>Hand-off: a request first enters its key's queue, then tries to become the key's sender. The sender drains and
 * sends; when its call completes it sends again if the queue is not empty, else it stops being the sender and looks
 * at the queue once more. A request that entered the queue while the sender was stopping therefore either sees the
 * sender gone (and takes over) or is seen by it: none is stranded. A key with no sender and an empty queue leaves
 * the map, so cold keys leave nothing behind.
 */
final class Coalescer {

    /** Sends one script call for {@code batch[0..size)} of one key; the reply is each request's reply in turn. */
    interface Sender {
        CompletableFuture<long[]> send(String key, Request[] batch, int size);
    }

    /** One request waiting for its part of a reply. */
    static final class Request {
        final long permits;
        final long nowNanos;
        /** Its own reply slice, or the batch's failure; completed by whoever comes first (the caller's timeout). */
        final CompletableFuture<long[]> reply = new CompletableFuture<>();

        Request(long permits, long nowNanos) {
            this.permits = permits;
            this.nowNanos = nowNanos;
        }
    }

    private final int maxBatch;
    private final int stride;
    private final Sender sender;
    private final ConcurrentHashMap<String, KeyQueue> queues = new ConcurrentHashMap<>();

    /** {@code stride}: the length of one request's reply. */
    Coalescer(int maxBatch, int stride, Sender sender) {
        this.maxBatch = maxBatch;
        this.stride = stride;
        this.sender = sender;
    }

    /**
     * Queues the request for {@code key} and sends its key's next call if none is in flight. False if the key's
     * queue is full: then the caller sends the request alone.
     */
    boolean submit(String key, Request request) {
        KeyQueue q = queues.computeIfAbsent(key, k -> new KeyQueue(maxBatch));
        if (!q.waiting.offer(request)) {
            return false;
        }
        pump(key, q);
        return true;
    }

    /** Keys with a call in flight or requests waiting. */
    int keys() {
        return queues.size();
    }

    /** Becomes the key's sender if there is none, and sends while requests wait. */
    private void pump(String key, KeyQueue q) {
        // CAS and the queue's volatile indices are totally ordered: see the class comment for why this is enough.
        while (q.sending.compareAndSet(false, true)) {
            // Sized by what waits now (at least 1): a cold key's lone request does not pay for maxBatch places.
            Request[] batch = new Request[Math.max(1, Math.min(maxBatch, q.waiting.size()))];
            int size = 0;
            Request r;
            while (size < batch.length && (r = q.waiting.poll()) != null) {
                if (!r.reply.isDone()) { // a caller that gave up before the send is not counted in Redis
                    batch[size++] = r;
                }
            }
            if (size == 0) {
                q.sending.set(false);
                if (q.waiting.isEmpty()) {
                    queues.remove(key, q);
                    // An offer between the remove and here went to this detached queue: take it over if it did.
                    if (q.waiting.isEmpty()) {
                        return;
                    }
                }
                continue;
            }
            CompletableFuture<long[]> call = sender.send(key, batch, size);
            int n = size;
            if (call.isDone()) {
                q.sending.set(false); // answered at once (a refused command): loop here instead of recursing
                deliver(call, batch, n);
                continue;
            }
            call.whenComplete((reply, error) -> {
                q.sending.set(false);
                pump(key, q);
                deliver(call, batch, n);
            });
            return;
        }
    }

    private void deliver(CompletableFuture<long[]> call, Request[] batch, int size) {
        long[] reply;
        try {
            reply = call.join();
        } catch (RuntimeException e) {
            for (int i = 0; i < size; i++) {
                batch[i].reply.completeExceptionally(e);
            }
            return;
        }
        for (int i = 0; i < size; i++) {
            batch[i].reply.complete(Arrays.copyOfRange(reply, i * stride, (i + 1) * stride));
        }
    }

    private static final class KeyQueue {
        /** Smallest chunk of a growing queue: a cold key's queue stays this small. */
        private static final int FIRST_CHUNK = 4;

        final MessagePassingQueue<Request> waiting;
        // Atomic: exactly one sender per key at a time, handed over by CAS.
        final AtomicBoolean sending = new AtomicBoolean();

        /** Bounded at {@code capacity} (rounded up to a power of two); a large one grows in chunks as it fills. */
        KeyQueue(int capacity) {
            this.waiting = capacity > 2 * FIRST_CHUNK
                    ? new MpscChunkedVarHandleArrayQueue<>(FIRST_CHUNK, capacity)
                    : new MpscVarHandleArrayQueue<>(capacity);
        }
    }
}
