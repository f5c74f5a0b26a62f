package dev.icebergflink.maintenance.eqdelete;

import dev.icebergflink.data.row.RowDataStructLike;
import dev.icebergflink.tasks.codec.RestoredFileScanTask;
import dev.icebergflink.tasks.reader.RowDataFileTaskReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.types.Types;

/**
 * Finds the rows of data files that equality deletes delete: reads each file whole, without any
 * delete applied, with only the equality columns and the row position ({@code _pos}), through
 * core's {@link RowDataFileTaskReader}, and looks each row up in {@link EqualityKeys}.
 *
 * <p>It exists to keep the reading and matching (the worker's costly part) apart from writing and
 * committing. Rows already deleted by position are skipped: they need no new position.
 */
@Internal
public final class DeletedRowFinder {

    private final RowDataFileTaskReader reader;
    private final RowDataStructLike view;
    private final int positionField;
    private final EqualityKeys keys;

    /**
     * @param table the table
     * @param rowSchema the columns read: the equality columns followed by {@code _pos} ({@link
     *     #rowSchema})
     * @param keys the equality deletes, loaded for rows of {@code rowSchema}
     * @param nameMapping the table's name mapping, or null
     */
    public DeletedRowFinder(
            Table table, Schema rowSchema, EqualityKeys keys, NameMapping nameMapping) {
        this.reader =
                new RowDataFileTaskReader(
                        table.schema(),
                        rowSchema,
                        nameMapping,
                        true,
                        table.io(),
                        table.encryption());
        this.view = new RowDataStructLike(rowSchema.asStruct(), reader.producedRowType());
        this.positionField = rowSchema.columns().size() - 1;
        this.keys = keys;
    }

    /** The equality columns followed by the row position. */
    public static Schema rowSchema(Schema equalityColumns) {
        List<Types.NestedField> columns = new ArrayList<>(equalityColumns.columns());
        columns.add(MetadataColumns.ROW_POSITION);
        return new Schema(columns);
    }

    /**
     * The rows of {@code task}'s data file that the equality deletes delete and {@code existing}
     * does not.
     */
    public FileDeletes find(FileScanTask task, PositionDeleteIndex existing) throws IOException {
        long fileSequenceNumber = dataSequenceNumber(task);
        FileScanTask whole =
                new RestoredFileScanTask(
                        task.file(),
                        List.of(),
                        task.schema(),
                        task.spec(),
                        Expressions.alwaysTrue(),
                        0L,
                        task.file().fileSizeInBytes());
        long[] positions = new long[16];
        int count = 0;
        long highest = Long.MIN_VALUE;
        try (CloseableIterable<RowData> rows = reader.open(whole)) {
            for (RowData row : rows) {
                long deleting = keys.deletingSequenceNumber(view.wrap(row));
                if (deleting <= fileSequenceNumber) {
                    continue;
                }
                long position = row.getLong(positionField);
                if (existing.isDeleted(position)) {
                    continue;
                }
                if (count == positions.length) {
                    positions = Arrays.copyOf(positions, count * 2);
                }
                positions[count++] = position;
                highest = Math.max(highest, deleting);
            }
        }
        long[] found = Arrays.copyOf(positions, count);
        Arrays.sort(found);
        return new FileDeletes(task, found, highest, existing);
    }

    /** The data sequence number of the task's file. */
    static long dataSequenceNumber(FileScanTask task) {
        Long sequenceNumber = task.file().dataSequenceNumber();
        if (sequenceNumber == null) {
            throw new IllegalStateException(
                    "Data file " + task.file().location() + " has no data sequence number");
        }
        return sequenceNumber;
    }
}
