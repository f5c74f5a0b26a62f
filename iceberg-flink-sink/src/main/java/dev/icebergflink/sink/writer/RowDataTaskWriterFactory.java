package dev.icebergflink.sink.writer;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.data.OpenedFiles;
import dev.icebergflink.data.RowDataFileWriterFactory;
import dev.icebergflink.sink.distribution.EqualityKeyBytes;
import java.io.Serializable;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SerializableTable;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.types.Types;

/**
 * Creates the {@link TaskWriter} of one writer subtask: an {@link AppendTaskWriter} for {@link
 * WriterMode#APPEND} and {@link WriterMode#INSERT_ONLY}, a {@link DeltaTaskWriter} for upsert and
 * changelog writes.
 *
 * <p>It exists so that the sink decides once, at build time, how rows are written (format, target
 * size, writer properties, equality fields, mode) and ships that decision to the subtasks. It
 * carries a {@link SerializableTable} copy taken when the sink was built, so every subtask writes
 * with the schema and partition spec that were validated. Call {@link #initialize} once per
 * subtask, then {@link #create} once per checkpoint.
 */
@Internal
public final class RowDataTaskWriterFactory implements Serializable {

    private static final long serialVersionUID = 1L;

    private final Table table;
    private final Schema dataSchema;
    private final RowType flinkType;
    private final FileFormat format;
    private final long targetFileSizeBytes;
    private final Map<String, String> writeProperties;
    private final WriterMode mode;
    private final int[] equalityFieldIds;
    private final long keyTrackingMemory;
    private final String spillDirectory;

    private transient RowDataFileWriterFactory fileWriterFactory;
    private transient OutputFileFactory outputFileFactory;

    /**
     * @param table the table written (a serializable copy is taken)
     * @param flinkType the type of the incoming rows; its fields match the table's columns by
     *     position
     * @param format the format of data and delete files
     * @param targetFileSizeBytes the size at which files are rolled
     * @param writePropertyOverrides writer properties that override the table's
     * @param mode what to do with each row kind
     * @param equalityFieldIds the key of equality deletes; empty means whole-row deletes in {@link
     *     WriterMode#CHANGELOG}; required for {@link WriterMode#UPSERT}
     */
    public RowDataTaskWriterFactory(
            Table table,
            RowType flinkType,
            FileFormat format,
            long targetFileSizeBytes,
            Map<String, String> writePropertyOverrides,
            WriterMode mode,
            List<Integer> equalityFieldIds) {
        this(
                table,
                table.schema(),
                flinkType,
                format,
                targetFileSizeBytes,
                writePropertyOverrides,
                mode,
                equalityFieldIds);
    }

    /**
     * A factory whose data files carry trailing metadata columns after the table's columns: the row
     * lineage columns {@link MetadataColumns#ROW_ID} and {@link
     * MetadataColumns#LAST_UPDATED_SEQUENCE_NUMBER}, which a rewrite of a format v3 table writes so
     * that rows keep their ids (see {@link MetadataColumns#schemaWithRowLineage}). Only {@link
     * WriterMode#APPEND} writes such columns.
     *
     * @param table the table written (a serializable copy is taken)
     * @param dataSchema the table's columns, in order, optionally followed by the row lineage
     *     columns
     * @param flinkType the type of the incoming rows; its fields match {@code dataSchema}'s columns
     *     by position
     * @param format the format of data and delete files
     * @param targetFileSizeBytes the size at which files are rolled
     * @param writePropertyOverrides writer properties that override the table's
     * @param mode what to do with each row kind
     * @param equalityFieldIds the key of equality deletes; empty means whole-row deletes in {@link
     *     WriterMode#CHANGELOG}; required for {@link WriterMode#UPSERT}
     */
    public RowDataTaskWriterFactory(
            Table table,
            Schema dataSchema,
            RowType flinkType,
            FileFormat format,
            long targetFileSizeBytes,
            Map<String, String> writePropertyOverrides,
            WriterMode mode,
            List<Integer> equalityFieldIds) {
        this.table = table instanceof SerializableTable ? table : SerializableTable.copyOf(table);
        this.dataSchema = Objects.requireNonNull(dataSchema, "dataSchema");
        this.flinkType = Objects.requireNonNull(flinkType, "flinkType");
        this.format = Objects.requireNonNull(format, "format");
        this.targetFileSizeBytes = targetFileSizeBytes;
        Map<String, String> properties = new HashMap<>(table.properties());
        properties.putAll(writePropertyOverrides);
        this.writeProperties = properties;
        this.mode = Objects.requireNonNull(mode, "mode");
        this.equalityFieldIds = equalityFieldIds.stream().mapToInt(Integer::intValue).toArray();
        this.keyTrackingMemory = 0;
        this.spillDirectory = null;
        if (mode == WriterMode.UPSERT && this.equalityFieldIds.length == 0) {
            throw new IllegalArgumentException("Upsert writers need equality field ids");
        }
        checkDataSchema(table.schema(), dataSchema, mode);
        if (flinkType.getFieldCount() != dataSchema.columns().size()) {
            throw new IllegalArgumentException(
                    String.format(
                            "The input row type %s does not have one field per table column %s",
                            flinkType, dataSchema.asStruct()));
        }
    }

