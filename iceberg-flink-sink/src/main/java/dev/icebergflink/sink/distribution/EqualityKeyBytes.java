package dev.icebergflink.sink.distribution;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Encodes the equality keys of rows one after the other into one reused buffer: the bytes of {@link
 * EqualityKey}, without an object per row.
 *
 * <p>It exists for the per-row paths that only look at a key's bytes and never keep them: the
 * writers' key tracking and the partitioning of rows by key hash. Not thread-safe; one per task.
 */
@Internal
public final class EqualityKeyBytes {

    private final EqualityKeyEncoder encoder;
    private final EqualityKeyEncoder.KeyBuffer buffer;

    /** Encodes the key columns at top-level {@code positions} of rows of {@code rowType}. */
    public EqualityKeyBytes(RowType rowType, int[] positions) {
        this.encoder = new EqualityKeyEncoder(rowType, positions);
        this.buffer = encoder.newBuffer();
    }

    /**
     * Encodes the key of {@code row}; returns its length. The bytes are {@link #bytes()}{@code [0,
     * length)} until the next call.
     */
    public int encode(RowData row) {
        encoder.encodeInto(row, buffer);
        return buffer.size();
    }

    /** The buffer holding the last encoded key. */
    public byte[] bytes() {
        return buffer.bytes();
    }

    /**
     * The hash of the last encoded key: the same as {@link EqualityKey#hashCode()} of that key, so
     * that it is the same in every JVM.
     */
    public int hash() {
        byte[] bytes = buffer.bytes();
        int hash = 1;
        for (int i = 0, size = buffer.size(); i < size; i++) {
            hash = 31 * hash + bytes[i];
        }
        return hash;
    }
}
