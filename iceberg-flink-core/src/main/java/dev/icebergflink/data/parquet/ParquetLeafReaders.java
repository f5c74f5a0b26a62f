package dev.icebergflink.data.parquet;

import dev.icebergflink.data.row.BinaryRowBuilder;
import dev.icebergflink.data.row.RowDataConstants;
import dev.icebergflink.data.row.StringDataArena;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;

/**
 * The readers of primitive Parquet columns, one per pair of Iceberg type and Parquet encoding, each
 * able to produce its value two ways: boxed, as Flink's internal value, for nested structs, lists
 * and maps ({@link ParquetLeafReader#read}); and unboxed, written straight into a field of a {@link
 * BinaryRowBuilder}, for the columns of the top-level row ({@link ParquetLeafReader#readInto}).
 *
 * <p>They exist so that one decision per column (which reader fits this Iceberg type in this
 * Parquet type) serves both paths, and so that the top-level row skips the boxed longs and doubles,
 * the string copies and the {@link DecimalData} objects a generic row would hold: strings and
 * binaries are copied once, from the page's bytes into the row, and compact decimals are written as
 * their unscaled long.
 */
final class ParquetLeafReaders {

    private ParquetLeafReaders() {}

    static ParquetLeafReader<Boolean> booleans(ColumnDescriptor desc) {
        return new BooleanReader(desc);
    }

    /** INT32 columns read as INT or DATE. */
    static ParquetLeafReader<Integer> ints(ColumnDescriptor desc) {
        return new IntReader(desc);
    }

    static ParquetLeafReader<Long> longs(ColumnDescriptor desc) {
        return new LongReader(desc);
    }

    /** INT32 columns read as BIGINT, after an int to long promotion. */
    static ParquetLeafReader<Long> intsAsLongs(ColumnDescriptor desc) {
        return new IntAsLongReader(desc);
    }

    static ParquetLeafReader<Float> floats(ColumnDescriptor desc) {
        return new FloatReader(desc);
    }

    static ParquetLeafReader<Double> doubles(ColumnDescriptor desc) {
        return new DoubleReader(desc);
    }

    /** FLOAT columns read as DOUBLE, after a float to double promotion. */
    static ParquetLeafReader<Double> floatsAsDoubles(ColumnDescriptor desc) {
        return new FloatAsDoubleReader(desc);
    }

    /** Binary, fixed and uuid columns read as {@code byte[]}. */
    static ParquetLeafReader<byte[]> bytes(ColumnDescriptor desc) {
        return new BytesReader(desc);
    }

    static ParquetLeafReader<StringData> strings(ColumnDescriptor desc) {
        return new StringReader(desc);
    }

    /** TIME columns of any unit read as Flink's int milliseconds of the day (truncating). */
    static ParquetLeafReader<Integer> timeMillis(ColumnDescriptor desc, TimeUnit unit) {
        return new TimeReader(desc, unit);
    }

    /** INT64 timestamps in the column's annotated unit. */
    static ParquetLeafReader<TimestampData> timestamps(ColumnDescriptor desc, TimeUnit unit) {
        return new TimestampReader(desc, unit);
    }

    /** Legacy INT96 timestamps, kept to the nanosecond. */
    static ParquetLeafReader<TimestampData> int96Timestamps(ColumnDescriptor desc) {
        return new Int96TimestampReader(desc);
    }

    static ParquetLeafReader<DecimalData> decimalFromInt(
            ColumnDescriptor desc, int precision, int scale) {
        return new IntDecimalReader(desc, precision, scale);
    }

    static ParquetLeafReader<DecimalData> decimalFromLong(
            ColumnDescriptor desc, int precision, int scale) {
        return new LongDecimalReader(desc, precision, scale);
    }

    /** Big-endian two's complement decimals from fixed-length or variable binary. */
    static ParquetLeafReader<DecimalData> decimalFromBinary(
            ColumnDescriptor desc, int precision, int scale) {
        return new BinaryDecimalReader(desc, precision, scale);
    }

    private static final class BooleanReader extends ParquetLeafReader<Boolean> {
        private BooleanReader(ColumnDescriptor desc) {
            super(desc);
        }

        @Override
        public Boolean read(Boolean reuse) {
            return column.nextBoolean();
        }

        @Override
        void write(BinaryRowBuilder row, int pos) {
            row.setBoolean(pos, column.nextBoolean());
        }
    }

    private static final class IntReader extends ParquetLeafReader<Integer> {
        private IntReader(ColumnDescriptor desc) {
            super(desc);
        }

        @Override
        public Integer read(Integer reuse) {
            return column.nextInteger();
        }

        @Override
        void write(BinaryRowBuilder row, int pos) {
            row.setInt(pos, column.nextInteger());
        }
    }

    private static final class LongReader extends ParquetLeafReader<Long> {
        private LongReader(ColumnDescriptor desc) {
            super(desc);
        }

        @Override
        public Long read(Long reuse) {
            return column.nextLong();
        }

