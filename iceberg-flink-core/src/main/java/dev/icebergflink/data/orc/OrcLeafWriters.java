package dev.icebergflink.data.orc;

import java.util.stream.Stream;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.iceberg.DoubleFieldMetrics;
import org.apache.iceberg.FieldMetrics;
import org.apache.iceberg.FloatFieldMetrics;
import org.apache.orc.storage.ql.exec.vector.BytesColumnVector;
import org.apache.orc.storage.ql.exec.vector.ColumnVector;
import org.apache.orc.storage.ql.exec.vector.DecimalColumnVector;
import org.apache.orc.storage.ql.exec.vector.DoubleColumnVector;
import org.apache.orc.storage.ql.exec.vector.LongColumnVector;
import org.apache.orc.storage.ql.exec.vector.TimestampColumnVector;
import org.apache.orc.storage.serde2.io.HiveDecimalWritable;

/**
 * The ORC writers of primitive Flink internal values, one small class per Flink value kind. {@link
 * OrcRowDataWriter} picks them from the Flink and Iceberg types of each column; the struct, list
 * and map writers that hold them are {@link OrcNestedWriters}.
 *
 * <p>Vectors used: {@code LongColumnVector} for boolean, int (also from TINYINT/SMALLINT), long,
 * date and time (micros); {@code DoubleColumnVector} for float and double; {@code
 * TimestampColumnVector} (epoch millis plus nano-of-second, UTC) for all timestamps; {@code
 * BytesColumnVector} for string, uuid, fixed and binary (values are copied into the vector's own
 * buffer, so callers may reuse their byte arrays); {@code DecimalColumnVector} for decimals.
 */
final class OrcLeafWriters {

    private static final int MAX_COMPACT_PRECISION = 18;
    private static final long[] POWERS_OF_TEN = new long[MAX_COMPACT_PRECISION + 1];

