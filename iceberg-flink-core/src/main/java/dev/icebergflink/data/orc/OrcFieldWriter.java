package dev.icebergflink.data.orc;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.orc.OrcValueWriter;
import org.apache.orc.storage.ql.exec.vector.ColumnVector;

/**
 * An Iceberg {@link OrcValueWriter} that can also take its value straight out of the Flink
 * container holding it (a {@link RowData} field or an {@link ArrayData} element).
 *
 * <p>Flink's containers have typed getters ({@code getInt}, {@code getTimestamp(pos, precision)},
 * ...) and no common interface; going through {@code RowData.FieldGetter} would box every
 * primitive. Each writer therefore knows the getter for its Flink type and reads the value itself,
 * so that the write path allocates nothing for primitives. The boxed {@link #nonNullWrite} of
 * {@link OrcValueWriter} is still implemented, for callers that hold values as objects.
 *
 * @param <T> the Flink internal value class (boxed for primitives)
 */
abstract class OrcFieldWriter<T> implements OrcValueWriter<T> {

    /** Writes the non-null value at {@code pos} of {@code row} into row {@code rowId}. */
    abstract void writeFromRow(int rowId, RowData row, int pos, ColumnVector output);

    /** Writes the non-null element at {@code pos} of {@code array} into row {@code rowId}. */
    abstract void writeFromArray(int rowId, ArrayData array, int pos, ColumnVector output);

    /** Writes field {@code pos} of {@code row}, null or not, into row {@code rowId}. */
    final void writeField(int rowId, RowData row, int pos, ColumnVector output) {
        if (row.isNullAt(pos)) {
            markNull(rowId, output);
        } else {
            output.isNull[rowId] = false;
            writeFromRow(rowId, row, pos, output);
        }
    }

    /** Writes element {@code pos} of {@code array}, null or not, into row {@code rowId}. */
    final void writeElement(int rowId, ArrayData array, int pos, ColumnVector output) {
        if (array.isNullAt(pos)) {
            markNull(rowId, output);
        } else {
            output.isNull[rowId] = false;
            writeFromArray(rowId, array, pos, output);
        }
    }

    private void markNull(int rowId, ColumnVector output) {
        output.noNulls = false;
        output.isNull[rowId] = true;
        nullWrite();
    }
}
