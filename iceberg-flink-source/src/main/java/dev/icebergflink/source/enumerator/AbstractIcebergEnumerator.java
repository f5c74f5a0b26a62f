package dev.icebergflink.source.enumerator;

import dev.icebergflink.source.assigner.SplitAssigner;
import dev.icebergflink.source.event.LimitReachedEvent;
import dev.icebergflink.source.planning.PlanningResult;
import dev.icebergflink.source.planning.ScanCursor;
import dev.icebergflink.source.planning.SnapshotPosition;
import dev.icebergflink.source.planning.SplitPage;
import dev.icebergflink.source.planning.SplitPageSource;
import dev.icebergflink.source.planning.TableIdentity;
import dev.icebergflink.source.split.IcebergSourceSplit;
import java.io.IOException;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.util.FlinkRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the bounded and the continuous enumerators share: pull-based assignment (readers ask, the
 * {@link SplitAssigner} decides which split they get), returning a failed reader's splits to the
 * pool, paged scans, the exact limit, the checkpointed state and the metrics.
 *
 * <p><b>Paged scans.</b> A planning round may return a {@link ScanCursor} instead of the splits of
 * a full scan ({@link PlanningResult#pagedScan()}). The enumerator then asks its {@link
 * SplitPageSource} for the next page whenever at most half a page is pending, so that at most
 * {@code pageSize} splits are pending (plus splits given back by failed readers), and checkpoints
 * the cursor with them.
 *
 * <p><b>Exact limit.</b> With a limit, every split goes to one reader (the first that asks; after
 * it failed and gave its splits back, the next that asks), and every other reader is told at once
 * that no splits will come, so the one reader's limit is the source's limit. When that reader
 * reports {@link LimitReachedEvent}, every reader is told that no more splits will come and
 * planning stops, so limited streaming reads end too.
 *
 * <p><b>Table identity.</b> The state keeps the UUID of the table the read belongs to ({@link
 * TableIdentity}, pinned by {@link EnumeratorSettings#pinnedTo}). A restored enumerator whose table
 * now has another UUID (dropped and re-created) fails the job in {@link #start()} before it hands
 * out a split, and suppresses restarts: every restart would restore the same state.
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
    private final Set<Integer> toldNoMoreSplits = new HashSet<>();
    private volatile int pendingSplits;
    private final AutoCloseable resource;

    private final SplitPageSource pageSource;
    private final int pageSize;
    private boolean pageRequested;

    /** The paged scan being handed out, or {@code null}; read by planning threads. */
    private volatile ScanCursor pagedScan;

    private final boolean limited;
    private Integer limitedReader;

    /** Whether a limited read reached its limit; read by planning threads. */
    private volatile boolean limitReached;

    /** Position after the last completed planning round; {@code null} before the first. */
    protected SnapshotPosition position;

    private final Object tableName;
    private final String tableUuid;
    private final String restoredUuid;
    private final String loadedUuid;

    /** Set once the enumerator failed the job: no split is handed out or planned any more. */
    private volatile boolean halted;

    AbstractIcebergEnumerator(
            SplitEnumeratorContext<IcebergSourceSplit> context,
            SplitAssigner assigner,
            SnapshotPosition position,
            EnumeratorSettings settings) {
        this.context = context;
        this.assigner = assigner;
        this.position = position;
        this.pendingSplits = assigner.pendingSplitCount();
        this.metrics = new EnumeratorMetrics(context.metricGroup(), () -> pendingSplits);
        this.pageSource = settings.pageSource();
        this.pageSize = settings.pageSize();
        this.pagedScan = settings.restoredCursor();
        this.limited = settings.limit() >= 0;
        this.limitReached = settings.limit() == 0;
        this.tableName = settings.tableName();
        this.restoredUuid = settings.restoredUuid();
        this.loadedUuid = settings.loadedUuid();
        this.tableUuid = TableIdentity.pinned(restoredUuid, loadedUuid);
        this.resource = settings.resources();
    }

    /** Whether no split will ever be added again (bounded read, planning done, pool empty). */
    protected abstract boolean noMoreSplits();

    /** The UUID of the table the read belongs to, or {@code null} when unknown. */
    public String tableUuid() {
        return tableUuid;
    }

    /**
     * Fails the job, without restarts, when the restored state belongs to another table than the
     * one loaded now. The enumerators call it first thing in {@link #start()}.
     */
    protected void checkRestoredTable() {
        if (TableIdentity.differ(restoredUuid, loadedUuid)) {
            RuntimeException recreated =
                    TableIdentity.recreated(tableName, restoredUuid, loadedUuid, null);
            throw failWithoutRestart(recreated.getMessage(), recreated);
        }
    }

    /**
     * Stops handing out splits and returns the exception that fails the job without restarts (a
     * restart restores the same state and meets the same failure).
     */
    protected RuntimeException failWithoutRestart(String message, Throwable cause) {
        halted = true;
        return new SuppressRestartsException(new FlinkRuntimeException(message, cause));
    }

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {
        awaitingReaders.put(subtaskId, requesterHostname);
        assignSplits();
    }

    @Override
    public void addSplitsBack(List<IcebergSourceSplit> splits, int subtaskId) {
        LOG.info("Reader {} failed; {} split(s) go back to the pool", subtaskId, splits.size());
        assigner.onUnassignedSplits(splits);
        if (limitedReader != null && limitedReader == subtaskId) {
            limitedReader = null; // the next reader that asks takes over
        }
        splitsChanged();
        assignSplits();
    }

    @Override
    public void addReader(int subtaskId) {
        // Readers ask for splits themselves (pull-based assignment). A reader that comes back
        // after a failure may be told again that no more splits will come.
        toldNoMoreSplits.remove(subtaskId);
    }

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent sourceEvent) {
        if (sourceEvent instanceof LimitReachedEvent) {
            LOG.info("Reader {} reached the limit; the read ends", subtaskId);
            limitReached = true;
            for (int reader : context.registeredReaders().keySet()) {
                tellNoMoreSplits(reader);
            }
            awaitingReaders.clear();
        } else {
            LOG.warn("Ignoring unknown event {} from reader {}", sourceEvent, subtaskId);
        }
    }

    @Override
    public IcebergEnumeratorState snapshotState(long checkpointId) {
        return new IcebergEnumeratorState(position, pagedScan, assigner.state(), tableUuid);
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

    /** Takes over the splits of a finished planning round (or its paged scan). */
    protected void addPlanned(PlanningResult result) {
        if (result.pagedScan() != null) {
            if (pageSource == null) {
                throw new IllegalStateException(
                        "Planning returned a paged scan but the enumerator has no page source");
            }
            pagedScan = result.pagedScan();
        }
        addSplits(result.splits());
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

    /** Whether a paged scan still has splits to hand out; safe to read from any thread. */
    protected boolean pagingInProgress() {
        return pagedScan != null;
    }

    /** Whether the enumerator failed the job; safe to read from any thread. */
    protected boolean halted() {
        return halted;
    }

    /** Whether a limited read reached its limit; safe to read from any thread. */
    protected boolean limitReached() {
        return limitReached;
    }

    /** Gives every waiting reader a split, or tells it that no more will come. */
    protected void assignSplits() {
        if (halted) {
            return;
        }
        Iterator<Map.Entry<Integer, String>> waiting = awaitingReaders.entrySet().iterator();
        while (waiting.hasNext()) {
            Map.Entry<Integer, String> reader = waiting.next();
            int subtask = reader.getKey();
            if (!context.registeredReaders().containsKey(subtask)) {
                waiting.remove(); // the reader failed after asking; it asks again when back
                continue;
            }
            if (limited && (limitReached || !isLimitedReader(subtask))) {
                tellNoMoreSplits(subtask);
                waiting.remove();
                continue;
            }
            Optional<IcebergSourceSplit> split = assigner.getNext(reader.getValue());
            if (split.isPresent()) {
                context.assignSplit(split.get(), subtask);
                metrics.splitAssigned();
                waiting.remove();
            } else if (noMoreSplits()) {
                tellNoMoreSplits(subtask);
                waiting.remove();
            } else {
                break; // nothing pending: the others have to wait too
            }
        }
        splitsChanged();
        requestPageIfNeeded();
    }

    /**
     * Whether {@code subtask} is (or, being the first to ask, becomes) the limited read's reader.
     */
    private boolean isLimitedReader(int subtask) {
        if (limitedReader == null) {
            LOG.info("Limited read: reader {} reads every split", subtask);
            limitedReader = subtask;
        }
        return limitedReader == subtask;
    }

    private void tellNoMoreSplits(int subtask) {
        if (toldNoMoreSplits.add(subtask)) {
            LOG.info("No more splits for reader {}", subtask);
            context.signalNoMoreSplits(subtask);
        }
    }

    /** Whether a paged scan has a page requested or splits left to request. */
    protected boolean pagesOutstanding() {
        return pagedScan != null || pageRequested;
    }

    /** Asks for the next page of the paged scan when at most half a page is pending. */
    protected void requestPageIfNeeded() {
        ScanCursor cursor = pagedScan;
        if (cursor == null || pageRequested || limitReached) {
            return;
        }
        int pending = assigner.pendingSplitCount();
        if (pending > pageSize / 2) {
            return;
        }
        int max = pageSize - pending;
        pageRequested = true;
        context.callAsync(() -> pageSource.nextPage(cursor, max), this::onPage);
    }

    private void onPage(SplitPage page, Throwable error) {
        pageRequested = false;
        if (error != null) {
            throw new FlinkRuntimeException(
                    "Failed to plan the next splits of the scan at " + pagedScan, error);
        }
        pagedScan = page.next();
        if (page.exhausted()) {
            LOG.info("Paged scan planned completely");
        }
        addSplits(page.splits());
    }

    private void splitsChanged() {
        pendingSplits = assigner.pendingSplitCount();
    }
}
