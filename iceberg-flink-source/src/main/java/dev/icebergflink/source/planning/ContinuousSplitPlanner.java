package dev.icebergflink.source.planning;

import dev.icebergflink.source.StreamingStartingStrategy;
import dev.icebergflink.source.config.ReadMode;
import dev.icebergflink.source.config.ScanContext;
import dev.icebergflink.source.split.IcebergSourceSplit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans the rounds of a streaming read: the first round applies the starting strategy, each later
 * round the appends committed after the last position, as Iceberg's own connector does, starting
 * where the user documentation says.
 *
 * <p>It exists to keep the discovery rules in one place, independent of Flink. A round covers at
 * most {@code max-planning-snapshot-count} snapshots of the head's ancestry (the branch head when
 * {@code branch} is set). {@code append} snapshots contribute their files, {@code replace}
 * snapshots (rewrites, compaction) are skipped, and {@code overwrite}/{@code delete} snapshots fail
 * the round with a message naming the snapshot unless the matching skip option is set. A changelog
 * read ({@code changelog-mode} = all) plans every snapshot's changes instead, one split per
 * snapshot in commit order ({@link ChangelogPlanner}). Not thread-safe; the enumerator calls it
 * from one planning thread at a time.
 *
 * <p><b>Table identity.</b> Every round checks that the table is still the one the read is pinned
 * to ({@link TableIdentity}): a refreshed table with another UUID fails the round with {@link
 * UnrecoverablePlanningException}. A refresh alone does not always see a re-created table: a Hadoop
 * table's operations keep the version number they read last and do not read a metadata file of that
 * number again, so after a drop and re-create they fail (the file is missing, or Iceberg's own UUID
 * check fails) or, once the new table reached the same version, keep showing the old table and the
 * read stalls. So a round that fails loads the table anew to tell a re-created table from other
 * failures, and a round that finds nothing new does the same at most once per {@code
 * identityCheckInterval}.
 */
@Internal
public final class ContinuousSplitPlanner {

    private static final Logger LOG = LoggerFactory.getLogger(ContinuousSplitPlanner.class);

    /** How often rounds that find nothing new load the table anew to check its identity. */
    public static final Duration IDENTITY_CHECK_INTERVAL = Duration.ofSeconds(30);

    private final SplitPlanner planner;
    private final ScanContext context;
    private final TableIdentityGuard identity;

    /** A planner pinned to the planner's table as loaded, without fresh identity checks. */
    public ContinuousSplitPlanner(SplitPlanner planner, ScanContext context) {
        this(
                planner,
                context,
                TableIdentity.uuidOf(planner.table()),
                null,
                IDENTITY_CHECK_INTERVAL,
                System::nanoTime);
    }

    /**
     * @param tableUuid the UUID of the table the read belongs to ({@link TableIdentity#pinned}), or
     *     {@code null} to not check it
     * @param freshTable loads the table anew (new table operations, nothing cached), or {@code
     *     null} to check only the refreshed table
     * @param identityCheckInterval how often rounds that find nothing new check the identity with a
     *     fresh load
     * @param nanoClock the time source of that interval ({@code System::nanoTime})
     */
    public ContinuousSplitPlanner(
            SplitPlanner planner,
            ScanContext context,
            String tableUuid,
            Supplier<Table> freshTable,
            Duration identityCheckInterval,
            LongSupplier nanoClock) {
        this.planner = planner;
        this.context = context;
        this.identity =
                new TableIdentityGuard(
                        planner.table(), tableUuid, freshTable, identityCheckInterval, nanoClock);
    }

    /** The UUID of the table this read belongs to, or {@code null} when unknown. */
    public String tableUuid() {
        return identity.tableUuid();
    }

    /**
     * Plans the next round.
     *
     * @param last the position after the previous round, or {@code null} before the first round
     * @throws UnrecoverablePlanningException when the history does not allow reading on (the start
     *     snapshot is missing, the position is no longer an ancestor of the head or the head is
     *     gone, or an overwrite/delete snapshot is met without its skip option) or the table was
     *     re-created
     */
    public PlanningResult planNext(SnapshotPosition last) {
        PlanningResult result;
        try {
            result = plan(last);
        } catch (UnrecoverablePlanningException e) {
            throw e;
        } catch (RuntimeException e) {
            throw identity.diagnose(e);
        }
        if (result.fromPosition() != null
                && result.fromPosition().equals(result.toPosition())
                && result.splits().isEmpty()
                && result.pagedScan() == null) {
            identity.checkWhenIdle();
        }
        return result;
    }

    private PlanningResult plan(SnapshotPosition last) {
        Table table = planner.table();
        table.refresh();
        TableIdentity.check(table, identity.tableUuid(), TableIdentity.uuidOf(table));
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
        if (context.mode() == ReadMode.STREAMING_AFTER_START) {
            if (context.startSnapshotId() != null) {
                // A bare start-snapshot-id is exclusive, as the user documentation says.
                Snapshot start = requireSnapshot(context.startSnapshotId(), head);
                return planIncrement(SnapshotPosition.after(start), head, headTime, List.of());
            }
            // A bare start-snapshot-timestamp reads what was committed after that time.
            Snapshot before = planner.latestAtOrBefore(head, context.startSnapshotTimestamp());
            return planIncrement(SnapshotPosition.after(before), head, headTime, List.of());
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
        if (head == null && from.snapshotId() != null) {
            // Waiting here would stall the read for good: no append can follow the position.
            throw new UnrecoverablePlanningException(
                    String.format(
                            "The last read snapshot %d has no successor: %s has no %s head any"
                                    + " more (the table was replaced, or the branch removed);"
                                    + " restart the read from a new position",
                            from.snapshotId(), planner.table(), branchName()));
        }
        if (head == null || (from.snapshotId() != null && from.snapshotId() == head.snapshotId())) {
            return new PlanningResult(from, from, prefix, headTime);
        }
        List<Snapshot> pending = snapshotsAfter(from, head);
        if (pending.isEmpty()) {
            return new PlanningResult(from, from, prefix, headTime);
        }
        List<Snapshot> round =
                pending.subList(0, Math.min(pending.size(), context.maxPlanningSnapshotCount()));
        Snapshot to = round.get(round.size() - 1);
        List<IcebergSourceSplit> splits = new ArrayList<>(prefix);
        if (context.readsChangelog()) {
            splits.addAll(planner.changelog().planSnapshots(round));
            return new PlanningResult(from, SnapshotPosition.after(to), splits, headTime);
        }
        boolean anyAppend = false;
        for (Snapshot snapshot : round) {
            anyAppend |= checkOperation(snapshot);
        }
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
