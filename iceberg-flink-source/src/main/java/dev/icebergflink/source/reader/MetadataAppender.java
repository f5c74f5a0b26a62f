package dev.icebergflink.source.reader;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;

/**
 * Puts the requested {@link ReadMetadataColumn}s after the rows' own fields, in the requested
 * order, as Flink's metadata-reading sources must produce them.
 *
 * <p>The file columns are read by core's file-task reader as extra trailing columns of the read
 * projection ({@link #readProjection}), in their requested order; the changelog columns are
 * computed once per task ({@link #metadataOf}) and joined after the row without a copy. When both
 * kinds are requested, a view puts each value at its requested position.
 */
@Internal
public final class MetadataAppender implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Appends nothing. */
    public static final MetadataAppender NONE = new MetadataAppender(List.of());

    private final ReadMetadataColumn[] columns;
    private final ReadMetadataColumn[] taskColumns;
    private final int fileColumns;
    private transient int[] mixedPositions;

    public MetadataAppender(List<ReadMetadataColumn> columns) {
        this.columns = columns.toArray(new ReadMetadataColumn[0]);
        this.taskColumns =
                columns.stream().filter(c -> !c.fromFile()).toArray(ReadMetadataColumn[]::new);
        this.fileColumns = this.columns.length - taskColumns.length;
    }

    /** Whether rows pass unchanged. */
    public boolean isEmpty() {
        return columns.length == 0;
    }

    /** Whether a column is read by the file reader, so the read projection must include it. */
    public boolean readsFileColumns() {
        return fileColumns > 0;
    }

    /**
     * The schema core's file reader reads: {@code projected} followed by Iceberg's metadata columns
     * of the requested file columns, in their requested order.
     */
    public Schema readProjection(Schema projected, Table table) {
        if (fileColumns == 0) {
            return projected;
        }
        List<Types.NestedField> read = new ArrayList<>(projected.columns());
        for (ReadMetadataColumn column : columns) {
            if (column.fromFile()) {
                read.add(column.icebergField(table));
            }
        }
        return new Schema(read);
    }

    /** The changelog metadata of every row of {@code task}, or {@code null} when there is none. */
    RowData metadataOf(FileScanTask task) {
        if (taskColumns.length == 0) {
            return null;
        }
        GenericRowData metadata = new GenericRowData(taskColumns.length);
        for (int i = 0; i < taskColumns.length; i++) {
            metadata.setField(i, taskColumns[i].valueOf(task));
        }
        return metadata;
    }

    /**
     * {@code row} (as read: the projected fields, then the file columns) with the task's {@code
     * metadata} (from {@link #metadataOf}), every metadata value at its requested position.
     */
    RowData append(RowData row, RowData metadata) {
        if (metadata == null) {
            // no changelog columns: the file columns already trail in the requested order
            return row;
        }
        JoinedRowData joined = new JoinedRowData(row.getRowKind(), row, metadata);
        if (fileColumns == 0) {
            return joined;
        }
        if (mixedPositions == null) {
            mixedPositions = positions(row.getArity() - fileColumns);
        }
        // a new view per row: the rows of a batch are alive together
        return ProjectedRowData.from(mixedPositions).replaceRow(joined);
    }

    /** Where each output field is in the joined row of {@code physical} fields and metadata. */
    private int[] positions(int physical) {
        int[] positions = new int[physical + columns.length];
        for (int i = 0; i < physical; i++) {
            positions[i] = i;
        }
        int file = 0;
        int task = 0;
        for (int i = 0; i < columns.length; i++) {
            positions[physical + i] =
                    columns[i].fromFile() ? physical + file++ : physical + fileColumns + task++;
        }
        return positions;
    }
}