        @Override
        void write(BinaryRowBuilder row, int pos) {
            row.setLong(pos, column.nextLong());
        }
    }

    private static final class IntAsLongReader extends ParquetLeafReader<Long> {
        private IntAsLongReader(ColumnDescriptor desc) {
            super(desc);
        }

        @Override
        public Long read(Long reuse) {
            return (long) column.nextInteger();
        }

        @Override
        void write(BinaryRowBuilder row, int pos) {
            row.setLong(pos, column.nextInteger());
        }
    }

    private static final class FloatReader extends ParquetLeafReader<Float> {
        private FloatReader(ColumnDescriptor desc) {
            super(desc);
        }

        @Override
        public Float read(Float reuse) {
            return column.nextFloat();
        }

        @Override
        void write(BinaryRowBuilder row, int pos) {
            row.setFloat(pos, column.nextFloat());
        }
    }

    private static final class DoubleReader extends ParquetLeafReader<Double> {
        private DoubleReader(ColumnDescriptor desc) {
            super(desc);
        }

        @Override
        public Double read(Double reuse) {
            return column.nextDouble();
        }

        @Override
        void write(BinaryRowBuilder row, int pos) {
            row.setDouble(pos, column.nextDouble());
        }
    }

    private static final class FloatAsDoubleReader extends ParquetLeafReader<Double> {
        private FloatAsDoubleReader(ColumnDescriptor desc) {
            super(desc);
        }

        @Override
        public Double read(Double reuse) {
            return (double) column.nextFloat();
        }

        @Override
        void write(BinaryRowBuilder row, int pos) {
            row.setDouble(pos, column.nextFloat());
        }
    }

    /**
     * Hands the bytes of a Parquet {@link Binary} to a {@link BinaryRowBuilder} without copying
     * them first. {@link Binary#writeTo(OutputStream)} passes a heap-backed binary's own array,
     * offset and length to the stream, and the stream here passes them on to {@link
     * BinaryRowBuilder#setBytes} (where {@code toByteBuffer()} would make a buffer per value).
     */
    private abstract static class BinaryLeafReader<T> extends ParquetLeafReader<T> {
        private final FieldSink sink = new FieldSink();

        private BinaryLeafReader(ColumnDescriptor desc) {
            super(desc);
        }

        @Override
        final void write(BinaryRowBuilder row, int pos) {
            Binary binary = column.nextBinary();
            sink.row = row;
            sink.pos = pos;
            try {
                binary.writeTo(sink);
            } catch (IOException e) {
                throw new UncheckedIOException(e); // the sink does no I/O
            }
        }
    }

    /** The stream a binary writes itself to: one call per value, forwarded to the row field. */
    private static final class FieldSink extends OutputStream {
        private BinaryRowBuilder row;
        private int pos;

        @Override
        public void write(byte[] bytes, int offset, int length) {
            row.setBytes(pos, bytes, offset, length);
        }

        @Override
        public void write(int b) {
            throw new UnsupportedOperationException(
                    "A Parquet binary value is expected to write its bytes in one call");
        }
    }

    private static final class BytesReader extends BinaryLeafReader<byte[]> {
        private BytesReader(ColumnDescriptor desc) {
            super(desc);
        }

        @Override
        public byte[] read(byte[] reuse) {
            return column.nextBinary().getBytes();
        }
    }

    private static final class StringReader extends BinaryLeafReader<StringData> {
        private final StringDataArena arena = new StringDataArena();

        private StringReader(ColumnDescriptor desc) {
            super(desc);
        }

        @Override
        public StringData read(StringData reuse) {
            // the arena copies the bytes: the page buffer behind the binary is reused
            return arena.copyOf(column.nextBinary().toByteBuffer());
        }
    }

    private static final class TimeReader extends ParquetLeafReader<Integer> {
        private final TimeUnit unit;

        private TimeReader(ColumnDescriptor desc, TimeUnit unit) {
            super(desc);
            this.unit = unit;
        }

        @Override
        public Integer read(Integer reuse) {
            return nextMillisOfDay();
        }

        @Override
        void write(BinaryRowBuilder row, int pos) {
            row.setInt(pos, nextMillisOfDay());
        }

        private int nextMillisOfDay() {
            return unit == TimeUnit.MILLIS
                    ? column.nextInteger()
                    : millisOfDay(column.nextLong(), unit);
        }
    }

    /**
     * Flink's milliseconds of the day of a Parquet time stored as a long of {@code unit} (micro- or
     * nanoseconds); the finer part is truncated.
     */
    static int millisOfDay(long value, TimeUnit unit) {
        return (int) (unit == TimeUnit.MICROS ? value / 1_000L : value / 1_000_000L);
    }

    /** A Parquet INT64 timestamp of {@code unit} since the epoch as Flink's value. */
    static TimestampData timestamp(long value, TimeUnit unit) {
        switch (unit) {
            case MILLIS:
                return TimestampData.fromEpochMillis(value);
            case MICROS:
                return RowDataConstants.fromMicros(value);
            default:
                return RowDataConstants.fromNanos(value);
        }
    }

