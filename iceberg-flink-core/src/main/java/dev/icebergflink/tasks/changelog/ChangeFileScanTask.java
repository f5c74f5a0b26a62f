package dev.icebergflink.tasks.changelog;

import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;

/**
 * One data file's share of the changes of one snapshot: which rows of the file the snapshot added
 * or removed, as a {@link FileScanTask} so that it travels in a source split like any planned task.
 *
 * <p>{@link #deletes()} are the deletes that decide which rows of the file were live on the side of
 * the change where the rows exist: in the snapshot for {@link ChangeType#ADDED_ROWS}, before it for
 * the two removing types. {@link #addedDeletes()} are, for {@link ChangeType#DELETED_ROWS} only,
 * the snapshot's new delete files that apply to the file: the removed rows are those live before
 * and deleted by one of them. Reading the file through {@code deletes()} alone therefore gives the
 * added rows, or the rows of a removed file; selecting by {@code addedDeletes()} on top gives the
 * rows a new delete removed.
 *
 * <p>It exists because Iceberg's own changelog scan does not plan tables with delete files; these
 * tasks are planned from the snapshot's added and removed files instead. Whole files only: it is
 * never split further.
 */
@Internal
public final class ChangeFileScanTask implements FileScanTask {

    private static final long serialVersionUID = 1L;

    private final FileScanTask rows;
    private final ChangeType type;
    private final long commitSnapshotId;
    private final long commitTimestampMillis;
    private final List<DeleteFile> addedDeletes;

    /**
     * @param rows the data file with the deletes that decide its live rows (see the class comment)
     * @param type what the task's rows are
     * @param commitSnapshotId the snapshot that made the change
     * @param commitTimestampMillis when that snapshot was committed (epoch milliseconds)
     * @param addedDeletes the snapshot's new deletes against the file; empty unless {@code type} is
     *     {@link ChangeType#DELETED_ROWS}, where at least one is required
     */
    public ChangeFileScanTask(
            FileScanTask rows,
            ChangeType type,
            long commitSnapshotId,
            long commitTimestampMillis,
            List<DeleteFile> addedDeletes) {
        this.rows = Objects.requireNonNull(rows, "rows");
        this.type = Objects.requireNonNull(type, "type");
        this.commitSnapshotId = commitSnapshotId;
        this.commitTimestampMillis = commitTimestampMillis;
        this.addedDeletes = List.copyOf(addedDeletes);
        if ((type == ChangeType.DELETED_ROWS) == this.addedDeletes.isEmpty()) {
            throw new IllegalArgumentException(
                    String.format(
                            "A %s change of %s %s added deletes, got %d",
                            type,
                            rows.file().location(),
                            type == ChangeType.DELETED_ROWS ? "needs" : "takes no",
                            this.addedDeletes.size()));
        }
    }

    /** What this task's rows are. */
    public ChangeType type() {
        return type;
    }

    /** The id of the snapshot that made the change. */
    public long commitSnapshotId() {
        return commitSnapshotId;
    }

    /** When the snapshot that made the change was committed, in epoch milliseconds. */
    public long commitTimestampMillis() {
        return commitTimestampMillis;
    }

    /** The snapshot's new deletes against the file ({@link ChangeType#DELETED_ROWS} only). */
    public List<DeleteFile> addedDeletes() {
        return addedDeletes;
    }

    /** The task without the change: the file read with {@link #deletes()}. */
    public FileScanTask rows() {
        return rows;
    }

    @Override
    public DataFile file() {
        return rows.file();
    }

    @Override
    public List<DeleteFile> deletes() {
        return rows.deletes();
    }

    @Override
    public Schema schema() {
        return rows.schema();
    }

    @Override
    public PartitionSpec spec() {
        return rows.spec();
    }

    @Override
    public long start() {
        return rows.start();
    }

    @Override
    public long length() {
        return rows.length();
    }

    @Override
    public Expression residual() {
        return rows.residual();
    }

    /** A change is read whole: its rows must come out in one order every time. */
    @Override
    public Iterable<FileScanTask> split(long targetSplitSize) {
        return List.of(this);
    }

    @Override
    public String toString() {
        return "ChangeFileScanTask{"
                + type
                + ", snapshot="
                + commitSnapshotId
                + ", file="
                + rows.file().location()
                + ", deletes="
                + rows.deletes().size()
                + ", addedDeletes="
                + addedDeletes.size()
                + "}";
    }
}
