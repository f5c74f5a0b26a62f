package dev.icebergflink.source.planning;

import dev.icebergflink.source.split.IcebergSourceSplit;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.CombinedScanTask;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.CloseableIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands out the splits of a scan page by page, keeping Iceberg's task iterator open between pages
 * so that a scan is planned once in a normal run.
 *
 * <p>When asked for a cursor it is not positioned at (the first page after a restore, or another
 * scan), it plans the scan again and skips the splits the cursor says were produced, checking that
 * the last skipped split is the one the cursor names. Planning of paged scans is single-threaded
 * ({@link SplitPlanner#openTasks}), which makes the split sequence deterministic. Thread-safe.
 */
@Internal
public final class SplitPager implements SplitPageSource, Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(SplitPager.class);

    private final SplitPlanner planner;
    private ScanCursor position;
    private CloseableIterable<CombinedScanTask> tasks;
    private CloseableIterator<CombinedScanTask> iterator;

    public SplitPager(SplitPlanner planner) {
        this.planner = planner;
    }

    @Override
    public synchronized SplitPage nextPage(ScanCursor cursor, int maxSplits) throws IOException {
        if (maxSplits < 1) {
            throw new IllegalArgumentException("A page holds at least 1 split, got " + maxSplits);
        }
        if (iterator == null || !cursor.equals(position)) {
            open(cursor);
        }
        List<IcebergSourceSplit> page = new ArrayList<>(maxSplits);
        while (page.size() < maxSplits && iterator.hasNext()) {
            page.add(IcebergSourceSplit.fromCombinedScanTask(iterator.next()));
        }
        ScanCursor next =
                page.isEmpty()
                        ? cursor
                        : cursor.advancedBy(page.size(), page.get(page.size() - 1).splitId());
        if (!iterator.hasNext()) {
            closeScan();
            return new SplitPage(page, null);
        }
        position = next;
        return new SplitPage(page, next);
    }

    private void open(ScanCursor cursor) throws IOException {
        closeScan();
        if (cursor.producedSplits() > 0) {
            LOG.info(
                    "Planning {} scan up to snapshot {} again to resume after its first {} split(s)",
                    cursor.kind(),
                    cursor.toSnapshotId(),
                    cursor.producedSplits());
        }
        tasks = planner.openTasks(cursor);
        iterator = tasks.iterator();
        String last = null;
        for (long skipped = 0; skipped < cursor.producedSplits(); skipped++) {
            if (!iterator.hasNext()) {
                closeScan();
                throw new IllegalStateException(
                        String.format(
                                "Cannot resume the %s scan up to snapshot %d of %s: the"
                                        + " checkpoint says %d split(s) were planned, planning"
                                        + " again yields only %d",
                                cursor.kind(),
                                cursor.toSnapshotId(),
                                planner.table(),
                                cursor.producedSplits(),
                                skipped));
            }
            last = IcebergSourceSplit.fromCombinedScanTask(iterator.next()).splitId();
        }
        if (cursor.lastSplitId() != null && !cursor.lastSplitId().equals(last)) {
            closeScan();
            throw new IllegalStateException(
                    String.format(
                            "Cannot resume the %s scan up to snapshot %d of %s: split %d was %s"
                                    + " when checkpointed but is %s when planned again (were"
                                    + " split options changed between runs?)",
                            cursor.kind(),
                            cursor.toSnapshotId(),
                            planner.table(),
                            cursor.producedSplits(),
                            cursor.lastSplitId(),
                            last));
        }
        position = cursor;
    }

    private void closeScan() throws IOException {
        position = null;
        CloseableIterable<CombinedScanTask> open = tasks;
        CloseableIterator<CombinedScanTask> openIterator = iterator;
        tasks = null;
        iterator = null;
        try {
            if (openIterator != null) {
                openIterator.close();
            }
        } finally {
            if (open != null) {
                open.close();
            }
        }
    }

    @Override
    public synchronized void close() throws IOException {
        closeScan();
    }
}
