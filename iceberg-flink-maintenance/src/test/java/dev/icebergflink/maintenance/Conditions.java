package dev.icebergflink.maintenance;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a deadline, so that tests stay green on a loaded machine. */
final class Conditions {

    private Conditions() {}

    /** Waits until {@code condition} holds; fails naming {@code what} after {@code timeout}. */
    static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Timed out after " + timeout + " waiting for " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    /**
     * Cancels a job that may also have finished on its own meanwhile (a bounded writer ends the
     * maintenance after its commits with it), and waits until none of its tasks runs.
     */
    static void stop(org.apache.flink.core.execution.JobClient job) throws Exception {
        dev.icebergflink.testing.Jobs.cancelAndWait(job);
    }
}
