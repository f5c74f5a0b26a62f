package dev.icebergflink.maintenance.rewrite;

import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.util.Collector;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SerializableTable;
import org.apache.iceberg.Table;

/**
 * The task of the one-shot rewrite job: rewrites each work unit it receives with a {@link
 * UnitRewriter} over the table copy it carries, and emits the written data files (serialized by
 * {@link WrittenFilesSerializer}).
 */
@Internal
public final class RewriteUnitFunction extends RichFlatMapFunction<byte[], byte[]> {

    private static final long serialVersionUID = 1L;

    private final Table table;
    private final Schema dataSchema;
    private final FileFormat format;
    private final long targetFileSize;

    private transient UnitRewriter rewriter;

    /**
     * @param table the table (a serializable copy is taken)
     * @param dataSchema the columns read and written: the table's, maybe followed by row lineage
     * @param format the format of the new data files
     * @param targetFileSize the size at which new files are rolled
     */
    public RewriteUnitFunction(
            Table table, Schema dataSchema, FileFormat format, long targetFileSize) {
        Objects.requireNonNull(table, "table");
        this.table = table instanceof SerializableTable ? table : SerializableTable.copyOf(table);
        this.dataSchema = Objects.requireNonNull(dataSchema, "dataSchema");
        this.format = Objects.requireNonNull(format, "format");
        this.targetFileSize = targetFileSize;
    }

    @Override
    public void open(OpenContext openContext) {
        TaskInfo task = getRuntimeContext().getTaskInfo();
        rewriter =
                new UnitRewriter(
                        table,
                        dataSchema,
                        format,
                        targetFileSize,
                        task.getIndexOfThisSubtask(),
                        task.getAttemptNumber());
    }

    @Override
    public void flatMap(byte[] serializedUnit, Collector<byte[]> out) throws Exception {
        out.collect(rewriter.rewrite(serializedUnit));
    }
}
