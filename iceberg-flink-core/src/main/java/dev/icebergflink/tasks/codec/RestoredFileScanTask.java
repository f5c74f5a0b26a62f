package dev.icebergflink.tasks.codec;

import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;

/**
 * A {@link FileScanTask} rebuilt from its serialized form: one byte range of a data file, its
 * delete files, residual filter, partition spec and schema.
 *
 * <p>It exists because Iceberg offers no public constructor for a task over a byte range of a file
 * with known schema and spec objects; {@link FileScanTaskCodec} builds these instead, and tests
 * build them to make tasks of chosen ranges.
 */
@Internal
public final class RestoredFileScanTask implements FileScanTask {

    private static final long serialVersionUID = 1L;

    private final DataFile file;
    private final List<DeleteFile> deletes;
    private final Schema schema;
    private final PartitionSpec spec;
    private final Expression residual;
    private final long start;
    private final long length;

    public RestoredFileScanTask(
            DataFile file,
            List<DeleteFile> deletes,
            Schema schema,
            PartitionSpec spec,
            Expression residual,
            long start,
            long length) {
        this.file = file;
        this.deletes = List.copyOf(deletes);
        this.schema = schema;
        this.spec = spec;
        this.residual = residual;
        this.start = start;
        this.length = length;
    }

    @Override
    public DataFile file() {
        return file;
    }

    @Override
    public List<DeleteFile> deletes() {
        return deletes;
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public PartitionSpec spec() {
        return spec;
    }

    @Override
    public long start() {
        return start;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public Expression residual() {
        return residual;
    }

    /** Restored tasks are already planned ranges and are not split further. */
    @Override
    public Iterable<FileScanTask> split(long targetSplitSize) {
        return List.of(this);
    }

    @Override
    public String toString() {
        return "RestoredFileScanTask{file="
                + file.location()
                + ", start="
                + start
                + ", length="
                + length
                + ", deletes="
                + deletes.size()
                + ", residual="
                + residual
                + "}";
    }
}
