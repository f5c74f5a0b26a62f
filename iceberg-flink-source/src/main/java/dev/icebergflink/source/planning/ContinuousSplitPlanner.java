package dev.icebergflink.source.planning;

import dev.icebergflink.source.ScanContext;
import dev.icebergflink.source.StreamingStartingStrategy;
import dev.icebergflink.source.split.IcebergSourceSplit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans the rounds of a streaming read: the first round applies the starting strategy, each later
 * round the appends committed after the last position (COMPATIBILITY §3, DESIGN §8).
 *
 * <p>It exists to keep the discovery rules in one place, independent of Flink. A round covers at
 * most {@code max-planning-snapshot-count} snapshots of the head's ancestry (the branch head when
 * {@code branch} is set). {@code append} snapshots contribute their files, {@code replace}
 * snapshots (rewrites, compaction) are skipped, and {@code overwrite}/{@code delete} snapshots fail
 * the round with a message naming the snapshot unless the matching skip option is set. Not
 * thread-safe; the enumerator calls it from one planning thread at a time.
 */
public final class ContinuousSplitPlanner {

    private static final Logger LOG = LoggerFactory.getLogger(ContinuousSplitPlanner.class);

    private final SplitPlanner planner;
    private final ScanContext context;

    public ContinuousSplitPlanner(SplitPlanner planner, ScanContext context) {
        this.planner = planner;
        this.context = context;
    }

    /**
     * Plans the next round.
     *
     * @param last the position after the previous round, or {@code null} before the first round
     * @throws IllegalStateException when the history does not allow reading on (the start snapshot
     *     is missing, the position is no longer an ancestor of the head, or an overwrite/delete
     *     snapshot is met without its skip option)
     */
    public PlanningResult planNext(SnapshotPosition last) {
        Table table = planner.table();
        table.refresh();
        Snapshot head = planner.head();
        Long headTime = head == null ? null : head.timestampMillis();
        if (last == null) {
            return planFirst(head, headTime);
        }
        return planIncrement(last, head, headTime, List.of());
    }

    private PlanningResult planFirst(Snapshot head, Long headTime) {
        Table table = planner.table();
        StreamingStartingStrategy strategy = context.startingStrategy();
        if (!context.startingStrategyExplicit()) {
            if (context.startSnapshotId() != null) {
                // A bare start-snapshot-id is exclusive (DESIGN §8).
                Snapshot start = requireSnapshot(context.startSnapshotId(), head);
                return planIncrement(SnapshotPosition.after(start), head, headTime, List.of());
            }
            if (context.startSnapshotTimestamp() != null) {
                // A bare start-snapshot-timestamp reads what was committed after that time.
                Snapshot before = planner.latestAtOrBefore(head, context.startSnapshotTimestamp());
                return planIncrement(SnapshotPosition.after(before), head, headTime, List.of());
            }
        }
        switch (strategy) {
            case TABLE_SCAN_THEN_INCREMENTAL -> {
                if (head == null) {
                    return new PlanningResult(
                            null, SnapshotPosition.beforeFirstSnapshot(), List.of(), null);
                }
                LOG.info(
                        "Streaming read of {} starts with a full scan of snapshot {}",
                        table,
                        head.snapshotId());
                return planner.fullScan(null, head);
            }
            case INCREMENTAL_FROM_LATEST_SNAPSHOT -> {
                SnapshotPosition start = head == null ? null : parentPosition(head);
                return planIncrement(
                        start == null ? SnapshotPosition.beforeFirstSnapshot() : start,
                        head,
                        headTime,
                        List.of());
            }
            case INCREMENTAL_FROM_LATEST_SNAPSHOT_EXCLUSIVE -> {
                return planIncrement(SnapshotPosition.after(head), head, headTime, List.of());
            }
            case INCREMENTAL_FROM_EARLIEST_SNAPSHOT -> {
                return planIncrement(
                        SnapshotPosition.beforeFirstSnapshot(), head, headTime, List.of());
            }
            case INCREMENTAL_FROM_SNAPSHOT_ID -> {
                Snapshot start = requireSnapshot(context.startSnapshotId(), head);
                return planIncrement(parentPosition(start), head, headTime, List.of());
            }
            case INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP -> {
                if (head == null) {
                    return planIncrement(
                            SnapshotPosition.beforeFirstSnapshot(), head, headTime, List.of());
                }
                Snapshot start = oldestAtOrAfter(head, context.startSnapshotTimestamp());
                return planIncrement(parentPosition(start), head, headTime, List.of());
            }
            default -> throw new IllegalStateException("Unknown starting strategy " + strategy);
        }
    }

    /** The position before {@code snapshot}: after its parent, or before the first snapshot. */
    private SnapshotPosition parentPosition(Snapshot snapshot) {
        Long parentId = snapshot.parentId();
        Snapshot parent = parentId == null ? null : planner.table().snapshot(parentId);
        if (parentId != null && parent == null) {
            // The parent expired: the snapshot itself is the oldest one left, read it inclusively.
            return SnapshotPosition.beforeFirstSnapshot();
        }
        return SnapshotPosition.after(parent);
    }

