package dev.icebergflink.maintenance.rewrite;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.data.RowDataFileWriterFactory;
import dev.icebergflink.tasks.codec.TableMetadataLookup;
import dev.icebergflink.tasks.reader.RowDataFileTaskReader;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;
import org.apache.iceberg.CombinedScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SerializableTable;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;

/**
 * The task of the rewrite job: reads one work unit (serialized by {@link RewriteUnitSerializer})
 * with core's {@link RowDataFileTaskReader}, which applies the unit's delete files, and writes the
 * surviving rows with a {@link RewrittenFilesWriter} (core's {@link RowDataFileWriterFactory} in
 * the given format, the table's current partition spec and write properties, files rolled at the
 * rewrite's target size). Rows are read and written with the data schema, so row lineage columns
 * are carried over when the schema has them. It emits the written data files, serialized by {@link
 * WrittenFilesSerializer}.
 *
 * <p>Units and results travel as version-prefixed bytes ({@link SimpleVersionedSerialization}), so
 * that the job needs no Java-serialized Iceberg objects besides the table copy the function
 * carries. A unit that fails removes the files it wrote before the failure is passed on.
 */
@Internal
public final class RewriteUnitFunction extends RichFlatMapFunction<byte[], byte[]> {

    private static final long serialVersionUID = 1L;

    private final Table table;
    private final Schema dataSchema;
    private final FileFormat format;
    private final long targetFileSize;

    private transient RewriteUnitSerializer unitSerializer;
    private transient WrittenFilesSerializer filesSerializer;
    private transient RowDataFileTaskReader reader;
    private transient RowType rowType;
    private transient FileWriterFactory<RowData> fileWriters;
    private transient OutputFileFactory outputFiles;

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

    /** The serializer of work units, shared by the job's input and the tasks. */
    public static RewriteUnitSerializer unitSerializer(Table table) {
        return new RewriteUnitSerializer(TableMetadataLookup.of(table));
    }

    @Override
    public void open(OpenContext openContext) {
        TaskInfo task = getRuntimeContext().getTaskInfo();
        unitSerializer = unitSerializer(table);
        filesSerializer = new WrittenFilesSerializer(table.specs());
        rowType = FlinkSchemaUtil.convert(dataSchema);
        fileWriters =
                RowDataFileWriterFactory.builderFor(table)
                        .dataFileFormat(format)
                        .dataSchema(dataSchema)
                        .dataFlinkType(rowType)
                        .build();
        outputFiles =
                OutputFileFactory.builderFor(
                                table, task.getIndexOfThisSubtask(), task.getAttemptNumber())
                        .format(format)
                        .operationId(UUID.randomUUID().toString())
                        .build();
        String mappingJson = table.properties().get(TableProperties.DEFAULT_NAME_MAPPING);
        NameMapping mapping = mappingJson == null ? null : NameMappingParser.fromJson(mappingJson);
        // Whole files are rewritten: the plan ignores residuals, so the reader filters nothing
        // and drops only deleted rows. Rows are read with the columns the writer writes, which
        // include the row lineage columns on tables that track row lineage.
        reader =
                new RowDataFileTaskReader(
                        table.schema(), dataSchema, mapping, true, table.io(), table.encryption());
    }

    @Override
    public void flatMap(byte[] serializedUnit, Collector<byte[]> out) throws Exception {
        CombinedScanTask unit =
                SimpleVersionedSerialization.readVersionAndDeSerialize(
                        unitSerializer, serializedUnit);
        RewrittenFilesWriter writer =
                new RewrittenFilesWriter(table, rowType, fileWriters, outputFiles, targetFileSize);
        List<DataFile> written;
        try {
            for (FileScanTask file : unit.files()) {
                try (CloseableIterable<RowData> rows = reader.open(file)) {
                    for (RowData row : rows) {
                        writer.write(row);
                    }
                }
            }
            written = writer.complete();
        } catch (Exception e) {
            writer.abort(e);
            throw e;
        }
        out.collect(
                SimpleVersionedSerialization.writeVersionAndSerialize(filesSerializer, written));
    }
}
