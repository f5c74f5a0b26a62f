package dev.icebergflink.source.enumerator;

import dev.icebergflink.source.assigner.SplitAssigner;
import dev.icebergflink.source.planning.PlanningResult;
import dev.icebergflink.source.planning.SnapshotPosition;
import dev.icebergflink.source.planning.UnrecoverablePlanningException;
import dev.icebergflink.source.split.IcebergSourceSplit;
import java.time.Duration;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.util.FlinkRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The enumerator of a streaming read: every {@code monitor-interval} it plans the snapshots after
 * its position on a worker thread, adds the splits and advances the position.
 *
 * <p>Planning pauses while readers fall behind ({@link PlanningThrottle}) and while the paged
 * initial scan of {@code TABLE_SCAN_THEN_INCREMENTAL} is still being handed out. Failed rounds are
 * retried; once more than {@code max-allowed-planning-failures} rounds in a row failed (-1: never),
 * the enumerator fails the job; an {@link UnrecoverablePlanningException} (for example a table that
 * was dropped and re-created) fails it at once and without restarts. A round whose starting
 * position is no longer current (an earlier round finished in between) is dropped and planned
 * again, so no snapshot is planned twice.
 */
@Internal
public final class ContinuousIcebergEnumerator extends AbstractIcebergEnumerator {

    private static final Logger LOG = LoggerFactory.getLogger(ContinuousIcebergEnumerator.class);

    /** Plans one round from a position ({@code null}: the first round). */
    @FunctionalInterface
    public interface Discovery {
        PlanningResult plan(SnapshotPosition last) throws Exception;
    }

    private final Discovery discovery;
    private final Duration monitorInterval;
    private final int maxAllowedPlanningFailures;
    private final PlanningThrottle throttle = new PlanningThrottle();
    private volatile SnapshotPosition planningPosition;
    private int consecutiveFailures;

    /**
     * @param position the restored position, or {@code null} for a fresh start
     * @param settings the pinned table, limit, paging and resources to release
     */
    public ContinuousIcebergEnumerator(
            SplitEnumeratorContext<IcebergSourceSplit> context,
            SplitAssigner assigner,
            Discovery discovery,
            SnapshotPosition position,
            Duration monitorInterval,
            int maxAllowedPlanningFailures,
            EnumeratorSettings settings) {
        super(context, assigner, position, settings);
        this.discovery = discovery;
        this.monitorInterval = monitorInterval;
        this.maxAllowedPlanningFailures = maxAllowedPlanningFailures;
        this.planningPosition = position;
    }

    @Override
    public void start() {
        checkRestoredTable();
        context.callAsync(this::discover, this::onDiscovered, 0L, monitorInterval.toMillis());
        requestPageIfNeeded(); // a restored paged scan goes on
    }

    /** Runs on a worker thread. */
    private Round discover() throws Exception {
        if (limitReached() || halted()) {
            return null;
        }
        if (pagingInProgress()) {
            LOG.debug("Planning waits for the paged scan to be handed out");
            return null;
        }
        int pending = pendingSplitCount();
        if (throttle.shouldPause(pending)) {
            LOG.debug("Planning paused: {} split(s) pending", pending);
            return null;
        }
        SnapshotPosition from = planningPosition;
        return new Round(from, discovery.plan(from));
    }

    private record Round(SnapshotPosition from, PlanningResult result) {}

    /** Runs on the coordinator thread. */
    private void onDiscovered(Round round, Throwable error) {
        if (error != null) {
            handleFailure(error);
            return;
        }
        consecutiveFailures = 0;
        if (round == null) {
            return;
        }
        if (!Objects.equals(round.from(), position)) {
            LOG.info(
                    "Dropping a planning round from {}: the position moved on to {}",
                    round.from(),
                    position);
            return;
        }
        PlanningResult result = round.result();
        position = result.toPosition();
        planningPosition = position;
        metrics.lag(result.lagMillis());
        throttle.roundPlanned(result.splits().size());
        if (!result.splits().isEmpty()) {
            LOG.info(
                    "Discovered {} split(s) up to snapshot {}",
                    result.splits().size(),
                    position.snapshotId());
        }
        addPlanned(result);
    }

    private void handleFailure(Throwable error) {
        Throwable cause = error;
        while (cause != null && !(cause instanceof UnrecoverablePlanningException)) {
            cause = cause.getCause();
        }
        if (cause != null) {
            throw failWithoutRestart(cause.getMessage(), error);
        }
        consecutiveFailures++;
        if (maxAllowedPlanningFailures >= 0 && consecutiveFailures > maxAllowedPlanningFailures) {
            throw new FlinkRuntimeException(
                    String.format(
                            "Planning of the streaming Iceberg read failed %d time(s) in a row,"
                                    + " more than 'max-allowed-planning-failures' = %d",
                            consecutiveFailures, maxAllowedPlanningFailures),
                    error);
        }
        LOG.warn(
                "Planning failed ({} time(s) in a row, allowed: {}); retrying in {}",
                consecutiveFailures,
                maxAllowedPlanningFailures < 0 ? "unlimited" : maxAllowedPlanningFailures,
                monitorInterval,
                error);
    }

    @Override
    protected boolean noMoreSplits() {
        return false;
    }
}
