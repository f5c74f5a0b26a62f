package dev.icebergflink.data.avro;

import java.io.IOException;
import java.math.BigInteger;
import java.util.List;
import org.apache.avro.io.Encoder;
import org.apache.avro.util.Utf8;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.iceberg.avro.ValueWriter;
import org.apache.iceberg.avro.ValueWriters;

/**
 * Avro {@link ValueWriter}s for Flink's internal data classes ({@link StringData}, {@link
 * DecimalData}, {@link TimestampData}, {@link ArrayData}, {@link MapData}, {@link RowData}), the
 * pieces that Iceberg's {@link ValueWriters} cannot cover because it expects Java or Avro classes.
 * Primitive values that Flink already holds as Java boxes (booleans, ints, longs, floats, doubles,
 * byte arrays) are written with Iceberg's own {@link ValueWriters}.
 *
 * <p>Every writer is built once per file schema; none allocates per value beyond what Flink's data
 * classes force (for example {@link DecimalData#toUnscaledBytes()} for non-compact decimals).
 */
final class AvroFieldWriters {

    private AvroFieldWriters() {}

    /** Writes {@link StringData} as an Avro string. */
    static ValueWriter<StringData> strings() {
        return StringWriter.INSTANCE;
    }

    /** Writes a Flink TIME value (int milliseconds of the day) as Iceberg's long microseconds. */
    static ValueWriter<Integer> timeMillisAsMicros() {
        return TimeWriter.INSTANCE;
    }

    /** Writes a {@link TimestampData} as a long of microseconds since the epoch. */
    static ValueWriter<TimestampData> timestampMicros() {
        return TimestampMicrosWriter.INSTANCE;
    }

    /** Writes a {@link TimestampData} as a long of nanoseconds since the epoch. */
    static ValueWriter<TimestampData> timestampNanos() {
        return TimestampNanosWriter.INSTANCE;
    }

    /** Writes a byte, short or int (Flink TINYINT, SMALLINT, INT) into an Iceberg long column. */
    static ValueWriter<Number> integersAsLongs() {
        return IntegerAsLongWriter.INSTANCE;
    }

    /** Writes a Flink FLOAT into an Iceberg double column. */
    static ValueWriter<Float> floatsAsDoubles() {
        return FloatAsDoubleWriter.INSTANCE;
    }

    /**
     * Writes {@link DecimalData} as Iceberg's fixed-length big-endian two's complement unscaled
     * value.
     *
     * @param column the column path, for error messages
     */
    static ValueWriter<DecimalData> decimal(
            String column, int precision, int scale, int fixedSize) {
        return new DecimalWriter(column, precision, scale, fixedSize);
    }

    /** Writes {@link ArrayData} as an Avro array. */
    static ValueWriter<ArrayData> array(ValueWriter<?> elementWriter, LogicalType elementType) {
        return new ArrayWriter(elementWriter, elementType);
    }

    /** Writes {@link MapData} with string keys as an Avro map. */
    static ValueWriter<MapData> map(
            ValueWriter<?> keyWriter,
            LogicalType keyType,
            ValueWriter<?> valueWriter,
            LogicalType valueType) {
        return new MapWriter(keyWriter, keyType, valueWriter, valueType, false);
    }

    /**
     * Writes {@link MapData} as an Avro array of key/value records, Iceberg's encoding of maps
     * whose keys are not strings.
     */
    static ValueWriter<MapData> arrayMap(
            ValueWriter<?> keyWriter,
            LogicalType keyType,
            ValueWriter<?> valueWriter,
            LogicalType valueType) {
        return new MapWriter(keyWriter, keyType, valueWriter, valueType, true);
    }

    /** Writes a {@link RowData} as an Avro record, field by field in the given order. */
    static ValueWriter<RowData> row(List<ValueWriter<?>> writers, List<LogicalType> types) {
        return new RowDataWriter(writers, types);
    }

    private static final class StringWriter implements ValueWriter<StringData> {
        private static final StringWriter INSTANCE = new StringWriter();

        @Override
        public void write(StringData value, Encoder encoder) throws IOException {
            // toBytes() returns the backing array when the string owns one whole array
            encoder.writeString(new Utf8(value.toBytes()));
        }
    }

    private static final class TimeWriter implements ValueWriter<Integer> {
        private static final TimeWriter INSTANCE = new TimeWriter();

        @Override
        public void write(Integer millisOfDay, Encoder encoder) throws IOException {
            encoder.writeLong(millisOfDay * 1_000L);
        }
    }

    private static final class TimestampMicrosWriter implements ValueWriter<TimestampData> {
        private static final TimestampMicrosWriter INSTANCE = new TimestampMicrosWriter();

        @Override
        public void write(TimestampData value, Encoder encoder) throws IOException {
            encoder.writeLong(
                    Math.addExact(
                            Math.multiplyExact(value.getMillisecond(), 1_000L),
                            value.getNanoOfMillisecond() / 1_000));
        }
    }

    private static final class TimestampNanosWriter implements ValueWriter<TimestampData> {
        private static final TimestampNanosWriter INSTANCE = new TimestampNanosWriter();

        @Override
        public void write(TimestampData value, Encoder encoder) throws IOException {
            encoder.writeLong(
                    Math.addExact(
                            Math.multiplyExact(value.getMillisecond(), 1_000_000L),
                            value.getNanoOfMillisecond()));
        }
    }

    private static final class IntegerAsLongWriter implements ValueWriter<Number> {
        private static final IntegerAsLongWriter INSTANCE = new IntegerAsLongWriter();

        @Override
        public void write(Number value, Encoder encoder) throws IOException {
            encoder.writeLong(value.longValue());
        }
    }

