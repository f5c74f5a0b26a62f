package dev.icebergflink.data.parquet;

import java.math.BigDecimal;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.iceberg.parquet.ParquetValueWriter;
import org.apache.iceberg.parquet.ParquetValueWriters;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;

/**
 * The Parquet writers of primitive columns for the Flink values that Iceberg's own writers do not
 * accept ({@link StringData}, {@link DecimalData}, {@link TimestampData}, TIME as int milliseconds,
 * byte arrays); the struct, list and map writers that hold them are {@link ParquetNestedWriters}.
 *
 * <p>All of them extend Iceberg's {@link ParquetValueWriters} building blocks, so definition and
 * repetition levels, null handling and field metrics come from Iceberg. Decimal buffers are reused
 * across values.
 */
final class ParquetLeafWriters {

    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private ParquetLeafWriters() {}

    static ParquetValueWriter<StringData> strings(ColumnDescriptor desc) {
        return new StringDataWriter(desc);
    }

    static ParquetValueWriter<byte[]> bytes(ColumnDescriptor desc) {
        return new BytesWriter(desc);
    }

    static ParquetValueWriter<byte[]> fixed(ColumnDescriptor desc, String column) {
        return new FixedWriter(desc, column);
    }

    static ParquetValueWriter<Integer> timeMillis(ColumnDescriptor desc, TimeUnit unit) {
        return new TimeWriter(desc, unit);
    }

    static ParquetValueWriter<TimestampData> timestamps(ColumnDescriptor desc, TimeUnit unit) {
        return new TimestampWriter(desc, unit);
    }

    static ParquetValueWriter<DecimalData> decimalAsInt(
            ColumnDescriptor desc, int precision, int scale, String column) {
        return new IntDecimalWriter(desc, precision, scale, column);
    }

    static ParquetValueWriter<DecimalData> decimalAsLong(
            ColumnDescriptor desc, int precision, int scale, String column) {
        return new LongDecimalWriter(desc, precision, scale, column);
    }

    static ParquetValueWriter<DecimalData> decimalAsFixed(
            ColumnDescriptor desc, int precision, int scale, String column) {
        return new FixedDecimalWriter(desc, precision, scale, column);
    }

    private static final class StringDataWriter
            extends ParquetValueWriters.PrimitiveWriter<StringData> {
        private StringDataWriter(ColumnDescriptor desc) {
            super(desc);
        }

        @Override
        public void write(int repetitionLevel, StringData value) {
            // toBytes may return the row's own buffer, which the caller may reuse: mark it reused.
            column.writeBinary(repetitionLevel, Binary.fromReusedByteArray(value.toBytes()));
        }
    }

    private static final class BytesWriter extends ParquetValueWriters.PrimitiveWriter<byte[]> {
        private BytesWriter(ColumnDescriptor desc) {
            super(desc);
        }

        @Override
        public void write(int repetitionLevel, byte[] value) {
            column.writeBinary(repetitionLevel, Binary.fromReusedByteArray(value));
        }
    }

    private static final class FixedWriter extends ParquetValueWriters.PrimitiveWriter<byte[]> {
        private final int length;
        private final String columnName;

        private FixedWriter(ColumnDescriptor desc, String columnName) {
            super(desc);
            this.length = desc.getPrimitiveType().getTypeLength();
            this.columnName = columnName;
        }

        @Override
        public void write(int repetitionLevel, byte[] value) {
            if (value.length != length) {
                throw new IllegalArgumentException(
                        String.format(
                                "Column '%s' holds exactly %d bytes (fixed[%d] or uuid) but the"
                                        + " value has %d bytes",
                                columnName, length, length, value.length));
            }
            column.writeBinary(repetitionLevel, Binary.fromReusedByteArray(value));
        }
    }

    /** Writes Flink TIME values (int milliseconds of the day) in the unit of the file column. */
    private static final class TimeWriter extends ParquetValueWriters.PrimitiveWriter<Integer> {
        private final TimeUnit unit;

        private TimeWriter(ColumnDescriptor desc, TimeUnit unit) {
            super(desc);
            this.unit = unit;
        }

        @Override
        public void write(int repetitionLevel, Integer millis) {
            switch (unit) {
                case MILLIS:
                    column.writeInteger(repetitionLevel, millis);
                    break;
                case MICROS:
                    column.writeLong(repetitionLevel, millis * 1_000L);
                    break;
                default:
                    column.writeLong(repetitionLevel, millis * 1_000_000L);
            }
        }
    }

    /** Writes {@link TimestampData} as a long in the unit of the file column. */
    private static final class TimestampWriter
            extends ParquetValueWriters.PrimitiveWriter<TimestampData> {
        private final TimeUnit unit;

        private TimestampWriter(ColumnDescriptor desc, TimeUnit unit) {
            super(desc);
            this.unit = unit;
        }

        @Override
        public void write(int repetitionLevel, TimestampData value) {
            column.writeLong(repetitionLevel, inUnit(value, unit));
        }
    }