    private RowDataTaskWriterFactory(
            RowDataTaskWriterFactory base, long keyTrackingMemory, String spillDirectory) {
        this.table = base.table;
        this.dataSchema = base.dataSchema;
        this.flinkType = base.flinkType;
        this.format = base.format;
        this.targetFileSizeBytes = base.targetFileSizeBytes;
        this.writeProperties = base.writeProperties;
        this.mode = base.mode;
        this.equalityFieldIds = base.equalityFieldIds;
        this.keyTrackingMemory = keyTrackingMemory;
        this.spillDirectory = spillDirectory;
    }

    private RowDataTaskWriterFactory(RowDataTaskWriterFactory base, Table newTable) {
        this.table =
                newTable instanceof SerializableTable
                        ? newTable
                        : SerializableTable.copyOf(newTable);
        this.dataSchema = newTable.schema();
        this.flinkType = FlinkSchemaUtil.convert(newTable.schema());
        this.format = base.format;
        this.targetFileSizeBytes = base.targetFileSizeBytes;
        this.writeProperties = base.writeProperties;
        this.mode = base.mode;
        this.equalityFieldIds = base.equalityFieldIds;
        this.keyTrackingMemory = base.keyTrackingMemory;
        this.spillDirectory = base.spillDirectory;
    }

    /**
     * A copy of this factory that writes {@code newTable} as it is now: its current schema (rows of
     * the new factory follow it) and spec, with this factory's format, sizes, writer properties,
     * mode, equality fields and key tracking. Call {@link #initialize} on the copy.
     *
     * @throws IllegalArgumentException when the table lost an equality field
     */
    public RowDataTaskWriterFactory forTable(Table newTable) {
        for (int id : equalityFieldIds) {
            if (newTable.schema().findField(id) == null) {
                throw new IllegalArgumentException(
                        String.format(
                                "Table %s no longer has the equality field with id %d; the"
                                        + " writers cannot follow its new schema %s",
                                newTable.name(), id, newTable.schema().asStruct()));
            }
        }
        return new RowDataTaskWriterFactory(this, newTable);
    }

    /**
     * A copy of this factory whose delta writers take several changes of one key within a
     * checkpoint themselves: they write every change as it comes and delete, by position, each row
     * that a later change of its key superseded. Needs equality fields, and input in which all
     * changes of a key reach the same writer subtask in order (BATCH execution with the input
     * partitioned by key hash).
     *
     * @param memoryBytes memory for the keys of one checkpoint before they spill to disk
     * @param spillDirectory where keys spill to; null for the JVM's {@code java.io.tmpdir} (the
     *     sink passes the TaskManager's {@code io.tmp.dirs}, see {@link SpillDirectory})
     */
    public RowDataTaskWriterFactory withKeyTracking(long memoryBytes, String spillDirectory) {
        if (mode.appendsOnly() || equalityFieldIds.length == 0) {
            throw new IllegalStateException(
                    "Key tracking needs an upsert or changelog writer with equality fields");
        }
        return new RowDataTaskWriterFactory(this, memoryBytes, spillDirectory);
    }

    /**
     * Whether the delta writers resolve several changes of one key (see {@link #withKeyTracking}).
     */
    public boolean tracksKeys() {
        return keyTrackingMemory > 0;
    }

    /** Checks that {@code dataSchema} is the table's columns, then only row lineage columns. */
    private static void checkDataSchema(Schema tableSchema, Schema dataSchema, WriterMode mode) {
        List<Types.NestedField> tableColumns = tableSchema.columns();
        List<Types.NestedField> dataColumns = dataSchema.columns();
        boolean prefix = dataColumns.size() >= tableColumns.size();
        for (int pos = 0; prefix && pos < tableColumns.size(); pos++) {
            prefix = tableColumns.get(pos).fieldId() == dataColumns.get(pos).fieldId();
        }
        if (!prefix) {
            throw new IllegalArgumentException(
                    String.format(
                            "The data schema %s must start with the table's columns %s, in order",
                            dataSchema.asStruct(), tableSchema.asStruct()));
        }
        List<Types.NestedField> extra =
                dataColumns.subList(tableColumns.size(), dataColumns.size());
        for (Types.NestedField field : extra) {
            int id = field.fieldId();
            if (id != MetadataColumns.ROW_ID.fieldId()
                    && id != MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.fieldId()) {
                throw new IllegalArgumentException(
                        String.format(
                                "Cannot write column '%s' (id %d) after the table's columns: only"
                                        + " the row lineage columns '%s' and '%s' are allowed there",
                                field.name(),
                                id,
                                MetadataColumns.ROW_ID.name(),
                                MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.name()));
            }
        }
        if (!extra.isEmpty() && !mode.appendsOnly()) {
            throw new IllegalArgumentException(
                    "Row lineage columns can only be written in APPEND mode, not " + mode);
        }
    }

