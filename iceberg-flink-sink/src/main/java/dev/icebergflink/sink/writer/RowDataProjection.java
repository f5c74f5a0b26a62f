package dev.icebergflink.sink.writer;

import java.io.Serializable;
import java.util.Arrays;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Projects top-level columns of a Flink row, for the rows of equality-delete files (the key
 * columns).
 *
 * <p>It exists so that the writer factory decides the delete columns once and the delta writer
 * writes each key without allocating: {@link #newView()} gives a view that is pointed at each row
 * in turn. Serializable, so the writer factory can carry it.
 */
@Internal
public final class RowDataProjection implements Serializable {

    private static final long serialVersionUID = 1L;

    private final RowType sourceType;
    private final int[] positions;

    /**
     * @param sourceType the type of the rows projected
     * @param positions the top-level positions to keep, in the order of the projected row
     */
    public RowDataProjection(RowType sourceType, int[] positions) {
        this.sourceType = sourceType;
        this.positions = Arrays.copyOf(positions, positions.length);
        for (int position : positions) {
            if (position < 0 || position >= sourceType.getFieldCount()) {
                throw new IllegalArgumentException(
                        "Position " + position + " is not a column of " + sourceType);
            }
        }
    }

    /** The type of the projected rows. */
    public RowType projectedType() {
        LogicalType[] types = new LogicalType[positions.length];
        String[] names = new String[positions.length];
        for (int i = 0; i < positions.length; i++) {
            types[i] = sourceType.getTypeAt(positions[i]);
            names[i] = sourceType.getFieldNames().get(positions[i]);
        }
        return RowType.of(types, names);
    }

    /**
     * A reusable view of the projected columns: {@code view.replaceRow(row)} points it at {@code
     * row} without copying, so it is valid only until the next call and only while {@code row} is
     * unchanged. For consumers that use the row at once (file appenders).
     */
    public ProjectedRowData newView() {
        return ProjectedRowData.from(positions);
    }
}
