package dev.icebergflink.tasks.reader;

import dev.icebergflink.data.RowDataFileReaders;
import dev.icebergflink.data.row.RowDataConstants;
import dev.icebergflink.data.row.RowDataStructLike;
import dev.icebergflink.types.IcebergToFlinkTypeConverter;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.encryption.EncryptingFileIO;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.formats.ReadBuilder;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.PartitionUtil;

/**
 * Reads one Iceberg {@link FileScanTask} as Flink {@link RowData} of a projected schema, with
 * everything a correct read of a table needs: only the task's byte range of the file, partition and
 * metadata columns filled from the task ({@code _file}, {@code _spec_id}, {@code _partition},
 * {@code _pos}, identity partition values), the table's name mapping for files written without
 * field ids, the task's delete files (position deletes, equality deletes, deletion vectors) and its
 * residual filter.
 *
 * <p>The file is read with more columns than requested when the residual filter or the equality
 * deletes need columns outside the projection (a filter may name columns that are not projected);
 * those extra columns are dropped again before rows are returned, so rows always have exactly the
 * fields of the projected schema, in its order.
 *
 * <p>A column of the projection that was widened after the reader was built (its type in the task's
 * schema is wider) is read with the wider type and narrowed back to the projected one ({@link
 * WidenedColumns}), so the rows keep the projected types.
 *
 * <p>Rows are fresh objects (container reuse is off), so callers may keep them.
 */
@Internal
public final class RowDataFileTaskReader implements Serializable {

    private static final long serialVersionUID = 1L;

    private final Schema tableSchema;
    private final Schema projectedSchema;
    private final NameMapping nameMapping;
    private final boolean caseSensitive;
    private final FileIO io;
    private final EncryptionManager encryption;

    /**
     * @param tableSchema the table schema the reader was built with (filters and delete files refer
     *     to it)
     * @param projectedSchema the columns to return, possibly with metadata columns
     * @param nameMapping the table's name mapping, or null
     * @param caseSensitive whether residual filters match column names case-sensitively
     * @param io the table's file IO
     * @param encryption the table's encryption manager
     */
    public RowDataFileTaskReader(
            Schema tableSchema,
            Schema projectedSchema,
            NameMapping nameMapping,
            boolean caseSensitive,
            FileIO io,
            EncryptionManager encryption) {
        this.tableSchema = Objects.requireNonNull(tableSchema, "tableSchema");
        this.projectedSchema = Objects.requireNonNull(projectedSchema, "projectedSchema");
        this.nameMapping = nameMapping;
        this.caseSensitive = caseSensitive;
        this.io = Objects.requireNonNull(io, "io");
        this.encryption = Objects.requireNonNull(encryption, "encryption");
    }

    /** The schema of the rows this reader returns. */
    public Schema projectedSchema() {
        return projectedSchema;
    }

    /** The Flink row type of the rows this reader returns. */
    public RowType producedRowType() {
        return IcebergToFlinkTypeConverter.convertStruct(projectedSchema.asStruct());
    }

    /** Opens the task; the caller closes the returned iterable. */
    public CloseableIterable<RowData> open(FileScanTask task) {
        return open(task, List.of());
    }

    /**
     * Opens the task and returns only the rows that one of {@code addedDeletes} deletes: of the
     * rows live under the task's own deletes, those a newer set of delete files removes. This is
     * how a changelog read finds the rows a snapshot's new deletes took away; the deletes must
     * apply to the task's file (as the table's delete index would apply them). The caller closes
     * the returned iterable.
     *
     * @throws IllegalArgumentException when {@code addedDeletes} is empty
     */
    public CloseableIterable<RowData> openDeletedRows(
            FileScanTask task, List<DeleteFile> addedDeletes) {
        if (addedDeletes.isEmpty()) {
            throw new IllegalArgumentException(
                    "No added deletes to select the deleted rows of " + task.file().location());
        }
        return open(task, addedDeletes);
    }

