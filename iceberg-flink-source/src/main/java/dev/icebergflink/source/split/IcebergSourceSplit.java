package dev.icebergflink.source.split;

import dev.icebergflink.tasks.changelog.ChangeFileScanTask;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.iceberg.CombinedScanTask;
import org.apache.iceberg.FileScanTask;

/**
 * One unit of work of the Iceberg source: an Iceberg {@link CombinedScanTask} (one or more file
 * ranges with their delete files and residual filter) plus the position a reader reached in it.
 *
 * <p>It exists so that the enumerator can hand out planned work and a reader can checkpoint where
 * it stopped: {@link #fileOffset()} is the index of the file task being read (in the order of
 * {@code task().files()}), {@link #recordOffset()} the number of records already emitted from that
 * file task. A reader resuming a split skips the first {@code fileOffset} file tasks and the first
 * {@code recordOffset} records of the next one. A fresh split has position (0, 0).
 *
 * <p>Splits are immutable: {@link #withPosition} returns a copy. The {@link #splitId()} is derived
 * from the file ranges when the split is created and stays the same for every position; it is
 * unique among the splits of one source as long as no file range is planned twice (a change of a
 * file counts with its snapshot and change type).
 */
@PublicEvolving
public final class IcebergSourceSplit implements SourceSplit {

    private final String splitId;
    private final CombinedScanTask task;
    private final int fileOffset;
    private final long recordOffset;

    private IcebergSourceSplit(
            String splitId, CombinedScanTask task, int fileOffset, long recordOffset) {
        this.splitId = Objects.requireNonNull(splitId, "splitId");
        this.task = Objects.requireNonNull(task, "task");
        if (fileOffset < 0 || recordOffset < 0) {
            throw new IllegalArgumentException(
                    String.format(
                            "A split position must not be negative, got fileOffset=%d,"
                                    + " recordOffset=%d for split %s",
                            fileOffset, recordOffset, splitId));
        }
        this.fileOffset = fileOffset;
        this.recordOffset = recordOffset;
    }

    /** A fresh split (position 0, 0) of the planned task, with an id derived from its files. */
    public static IcebergSourceSplit fromCombinedScanTask(CombinedScanTask task) {
        return new IcebergSourceSplit(deriveId(task), task, 0, 0L);
    }

    /**
     * A split with an id and a position, for serializers and readers restoring state.
     *
     * @throws IllegalArgumentException if the position is negative
     */
    public static IcebergSourceSplit of(
            String splitId, CombinedScanTask task, int fileOffset, long recordOffset) {
        return new IcebergSourceSplit(splitId, task, fileOffset, recordOffset);
    }

    @Override
    public String splitId() {
        return splitId;
    }

    /** The planned work: file ranges, their delete files and residual filters. */
    public CombinedScanTask task() {
        return task;
    }

    /** Index (in {@code task().files()}) of the file task the reader is in. */
    public int fileOffset() {
        return fileOffset;
    }

    /** Records already emitted from the file task at {@link #fileOffset()}. */
    public long recordOffset() {
        return recordOffset;
    }

    /** This split with another reader position; the id and the task stay the same. */
    public IcebergSourceSplit withPosition(int newFileOffset, long newRecordOffset) {
        return new IcebergSourceSplit(splitId, task, newFileOffset, newRecordOffset);
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof IcebergSourceSplit that)) {
            return false;
        }
        return splitId.equals(that.splitId)
                && fileOffset == that.fileOffset
                && recordOffset == that.recordOffset;
    }

    @Override
    public int hashCode() {
        return Objects.hash(splitId, fileOffset, recordOffset);
    }

    @Override
    public String toString() {
        return "IcebergSourceSplit{id="
                + splitId
                + ", files="
                + task.files().size()
                + ", fileOffset="
                + fileOffset
                + ", recordOffset="
                + recordOffset
                + "}";
    }

    /**
     * A stable id from the split's file ranges: the first file's name for readability plus a hash
     * of every (location, start, length), so that the id is short whatever the number of files.
     */
    private static String deriveId(CombinedScanTask task) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
        String first = null;
        for (FileScanTask file : task.files()) {
            String location = file.file().location();
            if (first == null) {
                first = location.substring(location.lastIndexOf('/') + 1);
            }
            digest.update(location.getBytes(StandardCharsets.UTF_8));
            if (file instanceof ChangeFileScanTask change) {
                // one file may hold changes of many snapshots
                digest.update(
                        ("@" + change.commitSnapshotId() + "/" + change.type())
                                .getBytes(StandardCharsets.UTF_8));
            }
            digest.update(
                    (":" + file.start() + "+" + file.length() + ";")
                            .getBytes(StandardCharsets.UTF_8));
        }
        byte[] hash = digest.digest();
        return (first == null ? "empty" : first) + "-" + HexFormat.of().formatHex(hash, 0, 12);
    }
}