    private static final class FloatAsDoubleWriter implements ValueWriter<Float> {
        private static final FloatAsDoubleWriter INSTANCE = new FloatAsDoubleWriter();

        @Override
        public void write(Float value, Encoder encoder) throws IOException {
            encoder.writeDouble(value);
        }
    }

    private static final class DecimalWriter implements ValueWriter<DecimalData> {
        private final String column;
        private final int precision;
        private final int scale;
        private final byte[] buffer;
        private final BigInteger limit;
        private final long longLimit;

        private DecimalWriter(String column, int precision, int scale, int fixedSize) {
            this.column = column;
            this.precision = precision;
            this.scale = scale;
            this.buffer = new byte[fixedSize];
            this.limit = BigInteger.TEN.pow(precision);
            // 10^precision as a long, or 0 when a long cannot exceed the precision
            this.longLimit = precision <= 18 ? limit.longValueExact() : 0;
        }

        @Override
        public void write(DecimalData value, Encoder encoder) throws IOException {
            if (value.scale() != scale) {
                throw new IllegalArgumentException(
                        String.format(
                                "Cannot write decimal %s with scale %d into column '%s' of type"
                                        + " decimal(%d, %d): the scales must be equal",
                                value, value.scale(), column, precision, scale));
            }
            if (value.isCompact()) {
                writeLong(value, value.toUnscaledLong());
            } else {
                writeBig(value);
            }
            encoder.writeFixed(buffer);
        }

        private void writeLong(DecimalData value, long unscaled) {
            if (longLimit > 0 && (unscaled >= longLimit || unscaled <= -longLimit)) {
                throw tooManyDigits(value);
            }
            // the digit check above guarantees that the value fits the fixed length
            long remaining = unscaled;
            for (int i = buffer.length - 1; i >= 0; i--) {
                buffer[i] = (byte) remaining;
                remaining >>= 8; // arithmetic shift sign-extends negative values
            }
        }

        private IllegalArgumentException tooManyDigits(DecimalData value) {
            return new IllegalArgumentException(
                    String.format(
                            "Cannot write decimal %s into column '%s' of type decimal(%d, %d):"
                                    + " it has more than %d digits",
                            value, column, precision, scale, precision));
        }

        private void writeBig(DecimalData value) {
            BigInteger unscaled = value.toBigDecimal().unscaledValue();
            if (unscaled.abs().compareTo(limit) >= 0) {
                throw tooManyDigits(value);
            }
            byte[] bytes = unscaled.toByteArray();
            int padding = buffer.length - bytes.length;
            byte fill = (byte) (unscaled.signum() < 0 ? 0xFF : 0x00);
            for (int i = 0; i < padding; i++) {
                buffer[i] = fill;
            }
            System.arraycopy(bytes, 0, buffer, padding, bytes.length);
        }
    }

    @SuppressWarnings("unchecked")
    private static ValueWriter<Object> cast(ValueWriter<?> writer) {
        return (ValueWriter<Object>) writer;
    }

    private static final class ArrayWriter implements ValueWriter<ArrayData> {
        private final ValueWriter<Object> elementWriter;
        private final ArrayData.ElementGetter elementGetter;

        private ArrayWriter(ValueWriter<?> elementWriter, LogicalType elementType) {
            this.elementWriter = cast(elementWriter);
            this.elementGetter = ArrayData.createElementGetter(elementType);
        }

        @Override
        public void write(ArrayData array, Encoder encoder) throws IOException {
            int size = array.size();
            encoder.writeArrayStart();
            encoder.setItemCount(size);
            for (int i = 0; i < size; i++) {
                encoder.startItem();
                elementWriter.write(elementGetter.getElementOrNull(array, i), encoder);
            }
            encoder.writeArrayEnd();
        }
    }

    private static final class MapWriter implements ValueWriter<MapData> {
        private final ValueWriter<Object> keyWriter;
        private final ValueWriter<Object> valueWriter;
        private final ArrayData.ElementGetter keyGetter;
        private final ArrayData.ElementGetter valueGetter;
        private final boolean asArray;

        private MapWriter(
                ValueWriter<?> keyWriter,
                LogicalType keyType,
                ValueWriter<?> valueWriter,
                LogicalType valueType,
                boolean asArray) {
            this.keyWriter = cast(keyWriter);
            this.valueWriter = cast(valueWriter);
            this.keyGetter = ArrayData.createElementGetter(keyType);
            this.valueGetter = ArrayData.createElementGetter(valueType);
            this.asArray = asArray;
        }

        @Override
        public void write(MapData map, Encoder encoder) throws IOException {
            int size = map.size();
            ArrayData keys = map.keyArray();
            ArrayData values = map.valueArray();
            if (asArray) {
                encoder.writeArrayStart();
            } else {
                encoder.writeMapStart();
            }
            encoder.setItemCount(size);
            for (int i = 0; i < size; i++) {
                encoder.startItem();
                keyWriter.write(keyGetter.getElementOrNull(keys, i), encoder);
                valueWriter.write(valueGetter.getElementOrNull(values, i), encoder);
            }
            if (asArray) {
                encoder.writeArrayEnd();
            } else {
                encoder.writeMapEnd();
            }
        }
    }

    private static final class RowDataWriter extends ValueWriters.StructWriter<RowData> {
        private final RowData.FieldGetter[] getters;

        private RowDataWriter(List<ValueWriter<?>> writers, List<LogicalType> types) {
            super(writers);
            this.getters = new RowData.FieldGetter[types.size()];
            for (int i = 0; i < getters.length; i++) {
                getters[i] = RowData.createFieldGetter(types.get(i), i);
            }
        }

        @Override
        protected Object get(RowData row, int pos) {
            return getters[pos].getFieldOrNull(row);
        }
    }
}