    private CloseableIterable<RowData> open(FileScanTask task, List<DeleteFile> selecting) {
        EncryptingFileIO files = EncryptingFileIO.combine(io, encryption);
        Expression residual = task.residual();
        boolean filtering = residual != null && residual.op() != Expression.Operation.TRUE;
        // Columns widened since this reader was built are read with their wider type and
        // narrowed back at the end (WidenedColumns); usually there are none.
        Schema taskSchema = task.schema();
        Schema projection = WidenedColumns.widen(projectedSchema, taskSchema);
        Schema table =
                filtering || !task.deletes().isEmpty() || !selecting.isEmpty()
                        ? WidenedColumns.widen(tableSchema, taskSchema)
                        : tableSchema;
        Schema readSchema =
                filtering
                        ? withFilterColumns(table, projection, residual, caseSensitive)
                        : projection;

        String location = task.file().location();
        RowDataDeleteFilter deletes =
                task.deletes().isEmpty()
                        ? null
                        : new RowDataDeleteFilter(
                                location, task.deletes(), table, readSchema, files);
        Schema fileSchema = deletes == null ? readSchema : deletes.requiredSchema();
        // The selecting deletes need their own columns: they come after the first filter's, so
        // that each filter finds its columns at the positions of its own required schema.
        RowDataDeleteFilter selector =
                selecting.isEmpty()
                        ? null
                        : new RowDataDeleteFilter(location, selecting, table, fileSchema, files);
        if (selector != null) {
            fileSchema = selector.requiredSchema();
        }

        CloseableIterable<RowData> rows = openFile(task, fileSchema, files);
        if (deletes != null) {
            rows = deletes.filter(rows);
        }
        if (selector != null) {
            rows = selector.selectDeleted(rows);
        }
        // a Parquet read already returns only the rows the residual keeps (evaluated before the
        // deletes, with which it commutes: both only drop rows)
        if (filtering
                && !RowDataFileReaders.filtersExactly(
                        task.file().format(), fileSchema, residual, caseSensitive)) {
            Evaluator evaluator = new Evaluator(fileSchema.asStruct(), residual, caseSensitive);
            RowDataStructLike view =
                    new RowDataStructLike(
                            fileSchema.asStruct(),
                            IcebergToFlinkTypeConverter.convertStruct(fileSchema.asStruct()));
            rows = CloseableIterable.filter(rows, row -> evaluator.eval(view.wrap(row)));
        }
        if (projection != projectedSchema) {
            rows =
                    CloseableIterable.transform(
                            rows,
                            WidenedColumns.narrowing(
                                    projectedSchema, projection, task.file().location()));
        } else if (fileSchema.columns().size() > projectedSchema.columns().size()) {
            rows = CloseableIterable.transform(rows, trailingFieldsDropper());
        }
        return rows;
    }

    private CloseableIterable<RowData> openFile(
            FileScanTask task, Schema fileSchema, EncryptingFileIO files) {
        ReadBuilder<RowData, RowType> builder =
                RowDataFileReaders.readBuilder(
                                task.file().format(), files.newInputFile(task.file()))
                        .project(fileSchema)
                        .idToConstant(constants(task))
                        .split(task.start(), task.length())
                        .caseSensitive(caseSensitive)
                        .filter(task.residual());
        if (nameMapping != null) {
            builder = builder.withNameMapping(nameMapping);
        }
        return builder.build();
    }

    /**
     * Partition and metadata constants for the task. {@code _partition} takes the struct type of
     * the projected column, which is the table's unified partition type across specs.
     */
    private Map<Integer, ?> constants(FileScanTask task) {
        Types.NestedField partition =
                projectedSchema.findField(MetadataColumns.PARTITION_COLUMN_ID);
        if (partition != null && partition.type().isStructType()) {
            return PartitionUtil.constantsMap(
                    task, partition.type().asStructType(), RowDataConstants::convert);
        }
        return PartitionUtil.constantsMap(task, RowDataConstants::convert);
    }

    /**
     * The projected schema plus the top-level table columns the residual filter needs and the
     * projection lacks, appended in table order after the projected columns.
     *
     * @throws IllegalArgumentException when the filter needs a field of a struct that is only
     *     partly projected (nested projection and filtering on its hidden fields do not mix)
     */
    static Schema withFilterColumns(
            Schema tableSchema, Schema projected, Expression residual, boolean caseSensitive) {
        Set<Integer> referenced =
                Binder.boundReferences(tableSchema.asStruct(), List.of(residual), caseSensitive);
        Set<Integer> projectedIds = TypeUtil.getProjectedIds(projected);
        Map<Integer, Integer> parents = TypeUtil.indexParents(tableSchema.asStruct());
        Map<Integer, Types.NestedField> extra = new LinkedHashMap<>();
        for (int id : referenced) {
            if (projectedIds.contains(id)) {
                continue;
            }
            int topLevel = id;
            while (parents.containsKey(topLevel)) {
                topLevel = parents.get(topLevel);
            }
            if (projected.findField(topLevel) != null) {
                throw new IllegalArgumentException(
                        String.format(
                                "Cannot filter on column '%s': its top-level column '%s' is only"
                                        + " partly projected; project all of '%s' or none of it",
                                tableSchema.findColumnName(id),
                                tableSchema.findColumnName(topLevel),
                                tableSchema.findColumnName(topLevel)));
            }
            extra.putIfAbsent(topLevel, tableSchema.findField(topLevel));
        }
        if (extra.isEmpty()) {
            return projected;
        }
        List<Types.NestedField> columns = new ArrayList<>(projected.columns());
        for (Types.NestedField field : tableSchema.columns()) {
            if (extra.containsKey(field.fieldId())) {
                columns.add(field);
            }
        }
        return new Schema(columns);
    }

    /**
     * Drops the columns that were read only for the residual filter or the deletes. The result is a
     * binary row of the projected width rather than a view over the wider row: Flink copies a
     * binary row between operators as one byte array, a view field by field.
     */
    private Function<RowData, RowData> trailingFieldsDropper() {
        ProjectedRowData prefix =
                ProjectedRowData.from(
                        IntStream.range(0, projectedSchema.columns().size()).toArray());
        RowDataSerializer narrow = new RowDataSerializer(producedRowType());
        return row -> narrow.toBinaryRow(prefix.replaceRow(row)).copy();
    }
}