    private static final class TimestampReader extends ParquetLeafReader<TimestampData> {
        private final TimeUnit unit;

        private TimestampReader(ColumnDescriptor desc, TimeUnit unit) {
            super(desc);
            this.unit = unit;
        }

        @Override
        public TimestampData read(TimestampData reuse) {
            return nextTimestamp();
        }

        @Override
        void write(BinaryRowBuilder row, int pos) {
            row.setTimestamp(pos, nextTimestamp());
        }

        private TimestampData nextTimestamp() {
            return timestamp(column.nextLong(), unit);
        }
    }

    /**
     * Legacy INT96 timestamps (written by Hive, Impala and old Spark): 8 little-endian bytes of
     * nanoseconds of the day, then 4 little-endian bytes of Julian day.
     */
    private static final class Int96TimestampReader extends ParquetLeafReader<TimestampData> {
        private static final long JULIAN_DAY_OF_EPOCH = 2_440_588L;
        private static final long MILLIS_PER_DAY = 86_400_000L;

        private Int96TimestampReader(ColumnDescriptor desc) {
            super(desc);
        }

        @Override
        public TimestampData read(TimestampData reuse) {
            return nextTimestamp();
        }

        @Override
        void write(BinaryRowBuilder row, int pos) {
            row.setTimestamp(pos, nextTimestamp());
        }

        private TimestampData nextTimestamp() {
            ByteBuffer bytes = column.nextBinary().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            long nanosOfDay = bytes.getLong();
            long epochDay = bytes.getInt() - JULIAN_DAY_OF_EPOCH;
            return TimestampData.fromEpochMillis(
                    epochDay * MILLIS_PER_DAY + nanosOfDay / 1_000_000L,
                    (int) (nanosOfDay % 1_000_000L));
        }
    }

    /**
     * Decimals stored as an unscaled int or long; the expected precision may be wider than the
     * file's after a decimal promotion, and only then is a non-compact decimal made.
     */
    private abstract static class UnscaledDecimalReader extends ParquetLeafReader<DecimalData> {
        private final int precision;
        private final int scale;
        private final boolean compact;

        private UnscaledDecimalReader(ColumnDescriptor desc, int precision, int scale) {
            super(desc);
            this.precision = precision;
            this.scale = scale;
            this.compact = DecimalData.isCompact(precision);
        }

        /** The next unscaled value of the column. */
        abstract long nextUnscaled();

        @Override
        public final DecimalData read(DecimalData reuse) {
            long unscaled = nextUnscaled();
            if (compact) {
                return DecimalData.fromUnscaledLong(unscaled, precision, scale);
            }
            return DecimalData.fromBigDecimal(
                    BigDecimal.valueOf(unscaled, scale), precision, scale);
        }

        @Override
        final void write(BinaryRowBuilder row, int pos) {
            if (compact) {
                row.setCompactDecimal(pos, nextUnscaled());
            } else {
                row.setDecimal(pos, read(null));
            }
        }
    }

    private static final class IntDecimalReader extends UnscaledDecimalReader {
        private IntDecimalReader(ColumnDescriptor desc, int precision, int scale) {
            super(desc, precision, scale);
        }

        @Override
        long nextUnscaled() {
            return column.nextInteger();
        }
    }

    private static final class LongDecimalReader extends UnscaledDecimalReader {
        private LongDecimalReader(ColumnDescriptor desc, int precision, int scale) {
            super(desc, precision, scale);
        }

        @Override
        long nextUnscaled() {
            return column.nextLong();
        }
    }

    private static final class BinaryDecimalReader extends ParquetLeafReader<DecimalData> {
        private final int precision;
        private final int scale;
        private final boolean compact;

        private BinaryDecimalReader(ColumnDescriptor desc, int precision, int scale) {
            super(desc);
            this.precision = precision;
            this.scale = scale;
            this.compact = DecimalData.isCompact(precision);
        }

        @Override
        public DecimalData read(DecimalData reuse) {
            Binary unscaled = column.nextBinary();
            if (compact) {
                return DecimalData.fromUnscaledLong(unscaledLong(unscaled), precision, scale);
            }
            return DecimalData.fromUnscaledBytes(unscaled.getBytes(), precision, scale);
        }

        @Override
        void write(BinaryRowBuilder row, int pos) {
            if (compact) {
                row.setCompactDecimal(pos, unscaledLong(column.nextBinary()));
            } else {
                row.setDecimal(pos, read(null));
            }
        }

        /**
         * The value of big-endian two's complement bytes that fit a long (a compact decimal's do);
         * leading sign bytes beyond eight shift out.
         */
        private static long unscaledLong(Binary binary) {
            ByteBuffer bytes = binary.toByteBuffer();
            int start = bytes.position();
            int end = bytes.limit();
            if (start == end) {
                return 0L;
            }
            long value = bytes.get(start); // sign-extends the most significant byte
            for (int i = start + 1; i < end; i++) {
                value = (value << 8) | (bytes.get(i) & 0xFF);
            }
            return value;
        }
    }
}
