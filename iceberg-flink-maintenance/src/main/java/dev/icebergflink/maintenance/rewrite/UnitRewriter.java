package dev.icebergflink.maintenance.rewrite;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.data.RowDataFileWriterFactory;
import dev.icebergflink.tasks.codec.TableMetadataLookup;
import dev.icebergflink.tasks.reader.RowDataFileTaskReader;
import java.util.List;
import java.util.UUID;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.CombinedScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Rewrites work units of one table: reads a unit (serialized by {@link RewriteUnitSerializer}) with
 * core's {@link RowDataFileTaskReader}, which applies the unit's delete files, and writes the
 * surviving rows with a {@link RewrittenFilesWriter} (core's {@link RowDataFileWriterFactory} in
 * the given format, the table's current partition spec and write properties, files rolled at the
 * target size). Rows are read and written with the data schema, so row lineage columns are carried
 * over when the schema has them.
 *
 * <p>It is shared by the one-shot rewrite job and the streaming rewrite task. Units and results are
 * version-prefixed bytes ({@link SimpleVersionedSerialization}); a unit that fails removes the
 * files it wrote before the failure is passed on.
 */
@Internal
public final class UnitRewriter {

    private final Table table;
    private final long targetFileSize;
    private final RewriteUnitSerializer unitSerializer;
    private final WrittenFilesSerializer filesSerializer;
    private final RowDataFileTaskReader reader;
    private final RowType rowType;
    private final FileWriterFactory<RowData> fileWriters;
    private final OutputFileFactory outputFiles;

    /**
     * @param table the table, as of the units' planning or newer
     * @param dataSchema the columns read and written: the table's, maybe followed by row lineage
     * @param format the format of the new data files
     * @param targetFileSize the size at which new files are rolled
     * @param subtask the index of the task writing (part of the new files' names)
     * @param attempt the attempt number of the task writing (part of the new files' names)
     */
    public UnitRewriter(
            Table table,
            Schema dataSchema,
            FileFormat format,
            long targetFileSize,
            int subtask,
            int attempt) {
        this.table = table;
        this.targetFileSize = targetFileSize;
        this.unitSerializer = unitSerializer(table);
        this.filesSerializer = new WrittenFilesSerializer(table.specs());
        this.rowType = FlinkSchemaUtil.convert(dataSchema);
        this.fileWriters =
                RowDataFileWriterFactory.builderFor(table)
                        .dataFileFormat(format)
                        .dataSchema(dataSchema)
                        .dataFlinkType(rowType)
                        .build();
        this.outputFiles =
                OutputFileFactory.builderFor(table, subtask, attempt)
                        .format(format)
                        .operationId(UUID.randomUUID().toString())
                        .build();
        String mappingJson = table.properties().get(TableProperties.DEFAULT_NAME_MAPPING);
        NameMapping mapping = mappingJson == null ? null : NameMappingParser.fromJson(mappingJson);
        // Whole files are rewritten: the plan ignores residuals, so the reader filters nothing
        // and drops only deleted rows. Rows are read with the columns the writer writes, which
        // include the row lineage columns on tables that track row lineage.
        this.reader =
                new RowDataFileTaskReader(
                        table.schema(), dataSchema, mapping, true, table.io(), table.encryption());
    }

    /** The serializer of work units, shared by the planner and the tasks. */
    public static RewriteUnitSerializer unitSerializer(Table table) {
        return new RewriteUnitSerializer(TableMetadataLookup.of(table));
    }

    /** Rewrites one serialized unit; returns the written data files, serialized. */
    public byte[] rewrite(byte[] serializedUnit) throws Exception {
        return SimpleVersionedSerialization.writeVersionAndSerialize(
                filesSerializer, rewriteFiles(serializedUnit));
    }

    /** Rewrites one serialized unit; returns the written data files. */
    public List<DataFile> rewriteFiles(byte[] serializedUnit) throws Exception {
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
        return written;
    }

    /** The format of the new files: the table's {@code write.format.default}. */
    public static FileFormat dataFileFormat(Table table) {
        return FileFormat.fromString(
                PropertyUtil.propertyAsString(
                        table.properties(),
                        TableProperties.DEFAULT_FILE_FORMAT,
                        TableProperties.DEFAULT_FILE_FORMAT_DEFAULT));
    }

    /**
     * The columns a rewrite reads and writes: the table's columns, plus the row lineage columns
     * when the table tracks row lineage (format v3+), so that rewritten rows keep their {@code
     * _row_id} and {@code _last_updated_sequence_number} instead of getting new ones at commit.
     */
    public static Schema dataSchema(Table table) {
        return TableUtil.supportsRowLineage(table)
                ? MetadataColumns.schemaWithRowLineage(table.schema())
                : table.schema();
    }
}
