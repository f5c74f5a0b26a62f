package dev.icebergflink.sink.committer;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;

/**
 * The committer's metrics: {@value #COMMIT_DURATION} (gauge, duration of the last commit in ms),
 * {@value #LAST_SUCCESSFUL_COMMIT_AGE} (gauge, ms since the last successful commit, -1 before the
 * first) and {@value #FAILED_COMMITS} (counter of commit attempts that failed).
 *
 * <p>It exists so that the metric names live in one place and the committer only reports events.
 * The names are distinct from Flink's standard committer metrics on the same group ({@code
 * pendingCommittables}, {@code totalCommittables}, {@code successfulCommittables}, {@code
 * failedCommittables}, {@code retriedCommittables}, {@code alreadyCommittedCommittables}), which
 * Flink keeps per committable; these keep per Iceberg commit. Flink 2.1.1's committer operator
 * itself logs "Name collision ... 'pendingCommittables'" at every checkpoint, because it registers
 * that gauge again whenever it copies its committable collector for a snapshot (FLINK-35321, fixed
 * in later Flink releases); the sink registers no such metric.
 */
final class CommitterMetrics {

    static final String COMMIT_DURATION = "commitDurationMs";
    static final String LAST_SUCCESSFUL_COMMIT_AGE = "lastSuccessfulCommitAgeMs";
    static final String FAILED_COMMITS = "failedCommits";

    private final LongSupplier clock;
    private final AtomicLong lastCommitDurationMs = new AtomicLong(-1L);
    private final AtomicLong lastSuccessMs = new AtomicLong(-1L);
    private final Counter failedCommits;

    CommitterMetrics(MetricGroup group, LongSupplier clock) {
        this.clock = clock;
        if (group == null) {
            this.failedCommits = new SimpleCounter();
        } else {
            this.failedCommits = group.counter(FAILED_COMMITS);
            group.gauge(COMMIT_DURATION, lastCommitDurationMs::get);
            group.gauge(LAST_SUCCESSFUL_COMMIT_AGE, this::lastSuccessfulCommitAgeMs);
        }
    }

    void succeeded(long durationMs) {
        lastCommitDurationMs.set(durationMs);
        lastSuccessMs.set(clock.getAsLong());
    }

    void failed() {
        failedCommits.inc();
    }

    long commitDurationMs() {
        return lastCommitDurationMs.get();
    }

    long lastSuccessfulCommitAgeMs() {
        long last = lastSuccessMs.get();
        return last < 0 ? -1L : clock.getAsLong() - last;
    }

    long failedCommits() {
        return failedCommits.getCount();
    }
}