    /** The table the writers write to. */
    public Table table() {
        return table;
    }

    /** The schema of the data files written: the table's columns, maybe with row lineage. */
    public Schema dataSchema() {
        return dataSchema;
    }

    /** The writer mode. */
    public WriterMode mode() {
        return mode;
    }

    /** Prepares file naming for one subtask; file names carry the subtask and attempt. */
    public void initialize(int subtaskId, int attemptId) {
        this.outputFileFactory =
                OutputFileFactory.builderFor(table, subtaskId, attemptId)
                        .format(format)
                        .operationId(UUID.randomUUID().toString())
                        .build();
        this.fileWriterFactory = buildFileWriterFactory();
    }

    /** A new writer for one checkpoint's rows. */
    public TaskWriter<RowData> create() {
        if (outputFileFactory == null) {
            throw new IllegalStateException("initialize(subtaskId, attemptId) was not called");
        }
        // every file the task writer opens is recorded, so that a failed completion or an abort
        // removes them all
        OpenedFiles opened = new OpenedFiles();
        FileWriterFactory<RowData> writers = opened.recording(fileWriterFactory);
        if (mode.appendsOnly()) {
            return new AppendTaskWriter(
                    table,
                    flinkType,
                    writers,
                    outputFileFactory,
                    targetFileSizeBytes,
                    opened,
                    mode == WriterMode.INSERT_ONLY);
        }
        return new DeltaTaskWriter(
                table,
                flinkType,
                writers,
                outputFileFactory,
                targetFileSizeBytes,
                opened,
                mode,
                deleteProjection(),
                tracksKeys() ? keyTracking(writers, opened) : null);
    }

    private DeltaTaskWriter.KeyTracking keyTracking(
            FileWriterFactory<RowData> writers, OpenedFiles opened) {
        String directory =
                spillDirectory != null ? spillDirectory : System.getProperty("java.io.tmpdir");
        return new DeltaTaskWriter.KeyTracking(
                new EqualityKeyBytes(flinkType, keyPositions()),
                new SupersededRows(keyTrackingMemory, Paths.get(directory)),
                new WrittenRowDeletes(table, writers, outputFileFactory, writeProperties, opened));
    }

    private RowDataFileWriterFactory buildFileWriterFactory() {
        RowDataFileWriterFactory.Builder builder =
                RowDataFileWriterFactory.builderFor(table)
                        .dataFileFormat(format)
                        .deleteFileFormat(format)
                        .dataSchema(dataSchema)
                        .dataFlinkType(flinkType)
                        .writeProperties(writeProperties);
        if (!mode.appendsOnly()) {
            int[] ids = deleteFieldIds();
            builder.equalityFieldIds(ids);
            if (equalityFieldIds.length > 0) {
                Set<Integer> keyIds = new LinkedHashSet<>();
                Arrays.stream(ids).forEach(keyIds::add);
                Schema keySchema = new Schema(keyColumns(keyIds));
                builder.equalityDeleteRowSchema(keySchema)
                        .equalityDeleteFlinkType(deleteProjection().projectedType());
            }
        }
        return builder.build();
    }

    /** Key columns in table order; the projection produces them in the same order. */
    private List<Types.NestedField> keyColumns(Set<Integer> keyIds) {
        return table.schema().columns().stream()
                .filter(field -> keyIds.contains(field.fieldId()))
                .toList();
    }

    /** The field ids of equality deletes: the key, or every top-level primitive column. */
    private int[] deleteFieldIds() {
        if (equalityFieldIds.length > 0) {
            return equalityFieldIds;
        }
        return table.schema().columns().stream()
                .filter(field -> field.type().isPrimitiveType())
                .mapToInt(Types.NestedField::fieldId)
                .toArray();
    }

    /** Projects incoming rows to the rows written into equality-delete files; null = whole row. */
    private RowDataProjection deleteProjection() {
        if (equalityFieldIds.length == 0) {
            return null;
        }
        return new RowDataProjection(flinkType, keyPositions());
    }

    /** Top-level positions of the equality fields, in table order. */
    private int[] keyPositions() {
        Set<Integer> keyIds = new LinkedHashSet<>();
        Arrays.stream(equalityFieldIds).forEach(keyIds::add);
        List<Types.NestedField> columns = table.schema().columns();
        int[] positions = new int[keyIds.size()];
        int next = 0;
        for (int pos = 0; pos < columns.size(); pos++) {
            if (keyIds.contains(columns.get(pos).fieldId())) {
                positions[next++] = pos;
            }
        }
        if (next != positions.length) {
            throw new IllegalArgumentException(
                    String.format(
                            "Equality field ids %s must all be top-level columns of %s",
                            keyIds, table.schema().asStruct()));
        }
        return positions;
    }
}
