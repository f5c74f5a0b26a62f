package dev.icebergflink.data.avro;

import dev.icebergflink.data.row.StringDataArena;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.io.Decoder;
import org.apache.avro.util.Utf8;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.avro.ValueReader;
import org.apache.iceberg.avro.ValueReaders;
import org.apache.iceberg.util.Pair;

/**
 * Avro {@link ValueReader}s that produce Flink's internal data classes ({@link StringData}, {@link
 * DecimalData}, {@link TimestampData}, {@link GenericArrayData}, {@link GenericMapData}, {@link
 * GenericRowData}), the pieces that Iceberg's {@link ValueReaders} cannot provide because it
 * produces Java or Avro classes. Booleans, ints, longs, floats, doubles, dates, byte arrays,
 * constants, unions and row positions come from Iceberg's {@link ValueReaders} as they are.
 *
 * <p>Readers hold small per-reader buffers, so a reader tree must be used by one thread at a time,
 * which is how Avro uses a {@link org.apache.avro.io.DatumReader}. Arrays and maps are newly
 * allocated for every value, so rows stay valid when container reuse is off.
 */
final class AvroFieldReaders {

    private AvroFieldReaders() {}

    /** Reads an Avro string as {@link StringData}. */
    static ValueReader<StringData> strings() {
        return new StringReader();
    }

    /** Reads Iceberg's long microseconds of the day as Flink's int milliseconds of the day. */
    static ValueReader<Integer> timeMicrosAsMillis() {
        return TimeReader.INSTANCE;
    }

    /** Reads a long of microseconds since the epoch as {@link TimestampData}. */
    static ValueReader<TimestampData> timestampMicros() {
        return TimestampReader.MICROS;
    }

    /** Reads a long of nanoseconds since the epoch as {@link TimestampData}. */
    static ValueReader<TimestampData> timestampNanos() {
        return TimestampReader.NANOS;
    }

    /** Reads a long of milliseconds since the epoch as {@link TimestampData}. */
    static ValueReader<TimestampData> timestampMillis() {
        return TimestampReader.MILLIS;
    }

    /**
     * Reads a decimal stored as fixed-length ({@code fixedSize} &gt; 0) or variable-length ({@code
     * fixedSize} == 0) big-endian unscaled bytes as {@link DecimalData} of the given (possibly
     * wider than in the file) precision.
     */
    static ValueReader<DecimalData> decimal(int fixedSize, int precision, int scale) {
        return new DecimalReader(fixedSize, precision, scale);
    }

    /** Reads an Avro array as {@link GenericArrayData}. */
    static ValueReader<GenericArrayData> array(ValueReader<?> elementReader) {
        return new ArrayReader(elementReader);
    }

    /** Reads an Avro map (string keys) as {@link GenericMapData}. */
    static ValueReader<GenericMapData> map(ValueReader<?> keyReader, ValueReader<?> valueReader) {
        return new MapReader(keyReader, valueReader, false);
    }

    /**
     * Reads an Avro array of key/value records, Iceberg's encoding of maps with non-string keys, as
     * {@link GenericMapData}.
     */
    static ValueReader<GenericMapData> arrayMap(
            ValueReader<?> keyReader, ValueReader<?> valueReader) {
        return new MapReader(keyReader, valueReader, true);
    }

    /**
     * Reads an Avro record as a {@link GenericRowData} of {@code arity} fields following a read
     * plan from {@link ValueReaders#buildReadPlan}: the file's fields in file order, each with the
     * row position it fills (or null to skip it), followed by readers of constants and defaults for
     * the expected fields the file lacks.
     */
    static ValueReader<RowData> row(List<Pair<Integer, ValueReader<?>>> readPlan, int arity) {
        return new RowReader(readPlan, arity);
    }

    private static final class StringReader implements ValueReader<StringData> {
        private final StringDataArena arena = new StringDataArena();
        private Utf8 scratch = new Utf8();

        @Override
        public StringData read(Decoder decoder, Object reuse) throws IOException {
            // readString(Utf8) reuses the scratch buffer; the arena copies the bytes out of it
            this.scratch = decoder.readString(scratch);
            return arena.copyOf(scratch.getBytes(), 0, scratch.getByteLength());
        }

        @Override
        public void skip(Decoder decoder) throws IOException {
            decoder.skipString();
        }
    }

    private static final class TimeReader implements ValueReader<Integer> {
        private static final TimeReader INSTANCE = new TimeReader();

        @Override
        public Integer read(Decoder decoder, Object reuse) throws IOException {
            return (int) Math.floorDiv(decoder.readLong(), 1_000L);
        }

        @Override
        public void skip(Decoder decoder) throws IOException {
            decoder.readLong();
        }
    }

    private static final class TimestampReader implements ValueReader<TimestampData> {
        private static final TimestampReader MILLIS = new TimestampReader(1L);
        private static final TimestampReader MICROS = new TimestampReader(1_000L);
        private static final TimestampReader NANOS = new TimestampReader(1_000_000L);

        private final long unitsPerMilli;
        private final int nanosPerUnit;

        private TimestampReader(long unitsPerMilli) {
            this.unitsPerMilli = unitsPerMilli;
            this.nanosPerUnit = (int) (1_000_000L / unitsPerMilli);
        }

