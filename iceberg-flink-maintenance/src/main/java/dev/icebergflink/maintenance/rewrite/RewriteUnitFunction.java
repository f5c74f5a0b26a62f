package dev.icebergflink.maintenance.rewrite;

import dev.icebergflink.sink.committer.WriteResultSerializer;
import dev.icebergflink.sink.writer.RowDataTaskWriterFactory;
import dev.icebergflink.tasks.reader.RowDataFileTaskReader;
import dev.icebergflink.source.split.IcebergSourceSplit;
import dev.icebergflink.source.split.IcebergSourceSplitSerializer;
import dev.icebergflink.source.split.SplitTableMetadata;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.SerializableTable;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;

/**
 * The task of the rewrite job: reads one work unit (a serialized {@link IcebergSourceSplit}) with
 * the source's {@link RowDataFileTaskReader}, which applies the unit's delete files, and writes the
 * surviving rows with the sink's {@link RowDataTaskWriterFactory} (the table's format, current
 * partition spec and write properties; files rolled at the rewrite's target size), with the
 * writer's data schema, so row lineage columns are carried over when the writer writes them. It
 * emits the written data files, serialized with the sink's {@link WriteResultSerializer}.
 *
 * <p>Units and results travel as bytes in the sink's and source's versioned formats, so that the
 * job needs no Java-serialized Iceberg objects besides the table copy the function carries. A unit
 * that fails removes the files it wrote before the failure is passed on.
 */
@Internal
public final class RewriteUnitFunction extends RichFlatMapFunction<byte[], byte[]> {

    private static final long serialVersionUID = 1L;

    private final Table table;
    private final RowDataTaskWriterFactory writerFactory;

    private transient IcebergSourceSplitSerializer unitSerializer;
    private transient WriteResultSerializer resultSerializer;
    private transient RowDataFileTaskReader reader;

    /**
     * @param table the table (a serializable copy is taken)
     * @param writerFactory how output files are written
     */
    public RewriteUnitFunction(Table table, RowDataTaskWriterFactory writerFactory) {
        Objects.requireNonNull(table, "table");
        this.table = table instanceof SerializableTable ? table : SerializableTable.copyOf(table);
        this.writerFactory = Objects.requireNonNull(writerFactory, "writerFactory");
    }

    /** The serializer of work units, shared by the planner side and the tasks. */
    public static IcebergSourceSplitSerializer unitSerializer(Table table) {
        return new IcebergSourceSplitSerializer(SplitTableMetadata.of(table));
    }

    @Override
    public void open(OpenContext openContext) {
        TaskInfo task = getRuntimeContext().getTaskInfo();
        writerFactory.initialize(task.getIndexOfThisSubtask(), task.getAttemptNumber());
        unitSerializer = unitSerializer(table);
        resultSerializer = WriteResultSerializer.forSpecs(table.specs());
        String mappingJson = table.properties().get(TableProperties.DEFAULT_NAME_MAPPING);
        NameMapping mapping = mappingJson == null ? null : NameMappingParser.fromJson(mappingJson);
        // Whole files are rewritten: the plan ignores residuals, so the reader filters nothing
        // and drops only deleted rows. Rows are read with the columns the writer writes, which
        // include the row lineage columns on tables that track row lineage.
        reader =
                new RowDataFileTaskReader(
                        table.schema(),
                        writerFactory.dataSchema(),
                        mapping,
                        true,
                        table.io(),
                        table.encryption());
    }

    @Override
    public void flatMap(byte[] serializedUnit, Collector<byte[]> out) throws Exception {
        IcebergSourceSplit unit =
                unitSerializer.deserialize(
                        IcebergSourceSplitSerializer.CURRENT_VERSION, serializedUnit);
        TaskWriter<RowData> writer = writerFactory.create();
        WriteResult result;
        try {
            for (FileScanTask file : unit.task().files()) {
                try (CloseableIterable<RowData> rows = reader.open(file)) {
                    for (RowData row : rows) {
                        writer.write(row);
                    }
                }
            }
            result = writer.complete();
        } catch (Exception e) {
            try {
                writer.abort();
            } catch (Exception abortFailure) {
                e.addSuppressed(abortFailure);
            }
            throw e;
        }
        out.collect(resultSerializer.serialize(result));
    }
}
