package dev.icebergflink.source.reader;

import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.iceberg.FileScanTask;

/**
 * Appends the requested {@link ReadMetadataColumn}s to the rows read from a file task: the row's
 * own fields first, then the metadata in the requested order, as Flink's metadata-reading sources
 * must produce them. The metadata of a task is computed once, when the task opens; the rows are
 * joined without a copy.
 */
@Internal
public final class MetadataAppender implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Appends nothing. */
    public static final MetadataAppender NONE = new MetadataAppender(List.of());

    private final ReadMetadataColumn[] columns;

    public MetadataAppender(List<ReadMetadataColumn> columns) {
        this.columns = columns.toArray(new ReadMetadataColumn[0]);
    }

    /** Whether rows pass unchanged. */
    public boolean isEmpty() {
        return columns.length == 0;
    }

    /** The metadata of every row of {@code task}, or {@code null} when nothing is appended. */
    RowData metadataOf(FileScanTask task) {
        if (columns.length == 0) {
            return null;
        }
        GenericRowData metadata = new GenericRowData(columns.length);
        for (int i = 0; i < columns.length; i++) {
            metadata.setField(i, columns[i].valueOf(task));
        }
        return metadata;
    }

    /** {@code row} with {@code metadata} (from {@link #metadataOf}) after its fields. */
    static RowData append(RowData row, RowData metadata) {
        return metadata == null ? row : new JoinedRowData(row.getRowKind(), row, metadata);
    }
}
