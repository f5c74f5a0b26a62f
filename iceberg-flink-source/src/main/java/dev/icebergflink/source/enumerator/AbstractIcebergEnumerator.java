package dev.icebergflink.source.enumerator;

import dev.icebergflink.source.assigner.SplitAssigner;
import dev.icebergflink.source.planning.SnapshotPosition;
import dev.icebergflink.source.split.IcebergSourceSplit;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the bounded and the continuous enumerators share: pull-based assignment (readers ask, the
 * {@link SplitAssigner} decides which split they get), returning a failed reader's splits to the
 * pool, the checkpointed state and the metrics.
 *
 * <p>All methods run in the coordinator thread; planning runs elsewhere through {@link
 * SplitEnumeratorContext#callAsync} and hands its results back to this thread.
 */
abstract class AbstractIcebergEnumerator
        implements SplitEnumerator<IcebergSourceSplit, IcebergEnumeratorState> {

    private static final Logger LOG = LoggerFactory.getLogger(AbstractIcebergEnumerator.class);

    protected final SplitEnumeratorContext<IcebergSourceSplit> context;
    protected final SplitAssigner assigner;
    protected final EnumeratorMetrics metrics;
    private final Map<Integer, String> awaitingReaders = new LinkedHashMap<>();
    private volatile int pendingSplits;
    private AutoCloseable resource;

    /** Position after the last completed planning round; {@code null} before the first. */
    protected SnapshotPosition position;

    AbstractIcebergEnumerator(
            SplitEnumeratorContext<IcebergSourceSplit> context,
            SplitAssigner assigner,
            SnapshotPosition position) {
        this.context = context;
        this.assigner = assigner;
        this.position = position;
        this.pendingSplits = assigner.pendingSplitCount();
        this.metrics = new EnumeratorMetrics(context.metricGroup(), () -> pendingSplits);
    }

    /** Whether no split will ever be added again (bounded read, planning done, pool empty). */
    protected abstract boolean noMoreSplits();

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {
        awaitingReaders.put(subtaskId, requesterHostname);
        assignSplits();
    }

    @Override
    public void addSplitsBack(List<IcebergSourceSplit> splits, int subtaskId) {
        LOG.info("Reader {} failed; {} split(s) go back to the pool", subtaskId, splits.size());
        assigner.onUnassignedSplits(splits);
        splitsChanged();
        assignSplits();
    }

    @Override
    public void addReader(int subtaskId) {
        // Readers ask for splits themselves (pull-based assignment).
    }

    @Override
    public IcebergEnumeratorState snapshotState(long checkpointId) {
        return new IcebergEnumeratorState(position, assigner.state());
    }

    /** Releases what planning needed (table loader, worker pool) when the enumerator closes. */
    public void closeWith(AutoCloseable resource) {
        this.resource = resource;
    }

    @Override
    public void close() throws IOException {
        if (resource != null) {
            try {
                resource.close();
            } catch (IOException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IOException("Failed to release the enumerator's planning resources", e);
            }
        }
    }

    /** Adds planned splits and hands them to waiting readers. */
    protected void addSplits(List<IcebergSourceSplit> splits) {
        assigner.onDiscoveredSplits(splits);
        splitsChanged();
        assignSplits();
    }

    /** The number of pending splits, safe to read from any thread. */
    protected int pendingSplitCount() {
        return pendingSplits;
    }

    /** Gives every waiting reader a split, or tells it that no more will come. */
    protected void assignSplits() {
        Iterator<Map.Entry<Integer, String>> waiting = awaitingReaders.entrySet().iterator();
        while (waiting.hasNext()) {
            Map.Entry<Integer, String> reader = waiting.next();
            int subtask = reader.getKey();
            if (!context.registeredReaders().containsKey(subtask)) {
                waiting.remove(); // the reader failed after asking; it asks again when back
                continue;
            }
            Optional<IcebergSourceSplit> split = assigner.getNext(reader.getValue());
            if (split.isPresent()) {
                context.assignSplit(split.get(), subtask);
                metrics.splitAssigned();
                waiting.remove();
            } else if (noMoreSplits()) {
                LOG.info("No more splits for reader {}", subtask);
                context.signalNoMoreSplits(subtask);
                waiting.remove();
            } else {
                break; // nothing pending: the others have to wait too
            }
        }
        splitsChanged();
    }

    private void splitsChanged() {
        pendingSplits = assigner.pendingSplitCount();
    }
}
