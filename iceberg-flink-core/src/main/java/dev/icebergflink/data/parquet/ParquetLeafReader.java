package dev.icebergflink.data.parquet;

import dev.icebergflink.data.row.BinaryRowBuilder;
import org.apache.iceberg.parquet.ColumnIterator;
import org.apache.iceberg.parquet.ParquetValueReaders;
import org.apache.parquet.column.ColumnDescriptor;

/**
 * A reader of one primitive Parquet column that can also write its values into a binary row field:
 * boxed, as Flink's internal value, for nested structs, lists and maps ({@link #read}), and
 * unboxed, straight into a {@link BinaryRowBuilder} field, for the top-level row ({@link
 * #readInto}). {@link ParquetLeafReaders} holds one subclass per Iceberg type and Parquet encoding;
 * {@link ParquetBinaryRowReader} and {@link ParquetRowDataReaders} only need this common type.
 *
 * @param <T> the boxed Flink internal value
 */
abstract class ParquetLeafReader<T> extends ParquetValueReaders.PrimitiveReader<T> {

    ParquetLeafReader(ColumnDescriptor desc) {
        super(desc);
    }

    /** The column's values, levels and nulls; exposed for the row reader's bookkeeping. */
    final ColumnIterator<?> iterator() {
        return column;
    }

    /**
     * Reads the column's next value into field {@code pos} of {@code row}: the value when the
     * current definition level is above {@code definitionLevel} (the level at which the field
     * itself is null), otherwise null.
     */
    final void readInto(BinaryRowBuilder row, int pos, int definitionLevel) {
        if (column.currentDefinitionLevel() > definitionLevel) {
            write(row, pos);
        } else {
            column.nextNull();
            row.setNull(pos);
        }
    }

    /** Reads the column's next value, known not to be null, into field {@code pos}. */
    abstract void write(BinaryRowBuilder row, int pos);
}
