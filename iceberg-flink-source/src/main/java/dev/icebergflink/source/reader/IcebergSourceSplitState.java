package dev.icebergflink.source.reader;

import dev.icebergflink.source.split.IcebergSourceSplit;
import org.apache.flink.annotation.Internal;

/**
 * The mutable reading state of one split inside a source reader: the position after the last
 * emitted record and, in watermark-column mode, the split watermark still to emit. A checkpoint
 * turns it back into a split at that position.
 */
@Internal
public final class IcebergSourceSplitState {

    /** Marks "no split watermark" (the source has no watermark column). */
    static final long NO_WATERMARK = Long.MIN_VALUE;

    private final IcebergSourceSplit split;
    private final long watermark;
    private int fileOffset;
    private long recordOffset;
    private boolean watermarkPending;

    IcebergSourceSplitState(IcebergSourceSplit split, long watermark) {
        this.split = split;
        this.watermark = watermark;
        this.fileOffset = split.fileOffset();
        this.recordOffset = split.recordOffset();
        this.watermarkPending = watermark != NO_WATERMARK;
    }

    /** Moves the position to right after a record just emitted. */
    void updatePosition(int newFileOffset, long newRecordOffset) {
        this.fileOffset = newFileOffset;
        this.recordOffset = newRecordOffset;
    }

    /** Whether the split watermark still has to be emitted (before the split's first record). */
    boolean watermarkPending() {
        return watermarkPending;
    }

    /** The split watermark, to emit once. */
    long takeWatermark() {
        watermarkPending = false;
        return watermark;
    }

    /** The split at the current position. */
    public IcebergSourceSplit toSplit() {
        return split.withPosition(fileOffset, recordOffset);
    }

    /** Index of the file task being read. */
    public int fileOffset() {
        return fileOffset;
    }

    /** Records of that file task already emitted. */
    public long recordOffset() {
        return recordOffset;
    }
}
