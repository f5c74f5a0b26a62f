package dev.icebergflink.source.reader;

import dev.icebergflink.source.split.IcebergSourceSplit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;

/**
 * Reads the splits of one reader subtask, one split at a time in arrival order, one batch per
 * {@link #fetch()} call; a fetch that finds the current split exhausted reports it finished.
 *
 * <p>Splits can be paused for watermark alignment: a paused split that is being read is put back
 * with its reading state and another split is read meanwhile; when every split is paused, {@code
 * fetch} waits until one is resumed or the fetcher wakes it up.
 *
 * @param <T> the emitted record type
 */
@Internal
public final class IcebergSourceSplitReader<T>
        implements SplitReader<RecordAndPosition<T>, IcebergSourceSplit> {

    /** The longest time an all-paused fetch waits before returning an empty batch. */
    private static final long PAUSED_WAIT_MILLIS = 100;

    private final IcebergReaderFunction<T> readerFunction;
    private final RecordLimiter limiter;
    private final FileTaskListener listener;

    /** Splits not started, in arrival order; guarded by {@code this}. */
    private final ArrayDeque<IcebergSourceSplit> pending = new ArrayDeque<>();

    /** Splits started and then paused, with their open reading state; guarded by {@code this}. */
    private final ArrayDeque<Started<T>> parked = new ArrayDeque<>();

    /** Ids of paused splits; guarded by {@code this}. */
    private final Set<String> paused = new HashSet<>();

    private Started<T> current;
    private boolean wokenUp;

    IcebergSourceSplitReader(
            IcebergReaderFunction<T> readerFunction,
            RecordLimiter limiter,
            FileTaskListener listener) {
        this.readerFunction = Objects.requireNonNull(readerFunction, "readerFunction");
        this.limiter = Objects.requireNonNull(limiter, "limiter");
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** A split reader without limit and without metrics. */
    public IcebergSourceSplitReader(IcebergReaderFunction<T> readerFunction) {
        this(readerFunction, RecordLimiter.unlimited(), FileTaskListener.NONE);
    }

    @Override
    public RecordsWithSplitIds<RecordAndPosition<T>> fetch() throws IOException {
        if (!selectSplit()) {
            return RecordBatch.empty();
        }
        try {
            if (current.batches.hasNext()) {
                return current.batches.next();
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        String finished = current.split.splitId();
        Started<T> done = current;
        current = null;
        done.batches.close();
        return RecordBatch.finished(finished);
    }

    /** Makes {@link #current} an unpaused split; false when there is none right now. */
    private synchronized boolean selectSplit() {
        if (current != null && !paused.contains(current.split.splitId())) {
            return true;
        }
        if (current != null) {
            parked.addLast(current);
            current = null;
        }
        for (int attempt = 0; attempt < 2; attempt++) {
            Iterator<Started<T>> parkedSplits = parked.iterator();
            while (parkedSplits.hasNext()) {
                Started<T> candidate = parkedSplits.next();
                if (!paused.contains(candidate.split.splitId())) {
                    parkedSplits.remove();
                    current = candidate;
                    return true;
                }
            }
            Iterator<IcebergSourceSplit> pendingSplits = pending.iterator();
            while (pendingSplits.hasNext()) {
                IcebergSourceSplit candidate = pendingSplits.next();
                if (!paused.contains(candidate.splitId())) {
                    pendingSplits.remove();
                    current =
                            new Started<>(
                                    candidate, readerFunction.open(candidate, limiter, listener));
                    return true;
                }
            }
            if (attempt == 0 && !(pending.isEmpty() && parked.isEmpty()) && !wokenUp) {
                try {
                    wait(PAUSED_WAIT_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        wokenUp = false;
        return false;
    }

    @Override
    public synchronized void handleSplitsChanges(SplitsChange<IcebergSourceSplit> splitsChanges) {
        if (!(splitsChanges instanceof SplitsAddition)) {
            throw new UnsupportedOperationException(
                    "The Iceberg split reader only supports adding splits, got "
                            + splitsChanges.getClass().getSimpleName());
        }
        pending.addAll(splitsChanges.splits());
        notifyAll();
    }

    @Override
    public synchronized void wakeUp() {
        wokenUp = true;
        notifyAll();
    }

    @Override
    public synchronized void pauseOrResumeSplits(
            Collection<IcebergSourceSplit> splitsToPause,
            Collection<IcebergSourceSplit> splitsToResume) {
        for (IcebergSourceSplit split : splitsToPause) {
            paused.add(split.splitId());
        }
        for (IcebergSourceSplit split : splitsToResume) {
            paused.remove(split.splitId());
        }
        notifyAll();
    }

    @Override
    public synchronized void close() throws Exception {
        Exception failure = null;
        if (current != null) {
            parked.addFirst(current);
            current = null;
        }
        for (Started<T> started : parked) {
            try {
                started.batches.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        parked.clear();
        pending.clear();
        if (failure != null) {
            throw failure;
        }
    }

    /** A split being read, with its open reading state. */
    private static final class Started<T> {
        private final IcebergSourceSplit split;
        private final SplitBatchIterator<T> batches;

        private Started(IcebergSourceSplit split, SplitBatchIterator<T> batches) {
            this.split = split;
            this.batches = batches;
        }
    }
}
