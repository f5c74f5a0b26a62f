package dev.icebergflink.source.planning;

import dev.icebergflink.source.config.ReadMode;
import dev.icebergflink.source.config.ScanContext;
import dev.icebergflink.source.split.IcebergSourceSplit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.CombinedScanTask;
import org.apache.iceberg.IncrementalAppendScan;
import org.apache.iceberg.Scan;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.iceberg.util.TableScanUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans splits of one table: full scans of one snapshot and append scans over a range of snapshots,
 * with the filters, split sizing and statistics of a {@link ScanContext}.
 *
 * <p>It exists so that the bounded and the continuous enumerators plan the same way; it holds no
 * state between calls. Splits come from Iceberg's {@code planTasks}: files are split at {@code
 * split-size} and packed into combined tasks with {@code split-lookback} and {@code
 * split-file-open-cost}; a bounded read with fewer splits than readers plans smaller ones ({@link
 * #planBounded(int)}, Iceberg's adaptive split size).
 *
 * <p>Full scans of bounded reads and the initial scan of {@code TABLE_SCAN_THEN_INCREMENTAL} are
 * paged when {@code split-planning-page-size} is positive: planning then returns a {@link
 * ScanCursor} instead of the splits, and {@link SplitPager} produces them page by page from {@link
 * #openTasks}, which plans on the calling thread only so that the split sequence is deterministic.
 */
@Internal
public final class SplitPlanner {

    private static final Logger LOG = LoggerFactory.getLogger(SplitPlanner.class);

    private final Table table;
    private final ScanContext context;

    /** Runs every planning task on the thread that iterates the plan: deterministic order. */
    private static final ExecutorService CALLER_THREAD = new CallerThreadExecutor();

    private final ExecutorService workerPool;

    /**
     * @param workerPool the pool Iceberg plans with, or {@code null} for its shared one
     */
    public SplitPlanner(Table table, ScanContext context, ExecutorService workerPool) {
        this.table = table;
        this.context = context;
        this.workerPool = workerPool;
    }

    public Table table() {
        return table;
    }

    /**
     * Plans a bounded read: the time-travel target (or current snapshot) as a full scan, or the
     * append range of a bounded incremental read (start exclusive, end inclusive). Splits have the
     * configured size (see {@link #planBounded(int)}).
     */
    public PlanningResult planBounded() {
        return planBounded(1);
    }

    /**
     * Plans a bounded read for {@code readers} reader subtasks. When the configured split size
     * gives fewer splits than readers and adaptive split sizing is on ({@link
     * ScanContext#adaptiveSplitSize()}), the splits are planned smaller, by Iceberg's rule ({@link
     * TableScanUtil#adjustSplitSize}), so that every reader gets work. Such a scan is small (fewer
     * splits than readers), so it is planned completely, never paged: a restore then never plans it
     * again, with a parallelism that could give other splits.
     */
    public PlanningResult planBounded(int readers) {
        if (context.mode() == ReadMode.INCREMENTAL_RANGE) {
            Snapshot end = boundedEnd();
            Long start = boundedStartExclusive();
            if (end == null) {
                return new PlanningResult(
                        null, SnapshotPosition.beforeFirstSnapshot(), List.of(), null);
            }
            if (start != null && start == end.snapshotId()) {
                return new PlanningResult(
                        null, SnapshotPosition.after(end), List.of(), end.timestampMillis());
            }
            if (context.readsChangelog()) {
                // one split per snapshot, read in order by one reader: never paged or resized
                return new PlanningResult(
                        null,
                        SnapshotPosition.after(end),
                        changelog().planRange(start, end),
                        end.timestampMillis());
            }
            return bounded(ScanCursor.appendScan(start, end.snapshotId()), end, readers);
        }
        Snapshot target = batchTarget();
        if (target == null) {
            return new PlanningResult(
                    null, SnapshotPosition.beforeFirstSnapshot(), List.of(), null);
        }
        return bounded(ScanCursor.tableScan(target.snapshotId()), target, readers);
    }

    private PlanningResult bounded(ScanCursor scan, Snapshot end, int readers) {
        SnapshotPosition to = SnapshotPosition.after(end);
        if (paging()) {
            Long adaptive = probeAdaptiveSplitSize(scan, readers);
            return adaptive != null
                    ? new PlanningResult(null, to, plan(scan, adaptive), end.timestampMillis())
                    : new PlanningResult(null, to, List.of(), end.timestampMillis(), scan);
        }
        List<IcebergSourceSplit> splits = plan(scan, context.splitSize());
        Long adaptive =
                adaptiveSplitSize(
                        splits.size(),
                        splits.stream().mapToLong(split -> split.task().sizeBytes()).sum(),
                        readers);
        return new PlanningResult(
                null, to, adaptive != null ? plan(scan, adaptive) : splits, end.timestampMillis());
    }

    /**
     * {@link #adaptiveSplitSize} for a paged scan, whose splits are not planned yet: counts its
     * configured splits only up to {@code readers}, so a large scan is planned no further than
     * that.
     */
    private Long probeAdaptiveSplitSize(ScanCursor scan, int readers) {
        if (!adaptive(readers)) {
            return null;
        }
        long scanSize = 0L;
        int splits = 0;
        try (CloseableIterable<CombinedScanTask> tasks = openTasks(scan)) {
            for (CombinedScanTask task : tasks) {
                if (++splits >= readers) {
                    return null;
                }
                scanSize += task.sizeBytes();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot close the planning of " + scan, e);
        }
        return adaptiveSplitSize(splits, scanSize, readers);
    }

    /**
     * Whether adaptive split sizing may apply for {@code readers}: it is on, there is more than one
     * reader, and the read has no limit (a limited read hands every split to one reader).
     */
    private boolean adaptive(int readers) {
        return readers > 1 && context.adaptiveSplitSize() && context.limit() < 0;
    }

    /**
     * The smaller split size for a scan of {@code scanSize} bytes whose configured split size gave
     * {@code splits} splits, fewer than {@code readers}; or {@code null} when the configured size
     * stands.
     */
    private Long adaptiveSplitSize(int splits, long scanSize, int readers) {
        if (!adaptive(readers) || splits == 0 || splits >= readers) {
            return null;
        }
        long adjusted = TableScanUtil.adjustSplitSize(scanSize, readers, context.splitSize());
        if (adjusted >= context.splitSize()) {
            return null;
        }
        LOG.info(
                "{} split(s) of {} bytes for {} readers: planning splits of {} bytes instead of {}",
                splits,
                scanSize,
                readers,
                adjusted,
                context.splitSize());
        return adjusted;
    }

    /** Every split of the scan a cursor names, planned with {@code splitSize}. */
    private List<IcebergSourceSplit> plan(ScanCursor scan, long splitSize) {
        return switch (scan.kind()) {
            case TABLE ->
                    plan(
                            configure(
                                    table.newScan().useSnapshot(scan.toSnapshotId()),
                                    workerPool,
                                    splitSize));
            case APPENDS ->
                    plan(
                            configure(
                                    appendScan(scan.fromSnapshotId(), scan.toSnapshotId()),
                                    workerPool,
                                    splitSize));
        };
    }

    /**
     * How many splits a bounded read has, counted up to {@code atMost} (for choosing a source
     * parallelism). The splits are planned for {@code atMost} readers, so that a small table that
     * adaptive split sizing would cut for more readers is counted with those splits. With paging
     * on, it reads only as many pages as it needs and keeps no splits.
     */
    public int countBoundedSplits(int atMost) throws IOException {
        if (atMost < 1) {
            throw new IllegalArgumentException("atMost must be at least 1, got " + atMost);
        }
        PlanningResult result = planBounded(atMost);
        int count = Math.min(result.splits().size(), atMost);
        ScanCursor cursor = result.pagedScan();
        if (cursor == null) {
            return count;
        }
        try (SplitPager pager = new SplitPager(this)) {
            while (cursor != null && count < atMost) {
                SplitPage page = pager.nextPage(cursor, atMost - count);
                count += page.splits().size();
                cursor = page.next();
            }
        }
        return count;
    }

    /**
     * A full scan of {@code snapshot} as a planning result: its splits, or a cursor to page through
     * them when paging is on.
     */
    public PlanningResult fullScan(SnapshotPosition from, Snapshot snapshot) {
        if (paging()) {
            return new PlanningResult(
                    from,
                    SnapshotPosition.after(snapshot),
                    List.of(),
                    snapshot.timestampMillis(),
                    ScanCursor.tableScan(snapshot.snapshotId()));
        }
        return new PlanningResult(
                from,
                SnapshotPosition.after(snapshot),
                planTableScan(snapshot.snapshotId()),
                snapshot.timestampMillis());
    }

    private boolean paging() {
        return context.splitPlanningPageSize() > 0;
    }

    /**
     * The combined tasks of the scan a cursor names, from its first split on, planned on the
     * calling thread only (Iceberg's worker pool would make the order depend on timing).
     */
    public CloseableIterable<CombinedScanTask> openTasks(ScanCursor cursor) {
        Scan<?, ?, ?> scan =
                switch (cursor.kind()) {
                    case TABLE ->
                            configure(
                                    table.newScan().useSnapshot(cursor.toSnapshotId()),
                                    CALLER_THREAD);
                    case APPENDS ->
                            configure(
                                    appendScan(cursor.fromSnapshotId(), cursor.toSnapshotId()),
                                    CALLER_THREAD);
                };
        @SuppressWarnings("unchecked")
        CloseableIterable<CombinedScanTask> tasks =
                (CloseableIterable<CombinedScanTask>) scan.planTasks();
        return tasks;
    }

    /** Plans the changes of snapshots (for {@code changelog-mode} = all), with this plan. */
    public ChangelogPlanner changelog() {
        return new ChangelogPlanner(table, context, workerPool);
    }

    /** The head of the configured branch (or main), or {@code null} for an empty table/branch. */
    public Snapshot head() {
        return context.branch() == null
                ? table.currentSnapshot()
                : table.snapshot(context.branch());
    }

    /** Plans every live file of the snapshot. */
    public List<IcebergSourceSplit> planTableScan(long snapshotId) {
        TableScan scan = configure(table.newScan().useSnapshot(snapshotId), workerPool);
        return plan(scan);
    }

    /**
     * Plans the files added by the {@code append} snapshots after {@code fromExclusive} (or from
     * the oldest ancestor on, when it is {@code null}) up to {@code toInclusive}. Snapshots of
     * other operations in the range contribute no files.
     */
    public List<IcebergSourceSplit> planAppends(Long fromExclusive, long toInclusive) {
        return plan(configure(appendScan(fromExclusive, toInclusive), workerPool));
    }

    private IncrementalAppendScan appendScan(Long fromExclusive, long toInclusive) {
        IncrementalAppendScan scan = table.newIncrementalAppendScan().toSnapshot(toInclusive);
        if (fromExclusive != null) {
            scan = scan.fromSnapshotExclusive(fromExclusive);
        } else {
            scan =
                    scan.fromSnapshotInclusive(
                            SnapshotUtil.oldestAncestorOf(toInclusive, table::snapshot)
                                    .snapshotId());
        }
        return scan;
    }

    private Snapshot batchTarget() {
        if (context.snapshotId() != null) {
            return table.snapshot(context.snapshotId());
        }
        if (context.tag() != null) {
            return table.snapshot(context.tag());
        }
        Snapshot head = head();
        if (context.asOfTimestamp() != null) {
            return asOf(head, context.asOfTimestamp(), "as-of-timestamp");
        }
        return head;
    }

    private Snapshot boundedEnd() {
        if (context.endSnapshotId() != null) {
            return table.snapshot(context.endSnapshotId());
        }
        if (context.endTag() != null) {
            return table.snapshot(context.endTag());
        }
        return head();
    }

    private Long boundedStartExclusive() {
        if (context.startSnapshotId() != null) {
            return context.startSnapshotId();
        }
        if (context.startTag() != null) {
            SnapshotRef ref = table.refs().get(context.startTag());
            return ref.snapshotId();
        }
        if (context.startSnapshotTimestamp() != null) {
            Snapshot before = latestAtOrBefore(head(), context.startSnapshotTimestamp());
            return before == null ? null : before.snapshotId();
        }
        return null;
    }

    /**
     * The snapshot of {@code head}'s ancestry that was current at {@code timestampMillis}.
     *
     * @throws IllegalArgumentException naming the option when the table is younger than that
     */
    private Snapshot asOf(Snapshot head, long timestampMillis, String option) {
        Snapshot found = latestAtOrBefore(head, timestampMillis);
        if (found == null) {
            throw new IllegalArgumentException(
                    String.format(
                            "Option '%s' = %d is older than the table's first snapshot: nothing"
                                    + " to read as of that time",
                            option, timestampMillis));
        }
        return found;
    }

    /** The newest ancestor of {@code head} committed at or before the time, or {@code null}. */
    public Snapshot latestAtOrBefore(Snapshot head, long timestampMillis) {
        Snapshot current = head;
        while (current != null) {
            if (current.timestampMillis() <= timestampMillis) {
                return current;
            }
            current = current.parentId() == null ? null : table.snapshot(current.parentId());
        }
        return null;
    }

    private <S extends Scan<S, ?, ?>> S configure(S scan, ExecutorService pool) {
        return configure(scan, pool, context.splitSize());
    }

    private <S extends Scan<S, ?, ?>> S configure(S scan, ExecutorService pool, long splitSize) {
        return ScanSettings.apply(scan, context, pool, splitSize);
    }

    private static List<IcebergSourceSplit> plan(Scan<?, ?, ?> scan) {
        List<IcebergSourceSplit> splits = new ArrayList<>();
        try (CloseableIterable<? extends org.apache.iceberg.ScanTaskGroup<?>> groups =
                scan.planTasks()) {
            for (org.apache.iceberg.ScanTaskGroup<?> group : groups) {
                splits.add(IcebergSourceSplit.fromCombinedScanTask((CombinedScanTask) group));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Failed to close the split planning of " + scan, e);
        }
        return splits;
    }
}