    /** A timestamp as a count of {@code unit}s since the epoch, as Parquet stores it. */
    static long inUnit(TimestampData value, TimeUnit unit) {
        long millis = value.getMillisecond();
        int nanoOfMilli = value.getNanoOfMillisecond();
        switch (unit) {
            case MILLIS:
                return millis;
            case MICROS:
                return millis * 1_000L + nanoOfMilli / 1_000;
            default:
                return millis * 1_000_000L + nanoOfMilli;
        }
    }

    /** Shared checks of decimal writers: the value's scale and its number of digits. */
    private abstract static class DecimalWriter
            extends ParquetValueWriters.PrimitiveWriter<DecimalData> {
        private final int precision;
        private final int scale;
        private final String columnName;

        DecimalWriter(ColumnDescriptor desc, int precision, int scale, String columnName) {
            super(desc);
            this.precision = precision;
            this.scale = scale;
            this.columnName = columnName;
        }

        /** Returns the unscaled value of a compact decimal after checking it fits the column. */
        long checkedUnscaledLong(DecimalData value) {
            checkScale(value);
            if (!value.isCompact()) {
                BigDecimal decimal = value.toBigDecimal();
                if (decimal.precision() > precision) {
                    throw tooManyDigits(value);
                }
                return decimal.unscaledValue().longValue();
            }
            long unscaled = value.toUnscaledLong();
            if (unscaled >= POWERS_OF_TEN[precision] || unscaled <= -POWERS_OF_TEN[precision]) {
                throw tooManyDigits(value);
            }
            return unscaled;
        }

        void checkScale(DecimalData value) {
            if (value.scale() != scale) {
                throw new IllegalArgumentException(
                        String.format(
                                "Column '%s' is decimal(%d, %d) but the value %s has scale %d",
                                columnName, precision, scale, value, value.scale()));
            }
        }

        IllegalArgumentException tooManyDigits(DecimalData value) {
            return new IllegalArgumentException(
                    String.format(
                            "Column '%s' is decimal(%d, %d) but the value %s has more than %d"
                                    + " digits",
                            columnName, precision, scale, value, precision));
        }

        int precision() {
            return precision;
        }
    }

    private static final class IntDecimalWriter extends DecimalWriter {
        private IntDecimalWriter(ColumnDescriptor desc, int precision, int scale, String column) {
            super(desc, precision, scale, column);
        }

        @Override
        public void write(int repetitionLevel, DecimalData value) {
            column.writeInteger(repetitionLevel, (int) checkedUnscaledLong(value));
        }
    }

    private static final class LongDecimalWriter extends DecimalWriter {
        private LongDecimalWriter(ColumnDescriptor desc, int precision, int scale, String column) {
            super(desc, precision, scale, column);
        }

        @Override
        public void write(int repetitionLevel, DecimalData value) {
            column.writeLong(repetitionLevel, checkedUnscaledLong(value));
        }
    }

    /** Writes decimals as sign-extended big-endian two's complement into one reused buffer. */
    private static final class FixedDecimalWriter extends DecimalWriter {
        private final byte[] buffer;

        private FixedDecimalWriter(ColumnDescriptor desc, int precision, int scale, String column) {
            super(desc, precision, scale, column);
            this.buffer = new byte[desc.getPrimitiveType().getTypeLength()];
        }

        @Override
        public void write(int repetitionLevel, DecimalData value) {
            if (value.isCompact() && precision() > 18) {
                // The value's own precision is at most 18 digits, so it fits any wider column.
                checkScale(value);
                fillFromLong(value.toUnscaledLong());
            } else if (value.isCompact()) {
                fillFromLong(checkedUnscaledLong(value));
            } else {
                checkScale(value);
                BigDecimal decimal = value.toBigDecimal();
                if (decimal.precision() > precision()) {
                    throw tooManyDigits(value);
                }
                fillFromBytes(decimal.unscaledValue().toByteArray(), value);
            }
            column.writeBinary(repetitionLevel, Binary.fromReusedByteArray(buffer));
        }

        private void fillFromLong(long unscaled) {
            int length = buffer.length;
            for (int i = 0; i < length; i++) {
                int shift = Math.min(63, 8 * (length - 1 - i));
                buffer[i] = (byte) (unscaled >> shift);
            }
        }

        private void fillFromBytes(byte[] unscaled, DecimalData value) {
            int padding = buffer.length - unscaled.length;
            if (padding < 0) {
                throw tooManyDigits(value);
            }
            byte sign = unscaled[0] < 0 ? (byte) -1 : 0;
            for (int i = 0; i < padding; i++) {
                buffer[i] = sign;
            }
            System.arraycopy(unscaled, 0, buffer, padding, unscaled.length);
        }
    }
}