    static {
        POWERS_OF_TEN[0] = 1L;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10L;
        }
    }

    private OrcLeafWriters() {}

    static OrcFieldWriter<Boolean> booleans() {
        return BooleanWriter.INSTANCE;
    }

    /** Flink TINYINT (a byte) into an Iceberg int column. */
    static OrcFieldWriter<Byte> tinyInts() {
        return TinyIntWriter.INSTANCE;
    }

    /** Flink SMALLINT (a short) into an Iceberg int column. */
    static OrcFieldWriter<Short> smallInts() {
        return SmallIntWriter.INSTANCE;
    }

    /** Flink INT and DATE (days since epoch) into Iceberg int and date columns. */
    static OrcFieldWriter<Integer> ints() {
        return IntWriter.INSTANCE;
    }

    static OrcFieldWriter<Long> longs() {
        return LongWriter.INSTANCE;
    }

    /** Flink TIME (int millis of day) into an Iceberg time column (long micros of day). */
    static OrcFieldWriter<Integer> timeMillis() {
        return TimeWriter.INSTANCE;
    }

    /** Floats, tracking bounds and NaN counts for Iceberg's metrics of field {@code fieldId}. */
    static OrcFieldWriter<Float> floats(int fieldId) {
        return new FloatWriter(fieldId);
    }

    /** Doubles, tracking bounds and NaN counts for Iceberg's metrics of field {@code fieldId}. */
    static OrcFieldWriter<Double> doubles(int fieldId) {
        return new DoubleWriter(fieldId);
    }

    /**
     * Timestamps read from Flink with {@code flinkPrecision}; written with nanoseconds when {@code
     * nanos}, else truncated to microseconds.
     */
    static OrcFieldWriter<TimestampData> timestamps(int flinkPrecision, boolean nanos) {
        return new TimestampWriter(flinkPrecision, nanos);
    }

    static OrcFieldWriter<StringData> strings() {
        return StringWriter.INSTANCE;
    }

    /** Variable-length binary. */
    static OrcFieldWriter<byte[]> binaries() {
        return new BinaryWriter(-1, null);
    }

    /**
     * Fixed-length binary (also uuid, 16 bytes); a value of another length fails naming the column.
     */
    static OrcFieldWriter<byte[]> fixed(int length, String column) {
        return new BinaryWriter(length, column);
    }

    /**
     * Decimals read from Flink as DECIMAL({@code flinkPrecision}, {@code flinkScale}) into a
     * decimal({@code precision}, {@code scale}) column.
     */
    static OrcFieldWriter<DecimalData> decimals(
            int flinkPrecision, int flinkScale, int precision, int scale, String column) {
        return new DecimalWriter(flinkPrecision, flinkScale, precision, scale, column);
    }

    private static final class BooleanWriter extends OrcFieldWriter<Boolean> {
        private static final BooleanWriter INSTANCE = new BooleanWriter();

        @Override
        public void nonNullWrite(int rowId, Boolean data, ColumnVector output) {
            set(rowId, data, output);
        }

        @Override
        void writeFromRow(int rowId, RowData row, int pos, ColumnVector output) {
            set(rowId, row.getBoolean(pos), output);
        }

        @Override
        void writeFromArray(int rowId, ArrayData array, int pos, ColumnVector output) {
            set(rowId, array.getBoolean(pos), output);
        }

        private static void set(int rowId, boolean value, ColumnVector output) {
            ((LongColumnVector) output).vector[rowId] = value ? 1L : 0L;
        }
    }

    private static final class TinyIntWriter extends OrcFieldWriter<Byte> {
        private static final TinyIntWriter INSTANCE = new TinyIntWriter();

        @Override
        public void nonNullWrite(int rowId, Byte data, ColumnVector output) {
            ((LongColumnVector) output).vector[rowId] = data;
        }

        @Override
        void writeFromRow(int rowId, RowData row, int pos, ColumnVector output) {
            ((LongColumnVector) output).vector[rowId] = row.getByte(pos);
        }

        @Override
        void writeFromArray(int rowId, ArrayData array, int pos, ColumnVector output) {
            ((LongColumnVector) output).vector[rowId] = array.getByte(pos);
        }
    }

    private static final class SmallIntWriter extends OrcFieldWriter<Short> {
        private static final SmallIntWriter INSTANCE = new SmallIntWriter();

        @Override
        public void nonNullWrite(int rowId, Short data, ColumnVector output) {
            ((LongColumnVector) output).vector[rowId] = data;
        }

        @Override
        void writeFromRow(int rowId, RowData row, int pos, ColumnVector output) {
            ((LongColumnVector) output).vector[rowId] = row.getShort(pos);
        }

        @Override
        void writeFromArray(int rowId, ArrayData array, int pos, ColumnVector output) {
            ((LongColumnVector) output).vector[rowId] = array.getShort(pos);
        }
    }

    private static final class IntWriter extends OrcFieldWriter<Integer> {
        private static final IntWriter INSTANCE = new IntWriter();

        @Override
        public void nonNullWrite(int rowId, Integer data, ColumnVector output) {
            ((LongColumnVector) output).vector[rowId] = data;
        }

        @Override
        void writeFromRow(int rowId, RowData row, int pos, ColumnVector output) {
            ((LongColumnVector) output).vector[rowId] = row.getInt(pos);
        }

        @Override
        void writeFromArray(int rowId, ArrayData array, int pos, ColumnVector output) {
            ((LongColumnVector) output).vector[rowId] = array.getInt(pos);
        }
    }

    private static final class LongWriter extends OrcFieldWriter<Long> {
        private static final LongWriter INSTANCE = new LongWriter();

        @Override
        public void nonNullWrite(int rowId, Long data, ColumnVector output) {
            ((LongColumnVector) output).vector[rowId] = data;
        }

        @Override
        void writeFromRow(int rowId, RowData row, int pos, ColumnVector output) {
            ((LongColumnVector) output).vector[rowId] = row.getLong(pos);
        }

        @Override
        void writeFromArray(int rowId, ArrayData array, int pos, ColumnVector output) {
            ((LongColumnVector) output).vector[rowId] = array.getLong(pos);
        }
    }

    private static final class TimeWriter extends OrcFieldWriter<Integer> {
        private static final TimeWriter INSTANCE = new TimeWriter();
        private static final long MICROS_PER_MILLI = 1_000L;

        @Override
        public void nonNullWrite(int rowId, Integer data, ColumnVector output) {
            set(rowId, data, output);
        }

        @Override
        void writeFromRow(int rowId, RowData row, int pos, ColumnVector output) {
            set(rowId, row.getInt(pos), output);
        }

        @Override
        void writeFromArray(int rowId, ArrayData array, int pos, ColumnVector output) {
            set(rowId, array.getInt(pos), output);
        }

        private static void set(int rowId, int millisOfDay, ColumnVector output) {
            ((LongColumnVector) output).vector[rowId] = millisOfDay * MICROS_PER_MILLI;
        }
    }

    private static final class FloatWriter extends OrcFieldWriter<Float> {
        private final FloatFieldMetrics.Builder metrics;

        private FloatWriter(int fieldId) {
            this.metrics = new FloatFieldMetrics.Builder(fieldId);
        }

        @Override
        public void nonNullWrite(int rowId, Float data, ColumnVector output) {
            set(rowId, data, output);
        }

        @Override
        void writeFromRow(int rowId, RowData row, int pos, ColumnVector output) {
            set(rowId, row.getFloat(pos), output);
        }

        @Override
        void writeFromArray(int rowId, ArrayData array, int pos, ColumnVector output) {
            set(rowId, array.getFloat(pos), output);
        }

        private void set(int rowId, float value, ColumnVector output) {
            ((DoubleColumnVector) output).vector[rowId] = value;
            metrics.addValue(value);
        }

        @Override
        public Stream<FieldMetrics<?>> metrics() {
            return Stream.of(metrics.build());
        }
    }

    private static final class DoubleWriter extends OrcFieldWriter<Double> {
        private final DoubleFieldMetrics.Builder metrics;

        private DoubleWriter(int fieldId) {
            this.metrics = new DoubleFieldMetrics.Builder(fieldId);
        }

        @Override
        public void nonNullWrite(int rowId, Double data, ColumnVector output) {
            set(rowId, data, output);
        }

        @Override
        void writeFromRow(int rowId, RowData row, int pos, ColumnVector output) {
            set(rowId, row.getDouble(pos), output);
        }

        @Override
        void writeFromArray(int rowId, ArrayData array, int pos, ColumnVector output) {
            set(rowId, array.getDouble(pos), output);
        }

        private void set(int rowId, double value, ColumnVector output) {
            ((DoubleColumnVector) output).vector[rowId] = value;
            metrics.addValue(value);
        }

        @Override
        public Stream<FieldMetrics<?>> metrics() {
            return Stream.of(metrics.build());
        }
    }

    private static final class TimestampWriter extends OrcFieldWriter<TimestampData> {
        private static final int NANOS_PER_MILLI = 1_000_000;
        private static final int NANOS_PER_MICRO = 1_000;
        private static final int MILLIS_PER_SECOND = 1_000;

        private final int flinkPrecision;
        private final boolean nanos;

        private TimestampWriter(int flinkPrecision, boolean nanos) {
            this.flinkPrecision = flinkPrecision;
            this.nanos = nanos;
        }

        @Override
        public void nonNullWrite(int rowId, TimestampData data, ColumnVector output) {
            TimestampColumnVector vector = (TimestampColumnVector) output;
            vector.setIsUTC(true);
            long millis = data.getMillisecond();
            int nanoOfSecond =
                    (int) Math.floorMod(millis, (long) MILLIS_PER_SECOND) * NANOS_PER_MILLI
                            + data.getNanoOfMillisecond();
            vector.time[rowId] = millis;
            vector.nanos[rowId] =
                    nanos ? nanoOfSecond : (nanoOfSecond / NANOS_PER_MICRO) * NANOS_PER_MICRO;
        }

        @Override
        void writeFromRow(int rowId, RowData row, int pos, ColumnVector output) {
            nonNullWrite(rowId, row.getTimestamp(pos, flinkPrecision), output);
        }

        @Override
        void writeFromArray(int rowId, ArrayData array, int pos, ColumnVector output) {
            nonNullWrite(rowId, array.getTimestamp(pos, flinkPrecision), output);
        }
    }

    private static final class StringWriter extends OrcFieldWriter<StringData> {
        private static final StringWriter INSTANCE = new StringWriter();

        @Override
        public void nonNullWrite(int rowId, StringData data, ColumnVector output) {
            BytesColumnVector vector = (BytesColumnVector) output;
            if (data instanceof BinaryStringData) {
                // copy the UTF-8 bytes straight from Flink's memory segments into ORC's buffer
                BinaryStringData binary = (BinaryStringData) data;
                binary.ensureMaterialized();
                int length = binary.getSizeInBytes();
                vector.ensureValPreallocated(length);
                BinarySegmentUtils.copyToBytes(
                        binary.getSegments(),
                        binary.getOffset(),
                        vector.getValPreallocatedBytes(),
                        vector.getValPreallocatedStart(),
                        length);
                vector.setValPreallocated(rowId, length);
            } else {
                byte[] bytes = data.toBytes();
                vector.setVal(rowId, bytes, 0, bytes.length);
            }
        }

        @Override
        void writeFromRow(int rowId, RowData row, int pos, ColumnVector output) {
            nonNullWrite(rowId, row.getString(pos), output);
        }

        @Override
        void writeFromArray(int rowId, ArrayData array, int pos, ColumnVector output) {
            nonNullWrite(rowId, array.getString(pos), output);
        }
    }

    private static final class BinaryWriter extends OrcFieldWriter<byte[]> {
        private final int fixedLength;
        private final String column;

        private BinaryWriter(int fixedLength, String column) {
            this.fixedLength = fixedLength;
            this.column = column;
        }

        @Override
        public void nonNullWrite(int rowId, byte[] data, ColumnVector output) {
            if (fixedLength >= 0 && data.length != fixedLength) {
                throw new IllegalArgumentException(
                        String.format(
                                "Column '%s' holds binary values of exactly %d bytes, but a value"
                                        + " has %d bytes",
                                column, fixedLength, data.length));
            }
            ((BytesColumnVector) output).setVal(rowId, data, 0, data.length);
        }

        @Override
        void writeFromRow(int rowId, RowData row, int pos, ColumnVector output) {
            nonNullWrite(rowId, row.getBinary(pos), output);
        }

        @Override
        void writeFromArray(int rowId, ArrayData array, int pos, ColumnVector output) {
            nonNullWrite(rowId, array.getBinary(pos), output);
        }
    }

    private static final class DecimalWriter extends OrcFieldWriter<DecimalData> {
        private final int flinkPrecision;
        private final int flinkScale;
        private final int precision;
        private final int scale;
        private final String column;

        private DecimalWriter(
                int flinkPrecision, int flinkScale, int precision, int scale, String column) {
            this.flinkPrecision = flinkPrecision;
            this.flinkScale = flinkScale;
            this.precision = precision;
            this.scale = scale;
            this.column = column;
        }

        @Override
        public void nonNullWrite(int rowId, DecimalData data, ColumnVector output) {
            if (data.scale() != scale) {
                throw new IllegalArgumentException(
                        String.format(
                                "Column '%s' is decimal(%d, %d), but a value has scale %d: %s",
                                column, precision, scale, data.scale(), data));
            }
            HiveDecimalWritable target = ((DecimalColumnVector) output).vector[rowId];
            if (data.isCompact() && precision <= MAX_COMPACT_PRECISION) {
                long unscaled = data.toUnscaledLong();
                if (unscaled >= POWERS_OF_TEN[precision] || unscaled <= -POWERS_OF_TEN[precision]) {
                    throw overflow(data);
                }
                target.setFromLongAndScale(unscaled, scale);
            } else {
                target.setFromBigIntegerBytesAndScale(data.toUnscaledBytes(), scale);
                if (!target.isSet() || !target.mutateEnforcePrecisionScale(precision, scale)) {
                    throw overflow(data);
                }
            }
        }

        private IllegalArgumentException overflow(DecimalData data) {
            return new IllegalArgumentException(
                    String.format(
                            "Column '%s' is decimal(%d, %d), but the value %s has more digits",
                            column, precision, scale, data));
        }

        @Override
        void writeFromRow(int rowId, RowData row, int pos, ColumnVector output) {
            nonNullWrite(rowId, row.getDecimal(pos, flinkPrecision, flinkScale), output);
        }

        @Override
        void writeFromArray(int rowId, ArrayData array, int pos, ColumnVector output) {
            nonNullWrite(rowId, array.getDecimal(pos, flinkPrecision, flinkScale), output);
        }
    }
}
