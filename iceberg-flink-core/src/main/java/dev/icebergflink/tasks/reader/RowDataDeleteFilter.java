package dev.icebergflink.tasks.reader;

import dev.icebergflink.data.row.RowDataStructLike;
import dev.icebergflink.types.IcebergToFlinkTypeConverter;
import java.util.List;
import java.util.function.Predicate;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.TypedSetters;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.encryption.EncryptingFileIO;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.InputFile;

/**
 * Applies the delete files of one file task (position deletes, equality deletes and v3 deletion
 * vectors) to Flink rows, by giving iceberg-data's {@link DeleteFilter} a {@link StructLike} view
 * of each row and the (possibly encrypted) delete files.
 *
 * <p>The rows it filters must be read with {@link #requiredSchema()}: the requested schema plus the
 * equality-key columns and the {@code _pos} column the deletes need, appended after the requested
 * columns.
 */
final class RowDataDeleteFilter extends DeleteFilter<RowData> {

    private final RowDataStructLike structView;
    private final EncryptingFileIO io;

    RowDataDeleteFilter(
            String dataFileLocation,
            List<DeleteFile> deletes,
            Schema tableSchema,
            Schema requestedSchema,
            EncryptingFileIO io) {
        super(dataFileLocation, deletes, tableSchema, requestedSchema);
        this.io = io;
        Schema required = requiredSchema();
        this.structView =
                new RowDataStructLike(
                        required.asStruct(),
                        IcebergToFlinkTypeConverter.convertStruct(required.asStruct()));
    }

    @Override
    protected StructLike asStructLike(RowData row) {
        return structView.wrap(row);
    }

    @Override
    protected InputFile getInputFile(String location) {
        return io.newInputFile(location);
    }

    @Override
    protected InputFile loadInputFile(DeleteFile deleteFile) {
        return io.newInputFile(deleteFile);
    }

    /**
     * The rows these deletes delete, the others dropped: the inverse of {@link #filter}, for
     * finding which rows a set of newer delete files removed.
     */
    CloseableIterable<RowData> selectDeleted(CloseableIterable<RowData> rows) {
        PositionDeleteIndex positions = hasPosDeletes() ? deletedRowPositions() : null;
        Predicate<RowData> live = hasEqDeletes() ? eqDeletedRowFilter() : null;
        return CloseableIterable.filter(
                rows,
                row ->
                        (positions != null && positions.isDeleted(pos(row)))
                                || (live != null && !live.test(row)));
    }

    /** Sets the {@code _deleted} metadata column when the reader asked for it. */
    @Override
    protected void markRowDeleted(RowData row) {
        if (row instanceof GenericRowData generic) {
            generic.setField(columnIsDeletedPosition(), true);
        } else if (row instanceof TypedSetters binary) {
            // the readers' BinaryRowData rows: _deleted is a boolean in the fixed-length part
            binary.setBoolean(columnIsDeletedPosition(), true);
        } else {
            throw new IllegalStateException(
                    "Cannot mark a row deleted: the _deleted column needs GenericRowData or"
                            + " BinaryRowData rows, got "
                            + row.getClass().getName());
        }
    }
}
