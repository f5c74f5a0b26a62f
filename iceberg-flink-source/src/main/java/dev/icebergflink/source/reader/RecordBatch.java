package dev.icebergflink.source.reader;

import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;

/**
 * What one fetch of the split reader returns: up to a batch size of records of one split with their
 * positions, and/or the news that a split is finished.
 *
 * <p>Records are kept in arrays and handed out through one reused {@link RecordAndPosition}, which
 * the record emitter consumes before asking for the next one.
 *
 * @param <T> the record type
 */
@Internal
public final class RecordBatch<T> implements RecordsWithSplitIds<RecordAndPosition<T>> {

    private final String splitId;
    private final Object[] records;
    private final int[] fileOffsets;
    private final long[] recordOffsets;
    private final Set<String> finishedSplits;
    private final RecordAndPosition<T> current = new RecordAndPosition<>();
    private int size;
    private int next;
    private boolean splitHandedOut;

    private RecordBatch(String splitId, int capacity, Set<String> finishedSplits) {
        this.splitId = splitId;
        this.records = new Object[capacity];
        this.fileOffsets = new int[capacity];
        this.recordOffsets = new long[capacity];
        this.finishedSplits = finishedSplits;
    }

    /** An empty batch for {@code splitId} holding at most {@code capacity} records. */
    static <T> RecordBatch<T> forSplit(String splitId, int capacity) {
        return new RecordBatch<>(splitId, capacity, Set.of());
    }

    /** A batch without records announcing that {@code splitId} is finished. */
    static <T> RecordBatch<T> finished(String splitId) {
        return new RecordBatch<>(null, 0, Set.of(splitId));
    }

    /** A batch without records and without news. */
    static <T> RecordBatch<T> empty() {
        return new RecordBatch<>(null, 0, Set.of());
    }

    /** Appends a record with the position after it. */
    void add(T record, int fileOffset, long recordOffset) {
        records[size] = record;
        fileOffsets[size] = fileOffset;
        recordOffsets[size] = recordOffset;
        size++;
    }

    /** Whether no more records fit. */
    boolean isFull() {
        return size == records.length;
    }

    /** The number of records. */
    public int size() {
        return size;
    }

    @Override
    public String nextSplit() {
        if (splitHandedOut || splitId == null || size == 0) {
            return null;
        }
        splitHandedOut = true;
        return splitId;
    }

    @Override
    @SuppressWarnings("unchecked")
    public RecordAndPosition<T> nextRecordFromSplit() {
        if (next == size) {
            return null;
        }
        current.set((T) records[next], fileOffsets[next], recordOffsets[next]);
        records[next] = null;
        next++;
        return current;
    }

    @Override
    public Set<String> finishedSplits() {
        return finishedSplits;
    }
}
