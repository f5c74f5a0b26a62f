package dev.icebergflink.data.orc;

import dev.icebergflink.data.row.BinaryRowBuilder;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.TimestampData;
import org.apache.iceberg.orc.OrcValueReader;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.orc.storage.ql.exec.vector.BytesColumnVector;
import org.apache.orc.storage.ql.exec.vector.ColumnVector;
import org.apache.orc.storage.ql.exec.vector.Decimal64ColumnVector;
import org.apache.orc.storage.ql.exec.vector.DecimalColumnVector;
import org.apache.orc.storage.ql.exec.vector.DoubleColumnVector;
import org.apache.orc.storage.ql.exec.vector.LongColumnVector;

/**
 * Readers of top-level primitive ORC columns that write each value straight into a field of a
 * {@link BinaryRowBuilder} with its typed setter, instead of returning a (boxed) Flink value.
 *
 * <p>They exist so that the common columns of a scan cost no object per value: a long is copied
 * from the {@link LongColumnVector} into the row, a string's bytes from the {@link
 * BytesColumnVector}'s buffer, a compact decimal as its unscaled long. {@link OrcBinaryRowReader}
 * uses them for the columns it reads from the file; everything else keeps Iceberg's value readers.
 */
final class BinaryColumnReaders {

    private static final long MICROS_PER_MILLI = 1_000L;

    private BinaryColumnReaders() {}

    /**
     * A reader writing column values of Iceberg type {@code type} into field {@code pos} of {@code
     * builder}, or null when the type has no typed setter and must go through {@link
     * BinaryRowBuilder#setValue}.
     */
    static ColumnReader forType(Type.PrimitiveType type, BinaryRowBuilder builder, int pos) {
        switch (type.typeId()) {
            case BOOLEAN:
                return new ColumnReader(builder, pos, ColumnReader.BOOLEAN);
            case INTEGER:
            case DATE:
                return new ColumnReader(builder, pos, ColumnReader.INT);
            case LONG:
                return new ColumnReader(builder, pos, ColumnReader.LONG);
            case FLOAT:
                return new FloatColumn(builder, pos);
            case DOUBLE:
                return new ColumnReader(builder, pos, ColumnReader.DOUBLE);
            case TIME:
                return new TimeColumn(builder, pos);
            case TIMESTAMP:
            case TIMESTAMP_NANO:
                return new TimestampColumn(builder, pos);
            case STRING:
            case UUID:
            case FIXED:
            case BINARY:
                return new ColumnReader(builder, pos, ColumnReader.BYTES);
            case DECIMAL:
                Types.DecimalType decimal = (Types.DecimalType) type;
                return new DecimalColumn(builder, pos, decimal.precision(), decimal.scale());
            default:
                return null;
        }
    }

    /**
     * Writes the value of one row of a column into the builder's field; nulls (also of repeating
     * vectors) become {@link BinaryRowBuilder#setNull}.
     *
     * <p>The row reader calls {@link #read} of every column for every row. The common column kinds
     * are decoded in this one final method by a switch on {@link #kind} rather than by a virtual
     * call per value: ten or so implementations at one call site made every call a megamorphic
     * dispatch that the JIT could not inline. Columns of those kinds are plain {@code
     * ColumnReader}s ({@link #INT} also reads DATE as int days, and the builder narrows it for
     * TINYINT/SMALLINT fields; {@link #BYTES} copies strings, UUIDs, fixed and binary values from
     * ORC's buffer into the row); other columns are subclasses that override {@link #write}.
     */
    static class ColumnReader {
        static final int OTHER = 0;
        static final int BOOLEAN = 1;
        static final int INT = 2;
        static final int LONG = 3;
        static final int DOUBLE = 4;
        static final int BYTES = 5;

        final BinaryRowBuilder builder;
        final int pos;
        private final int kind;

        ColumnReader(BinaryRowBuilder builder, int pos, int kind) {
            this.builder = builder;
            this.pos = pos;
            this.kind = kind;
        }

        ColumnReader(BinaryRowBuilder builder, int pos) {
            this(builder, pos, OTHER);
        }

        /** Writes the value at {@code row} of {@code vector} into the field. */
        final void read(ColumnVector vector, int row) {
            int index = vector.isRepeating ? 0 : row;
            if (!vector.noNulls && vector.isNull[index]) {
                builder.setNull(pos);
                return;
            }
            switch (kind) {
                case LONG:
                    builder.setLong(pos, ((LongColumnVector) vector).vector[index]);
                    break;
                case INT:
                    builder.setInt(pos, (int) ((LongColumnVector) vector).vector[index]);
                    break;
                case DOUBLE:
                    builder.setDouble(pos, ((DoubleColumnVector) vector).vector[index]);
                    break;
                case BOOLEAN:
                    builder.setBoolean(pos, ((LongColumnVector) vector).vector[index] != 0);
                    break;
                case BYTES:
                    BytesColumnVector bytes = (BytesColumnVector) vector;
                    builder.setBytes(
                            pos, bytes.vector[index], bytes.start[index], bytes.length[index]);
                    break;
                default:
                    write(vector, index);
            }
        }

        /** Writes the non-null value at {@code row} (already resolved for repeating vectors). */
        void write(ColumnVector vector, int row) {
            throw new IllegalStateException("Column kind " + kind + " is decoded by read");
        }
    }

    private static final class FloatColumn extends ColumnReader {
        private FloatColumn(BinaryRowBuilder builder, int pos) {
            super(builder, pos);
        }

        @Override
        void write(ColumnVector vector, int row) {
            builder.setFloat(pos, (float) ((DoubleColumnVector) vector).vector[row]);
        }
    }

    /** Flink TIME: Iceberg's micros of day truncated to int millis. */
    private static final class TimeColumn extends ColumnReader {
        private TimeColumn(BinaryRowBuilder builder, int pos) {
            super(builder, pos);
        }

        @Override
        void write(ColumnVector vector, int row) {
            builder.setInt(pos, (int) (((LongColumnVector) vector).vector[row] / MICROS_PER_MILLI));
        }
    }

    private static final class TimestampColumn extends ColumnReader {
        private final OrcValueReader<TimestampData> timestamps = OrcFieldReaders.timestamps();

        private TimestampColumn(BinaryRowBuilder builder, int pos) {
            super(builder, pos);
        }

        @Override
        void write(ColumnVector vector, int row) {
            builder.setTimestamp(pos, timestamps.nonNullRead(vector, row));
        }
    }

    /**
     * Decimals of the expected (possibly widened) precision: compact ones as their unscaled long,
     * wide ones (and file scales that differ) through a {@link DecimalData}.
     */
    private static final class DecimalColumn extends ColumnReader {
        private final boolean compact;
        private final int scale;
        private final OrcValueReader<DecimalData> decimals;

        private DecimalColumn(BinaryRowBuilder builder, int pos, int precision, int scale) {
            super(builder, pos);
            this.compact = DecimalData.isCompact(precision);
            this.scale = scale;
            this.decimals = OrcFieldReaders.decimals(precision, scale);
        }

        @Override
        void write(ColumnVector vector, int row) {
            if (compact && vector instanceof DecimalColumnVector values) {
                builder.setCompactDecimal(pos, values.vector[row].serialize64(scale));
            } else if (compact
                    && vector instanceof Decimal64ColumnVector values
                    && values.scale == scale) {
                builder.setCompactDecimal(pos, values.vector[row]);
            } else {
                builder.setDecimal(pos, decimals.nonNullRead(vector, row));
            }
        }
    }
}
