package dev.icebergflink.testing;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;

/**
 * Stops test jobs completely. {@link JobClient#cancel()} completes once the cancellation is
 * accepted, while tasks may still be committing into the table's directory; a test that then
 * deletes its temporary directory races them. Waiting for a globally terminal state closes that
 * race.
 */
public final class Jobs {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private Jobs() {}

    /**
     * Cancels {@code job} (which may also have finished or failed on its own meanwhile) and returns
     * once it is globally terminal, so none of its tasks writes anymore.
     */
    public static void cancelAndWait(JobClient job) throws Exception {
        try {
            job.cancel().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!status(job).isGloballyTerminalState()) {
                throw e;
            }
        }
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        JobStatus status;
        while (!(status = status(job)).isGloballyTerminalState()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "Job "
                                + job.getJobID()
                                + " still "
                                + status
                                + " "
                                + TIMEOUT
                                + " after cancel");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    private static JobStatus status(JobClient job) throws Exception {
        return job.getJobStatus().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }
}