        @Override
        public TimestampData read(Decoder decoder, Object reuse) throws IOException {
            long value = decoder.readLong();
            return TimestampData.fromEpochMillis(
                    Math.floorDiv(value, unitsPerMilli),
                    (int) Math.floorMod(value, unitsPerMilli) * nanosPerUnit);
        }

        @Override
        public void skip(Decoder decoder) throws IOException {
            decoder.readLong();
        }
    }

    private static final class DecimalReader implements ValueReader<DecimalData> {
        private final int fixedSize;
        private final int precision;
        private final int scale;
        private final byte[] fixedBuffer;

        private DecimalReader(int fixedSize, int precision, int scale) {
            this.fixedSize = fixedSize;
            this.precision = precision;
            this.scale = scale;
            this.fixedBuffer = new byte[fixedSize];
        }

        @Override
        public DecimalData read(Decoder decoder, Object reuse) throws IOException {
            byte[] bytes;
            int length;
            if (fixedSize > 0) {
                decoder.readFixed(fixedBuffer, 0, fixedSize);
                bytes = fixedBuffer;
                length = fixedSize;
            } else {
                bytes = decoder.readBytes(null).array();
                length = bytes.length;
            }
            if (DecimalData.isCompact(precision) && length <= Long.BYTES) {
                return DecimalData.fromUnscaledLong(toLong(bytes, length), precision, scale);
            }
            BigInteger unscaled = new BigInteger(bytes, 0, length);
            return DecimalData.fromBigDecimal(new BigDecimal(unscaled, scale), precision, scale);
        }

        private static long toLong(byte[] bytes, int length) {
            if (length == 0) {
                return 0L;
            }
            long value = bytes[0]; // sign-extends the most significant byte
            for (int i = 1; i < length; i++) {
                value = (value << 8) | (bytes[i] & 0xFF);
            }
            return value;
        }

        @Override
        public void skip(Decoder decoder) throws IOException {
            if (fixedSize > 0) {
                decoder.skipFixed(fixedSize);
            } else {
                decoder.skipBytes();
            }
        }
    }

    private static final class ArrayReader implements ValueReader<GenericArrayData> {
        private final ValueReader<?> elementReader;
        private final List<Object> scratch = new ArrayList<>();

        private ArrayReader(ValueReader<?> elementReader) {
            this.elementReader = elementReader;
        }

        @Override
        public GenericArrayData read(Decoder decoder, Object reuse) throws IOException {
            scratch.clear();
            long chunk = decoder.readArrayStart();
            while (chunk > 0) {
                for (long i = 0; i < chunk; i++) {
                    scratch.add(elementReader.read(decoder, null));
                }
                chunk = decoder.arrayNext();
            }
            GenericArrayData array = new GenericArrayData(scratch.toArray());
            scratch.clear();
            return array;
        }

        @Override
        public void skip(Decoder decoder) throws IOException {
            long chunk = decoder.skipArray();
            while (chunk > 0) {
                for (long i = 0; i < chunk; i++) {
                    elementReader.skip(decoder);
                }
                chunk = decoder.skipArray();
            }
        }
    }

    private static final class MapReader implements ValueReader<GenericMapData> {
        private final ValueReader<?> keyReader;
        private final ValueReader<?> valueReader;
        private final boolean asArray;

        private MapReader(ValueReader<?> keyReader, ValueReader<?> valueReader, boolean asArray) {
            this.keyReader = keyReader;
            this.valueReader = valueReader;
            this.asArray = asArray;
        }

        @Override
        public GenericMapData read(Decoder decoder, Object reuse) throws IOException {
            Map<Object, Object> map = new LinkedHashMap<>();
            long chunk = asArray ? decoder.readArrayStart() : decoder.readMapStart();
            while (chunk > 0) {
                for (long i = 0; i < chunk; i++) {
                    Object key = keyReader.read(decoder, null);
                    map.put(key, valueReader.read(decoder, null));
                }
                chunk = asArray ? decoder.arrayNext() : decoder.mapNext();
            }
            return new GenericMapData(map);
        }

        @Override
        public void skip(Decoder decoder) throws IOException {
            long chunk = asArray ? decoder.skipArray() : decoder.skipMap();
            while (chunk > 0) {
                for (long i = 0; i < chunk; i++) {
                    keyReader.skip(decoder);
                    valueReader.skip(decoder);
                }
                chunk = asArray ? decoder.skipArray() : decoder.skipMap();
            }
        }
    }

    private static final class RowReader extends ValueReaders.PlannedStructReader<RowData> {
        private final int arity;

        private RowReader(List<Pair<Integer, ValueReader<?>>> readPlan, int arity) {
            super(readPlan);
            this.arity = arity;
        }

        @Override
        protected RowData reuseOrCreate(Object reuse) {
            if (reuse instanceof GenericRowData && ((GenericRowData) reuse).getArity() == arity) {
                GenericRowData row = (GenericRowData) reuse;
                row.setRowKind(RowKind.INSERT);
                return row;
            }
            return new GenericRowData(arity);
        }

        @Override
        protected Object get(RowData row, int pos) {
            return ((GenericRowData) row).getField(pos);
        }

        @Override
        protected void set(RowData row, int pos, Object value) {
            ((GenericRowData) row).setField(pos, value);
        }
    }
}
