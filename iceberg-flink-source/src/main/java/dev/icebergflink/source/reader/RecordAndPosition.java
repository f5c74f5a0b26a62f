package dev.icebergflink.source.reader;

import org.apache.flink.annotation.Internal;

/**
 * A record with the reader position right after it, so that checkpointing the position of the last
 * emitted record lets a restore resume with the next one.
 *
 * <p>{@link #fileOffset()} is the index of the file task the record came from (in the split's
 * {@code task().files()} order) and {@link #recordOffset()} the number of records of that file task
 * emitted up to and including this one. Batches hand out one mutable instance per batch, so a
 * consumer must take what it needs before asking for the next record.
 *
 * @param <T> the record type
 */
@Internal
public final class RecordAndPosition<T> {

    private T record;
    private int fileOffset;
    private long recordOffset;

    /** An empty holder, to be filled with {@link #set}. */
    public RecordAndPosition() {}

    /** A holder with a record and the position after it. */
    public RecordAndPosition(T record, int fileOffset, long recordOffset) {
        set(record, fileOffset, recordOffset);
    }

    /** Replaces the record and its position. */
    public void set(T newRecord, int newFileOffset, long newRecordOffset) {
        this.record = newRecord;
        this.fileOffset = newFileOffset;
        this.recordOffset = newRecordOffset;
    }

    /** The record. */
    public T record() {
        return record;
    }

    /** Index of the file task the record came from. */
    public int fileOffset() {
        return fileOffset;
    }

    /** Records of that file task emitted up to and including this one. */
    public long recordOffset() {
        return recordOffset;
    }

    @Override
    public String toString() {
        return "RecordAndPosition{" + record + " @ " + fileOffset + "/" + recordOffset + "}";
    }
}