    private Snapshot requireSnapshot(long snapshotId, Snapshot head) {
        Snapshot snapshot = planner.table().snapshot(snapshotId);
        if (snapshot == null) {
            throw new UnrecoverablePlanningException(
                    String.format(
                            "Option 'start-snapshot-id' = %d names no snapshot of %s",
                            snapshotId, planner.table()));
        }
        if (head == null || !isAncestor(head, snapshotId)) {
            throw new UnrecoverablePlanningException(
                    String.format(
                            "Option 'start-snapshot-id' = %d is not an ancestor of the %s head of"
                                    + " %s",
                            snapshotId, branchName(), planner.table()));
        }
        return snapshot;
    }

    private Snapshot oldestAtOrAfter(Snapshot head, long timestampMillis) {
        Snapshot found = null;
        for (Snapshot snapshot :
                SnapshotUtil.ancestorsOf(head.snapshotId(), planner.table()::snapshot)) {
            if (snapshot.timestampMillis() >= timestampMillis) {
                found = snapshot;
            } else {
                break;
            }
        }
        if (found == null) {
            throw new UnrecoverablePlanningException(
                    String.format(
                            "Option 'start-snapshot-timestamp' = %d is after the newest snapshot"
                                    + " %d (committed at %d) of the %s head of %s: no snapshot to"
                                    + " start from",
                            timestampMillis,
                            head.snapshotId(),
                            head.timestampMillis(),
                            branchName(),
                            planner.table()));
        }
        return found;
    }

    private boolean isAncestor(Snapshot head, long snapshotId) {
        for (Snapshot snapshot :
                SnapshotUtil.ancestorsOf(head.snapshotId(), planner.table()::snapshot)) {
            if (snapshot.snapshotId() == snapshotId) {
                return true;
            }
        }
        return false;
    }

    private PlanningResult planIncrement(
            SnapshotPosition from, Snapshot head, Long headTime, List<IcebergSourceSplit> prefix) {
        if (head == null || (from.snapshotId() != null && from.snapshotId() == head.snapshotId())) {
            return new PlanningResult(from, from, prefix, headTime);
        }
        List<Snapshot> pending = snapshotsAfter(from, head);
        if (pending.isEmpty()) {
            return new PlanningResult(from, from, prefix, headTime);
        }
        List<Snapshot> round =
                pending.subList(0, Math.min(pending.size(), context.maxPlanningSnapshotCount()));
        boolean anyAppend = false;
        for (Snapshot snapshot : round) {
            anyAppend |= checkOperation(snapshot);
        }
        Snapshot to = round.get(round.size() - 1);
        List<IcebergSourceSplit> splits = new ArrayList<>(prefix);
        if (anyAppend) {
            splits.addAll(planner.planAppends(from.snapshotId(), to.snapshotId()));
        }
        return new PlanningResult(from, SnapshotPosition.after(to), splits, headTime);
    }

    /** The ancestors of {@code head} after {@code from}, oldest first. */
    private List<Snapshot> snapshotsAfter(SnapshotPosition from, Snapshot head) {
        List<Snapshot> newestFirst = new ArrayList<>();
        boolean reached = from.snapshotId() == null;
        for (Snapshot snapshot :
                SnapshotUtil.ancestorsOf(head.snapshotId(), planner.table()::snapshot)) {
            if (from.snapshotId() != null && snapshot.snapshotId() == from.snapshotId()) {
                reached = true;
                break;
            }
            newestFirst.add(snapshot);
        }
        if (!reached) {
            throw new UnrecoverablePlanningException(
                    String.format(
                            "The last read snapshot %d is no longer an ancestor of the %s head %d of"
                                    + " %s (the branch was reset or the snapshot expired);"
                                    + " restart the read from a new position",
                            from.snapshotId(), branchName(), head.snapshotId(), planner.table()));
        }
        Collections.reverse(newestFirst);
        return newestFirst;
    }

    /**
     * Whether the snapshot's added files are read; fails for overwrite/delete snapshots unless the
     * user opted to skip them.
     */
    private boolean checkOperation(Snapshot snapshot) {
        String operation = snapshot.operation();
        if (DataOperations.APPEND.equals(operation)) {
            return true;
        }
        if (DataOperations.REPLACE.equals(operation)) {
            LOG.debug("Skipping replace snapshot {} (it adds no rows)", snapshot.snapshotId());
            return false;
        }
        boolean overwrite = DataOperations.OVERWRITE.equals(operation);
        boolean delete = DataOperations.DELETE.equals(operation);
        if ((overwrite && context.skipOverwriteSnapshots())
                || (delete && context.skipDeleteSnapshots())) {
            LOG.info(
                    "Skipping {} snapshot {} of {} as configured; its changes are not read",
                    operation,
                    snapshot.snapshotId(),
                    planner.table());
            return false;
        }
        String option =
                overwrite
                        ? "streaming-skip-overwrite-snapshots"
                        : delete ? "streaming-skip-delete-snapshots" : null;
        throw new UnrecoverablePlanningException(
                String.format(
                        "Streaming read of %s found snapshot %d with operation '%s': a streaming"
                                + " read only follows appends. %s",
                        planner.table(),
                        snapshot.snapshotId(),
                        operation,
                        option == null
                                ? "This operation cannot be skipped."
                                : "Set '"
                                        + option
                                        + "' = 'true' to skip such snapshots (their changes are"
                                        + " not read), or read the table in batch mode."));
    }

    private String branchName() {
        return context.branch() == null ? "main" : "'" + context.branch() + "' branch";
    }
}
