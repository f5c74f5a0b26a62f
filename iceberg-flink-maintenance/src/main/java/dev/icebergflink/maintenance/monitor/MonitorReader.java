package dev.icebergflink.maintenance.monitor;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.api.TableChange;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks at the table every interval and emits one {@link TableChange} summing the commits since the
 * last look, read from the snapshots' summaries (no manifest is read).
 *
 * <p>Commits that only replace files ({@code replace} snapshots: compaction, maintenance's own
 * rewrites) are not changes: counting them would make a rewrite trigger the next one. At most
 * {@code maxReadBack} snapshots are read per look, newest first; older ones are skipped (on the
 * first look of a topology without state, or after a long pause).
 */
@Internal
final class MonitorReader implements SourceReader<TableChange, MonitorSplit> {

    private static final Logger LOG = LoggerFactory.getLogger(MonitorReader.class);

    private final SourceReaderContext context;
    private final TableLoader loader;
    private final long intervalMillis;
    private final int maxReadBack;

    private Table table;
    private MonitorSplit split;
    private long nextLookMillis;
    private final CompletableFuture<Void> splitArrived = new CompletableFuture<>();

    MonitorReader(
            SourceReaderContext context, TableLoader loader, long intervalMillis, int maxReadBack) {
        this.context = context;
        this.loader = loader;
        this.intervalMillis = intervalMillis;
        this.maxReadBack = maxReadBack;
    }

    @Override
    public void start() {
        context.sendSplitRequest();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<TableChange> output) {
        if (split == null || System.currentTimeMillis() < nextLookMillis) {
            return InputStatus.NOTHING_AVAILABLE;
        }
        nextLookMillis = System.currentTimeMillis() + intervalMillis;
        Snapshot current;
        try {
            if (table == null) {
                loader.open();
                table = loader.loadTable();
            } else {
                table.refresh();
            }
            current = table.currentSnapshot();
        } catch (RuntimeException e) {
            // A catalog that is away for a moment must not stop maintenance: look again later.
            LOG.warn("Cannot look at the table; trying again in {} ms", intervalMillis, e);
            return InputStatus.NOTHING_AVAILABLE;
        }
        if (current == null || current.snapshotId() == split.lastSnapshotId()) {
            return InputStatus.NOTHING_AVAILABLE;
        }
        TableChange change =
                SnapshotChanges.since(table, current, split.lastSnapshotId(), maxReadBack);
        split = new MonitorSplit(current.snapshotId());
        if (change.commitCount() > 0) {
            output.collect(change);
        }
        return InputStatus.NOTHING_AVAILABLE;
    }

    @Override
    public List<MonitorSplit> snapshotState(long checkpointId) {
        return split == null ? List.of() : List.of(split);
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        if (split == null) {
            return splitArrived;
        }
        long wait = Math.max(1L, nextLookMillis - System.currentTimeMillis());
        return CompletableFuture.runAsync(
                () -> {}, CompletableFuture.delayedExecutor(wait, TimeUnit.MILLISECONDS));
    }

    @Override
    public void addSplits(List<MonitorSplit> splits) {
        if (!splits.isEmpty()) {
            split = splits.get(0);
            nextLookMillis = 0L;
            splitArrived.complete(null);
        }
    }

    @Override
    public void notifyNoMoreSplits() {}

    @Override
    public void close() throws IOException {
        loader.close();
    }
}
