package dev.sluice.jmh.support;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Algorithm;
import dev.sluice.MemoryBackend;
import org.junit.jupiter.api.Test;

class ImplTest {

    private static boolean referencePresent() {
        try {
            Class.forName("dev.sluice.reference.ReferenceRateLimiter");
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    @Test
    void everyImplementationAdmitsTheFirstRequestAndDeniesTheSecondAtOnePerHour() {
        for (Impl impl : Impl.values()) {
            if (impl == Impl.REFERENCE && !referencePresent()) {
                continue;
            }
            try (Subject subject = impl.create(Regime.DENY.config(Algorithm.TOKEN_BUCKET), 16, MemoryBackend.AUTO)) {
                Caller caller = Caller.standalone();
                assertTrue(subject.tryAcquire(Workload.HOT_KEY, caller), impl + " first long-key request");
                assertFalse(subject.tryAcquire(Workload.HOT_KEY, caller), impl + " second long-key request");
                assertTrue(subject.tryAcquire(Workload.HOT_STRING_KEY, caller), impl + " first string-key request");
                assertFalse(subject.tryAcquire(Workload.HOT_STRING_KEY, caller), impl + " second string-key request");
            }
        }
    }

    @Test
    void admittedRegimeAdmitsABurstOnEveryAlgorithm() {
        for (Algorithm algorithm : Algorithm.values()) {
            try (Subject subject = Impl.SLUICE_CALLER_TIME.create(Regime.ADMIT.config(algorithm), 16,
                    MemoryBackend.AUTO)) {
                Caller caller = Caller.standalone();
                for (int i = 0; i < 1000; i++) {
                    assertTrue(subject.tryAcquire(Workload.HOT_KEY, caller), algorithm + " request " + i);
                }
            }
        }
    }
}
