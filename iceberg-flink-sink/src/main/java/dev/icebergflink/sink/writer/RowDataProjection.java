package dev.icebergflink.sink.writer;

import java.io.Serializable;
import java.util.Arrays;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Projects top-level columns of a Flink row into a new {@link GenericRowData}, for equality-delete
 * keys and for keying the stream by the equality fields.
 *
 * <p>The result is a detached copy with content-based {@code equals}/{@code hashCode} (Flink's
 * {@code StringData}, {@code DecimalData}, {@code TimestampData} and {@code byte[]} compare by
 * content inside {@link GenericRowData}), so it can serve as a Flink key. Serializable, so key
 * selectors can carry it.
 */
public final class RowDataProjection implements Serializable {

    private static final long serialVersionUID = 1L;

    private final RowType sourceType;
    private final int[] positions;
    private transient RowData.FieldGetter[] getters;

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

    /** A new row with the projected columns of {@code row}; its row kind is INSERT. */
    public GenericRowData project(RowData row) {
        if (getters == null) {
            getters = new RowData.FieldGetter[positions.length];
            for (int i = 0; i < positions.length; i++) {
                getters[i] =
                        RowData.createFieldGetter(sourceType.getTypeAt(positions[i]), positions[i]);
            }
        }
        GenericRowData projected = new GenericRowData(positions.length);
        for (int i = 0; i < positions.length; i++) {
            projected.setField(i, getters[i].getFieldOrNull(row));
        }
        return projected;
    }
}
