package dev.icebergflink.data.parquet;

import dev.icebergflink.data.RowDataConstants;
import dev.icebergflink.data.StringDataArena;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.iceberg.parquet.ParquetValueReader;
import org.apache.iceberg.parquet.ParquetValueReaders;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;

/**
 * The Parquet value readers that produce Flink's internal data structures: {@link GenericRowData},
 * {@link GenericArrayData} and {@link GenericMapData} containers, and leaf readers for {@link
 * StringData}, {@link DecimalData}, {@link TimestampData} and TIME as int milliseconds.
 *
 * <p>All of them extend Iceberg's {@link ParquetValueReaders} building blocks, which handle
 * definition and repetition levels and nulls. A row passed in for reuse is filled in place (with
 * its nested rows); lists and maps are always new objects, so rows handed out without reuse never
 * share state.
 */
final class FlinkParquetValueReaders {

    private FlinkParquetValueReaders() {}

    static ParquetValueReader<RowData> row(List<ParquetValueReader<?>> readers, int arity) {
        return new RowDataReader(readers, arity);
    }

    static ParquetValueReader<ArrayData> array(
            int definitionLevel, int repetitionLevel, ParquetValueReader<?> elementReader) {
        return new ArrayDataReader(definitionLevel, repetitionLevel, elementReader);
    }

    static ParquetValueReader<MapData> map(
            int definitionLevel,
            int repetitionLevel,
            ParquetValueReader<?> keyReader,
            ParquetValueReader<?> valueReader) {
        return new MapDataReader(definitionLevel, repetitionLevel, keyReader, valueReader);
    }

    static ParquetValueReader<StringData> strings(ColumnDescriptor desc) {
        return new StringDataReader(desc);
    }

    static ParquetValueReader<Integer> timeMillis(ColumnDescriptor desc, TimeUnit unit) {
        return new TimeReader(desc, unit);
    }

    static ParquetValueReader<TimestampData> timestamps(ColumnDescriptor desc, TimeUnit unit) {
        return new TimestampReader(desc, unit);
    }

    /** Legacy INT96 timestamps, kept to the nanosecond. */
    static ParquetValueReader<TimestampData> int96Timestamps(ColumnDescriptor desc) {
        return new Int96TimestampReader(desc);
    }

    static ParquetValueReader<DecimalData> decimalFromInt(
            ColumnDescriptor desc, int precision, int scale) {
        return new IntegerDecimalReader(desc, precision, scale);
    }

    static ParquetValueReader<DecimalData> decimalFromLong(
            ColumnDescriptor desc, int precision, int scale) {
        return new LongDecimalReader(desc, precision, scale);
    }

    static ParquetValueReader<DecimalData> decimalFromBinary(
            ColumnDescriptor desc, int precision, int scale) {
        return new BinaryDecimalReader(desc, precision, scale);
    }

    /** Reads a struct into a {@link GenericRowData}, reusing the given row when there is one. */
    private static final class RowDataReader
            extends ParquetValueReaders.StructReader<RowData, GenericRowData> {
        private final int arity;

        private RowDataReader(List<ParquetValueReader<?>> readers, int arity) {
            super(readers);
            this.arity = arity;
        }

        @Override
        protected GenericRowData newStructData(RowData reuse) {
            if (reuse instanceof GenericRowData && reuse.getArity() == arity) {
                return (GenericRowData) reuse;
            }
            return new GenericRowData(arity);
        }

        @Override
        protected Object getField(GenericRowData row, int pos) {
            return row.getField(pos);
        }

        @Override
        protected RowData buildStruct(GenericRowData row) {
            return row;
        }

        @Override
        protected void set(GenericRowData row, int pos, Object value) {
            row.setField(pos, value);
        }
    }

    /** A growable buffer of elements, kept by a list reader and reused for every list it reads. */
    private static final class ElementBuffer {
        private Object[] elements = new Object[8];
        private int size;

        void clear() {
            Arrays.fill(elements, 0, size, null);
            size = 0;
        }

        void add(Object element) {
            if (size == elements.length) {
                elements = Arrays.copyOf(elements, size * 2);
            }
            elements[size++] = element;
        }

        Object[] copy() {
            return Arrays.copyOf(elements, size);
        }
    }

    private static final class ArrayDataReader
            extends ParquetValueReaders.RepeatedReader<ArrayData, ElementBuffer, Object> {
        private final ElementBuffer buffer = new ElementBuffer();

        @SuppressWarnings("unchecked")
        private ArrayDataReader(
                int definitionLevel, int repetitionLevel, ParquetValueReader<?> reader) {
            super(definitionLevel, repetitionLevel, (ParquetValueReader<Object>) reader);
        }

        @Override
        protected ElementBuffer newListData(ArrayData reuse) {
            buffer.clear();
            return buffer;
        }

        @Override
        protected Object getElement(ElementBuffer list) {
            return null;
        }

        @Override
        protected void addElement(ElementBuffer list, Object element) {
            list.add(element);
        }

        @Override
        protected ArrayData buildList(ElementBuffer list) {
            return new GenericArrayData(list.copy());
        }
    }

    /** Keys and values read so far, kept by a map reader and reused for every map it reads. */
    private static final class EntryBuffer {
        private final ElementBuffer keys = new ElementBuffer();
        private final ElementBuffer values = new ElementBuffer();
        private final ParquetValueReaders.ReusableEntry<Object, Object> entry =
                new ParquetValueReaders.ReusableEntry<>();
    }

    private static final class MapDataReader
            extends ParquetValueReaders.RepeatedKeyValueReader<
                    MapData, EntryBuffer, Object, Object> {
        private final EntryBuffer buffer = new EntryBuffer();

        @SuppressWarnings("unchecked")
        private MapDataReader(
                int definitionLevel,
                int repetitionLevel,
                ParquetValueReader<?> keyReader,
                ParquetValueReader<?> valueReader) {
            super(
                    definitionLevel,
                    repetitionLevel,
                    (ParquetValueReader<Object>) keyReader,
                    (ParquetValueReader<Object>) valueReader);
        }

        @Override
        protected EntryBuffer newMapData(MapData reuse) {
            buffer.keys.clear();
            buffer.values.clear();
            return buffer;
        }

        @Override
        protected Map.Entry<Object, Object> getPair(EntryBuffer map) {
            map.entry.set(null, null);
            return map.entry;
        }

        @Override
        protected void addPair(EntryBuffer map, Object key, Object value) {
            map.keys.add(key);
            map.values.add(value);
        }

        @Override
        protected MapData buildMap(EntryBuffer map) {
            int size = map.keys.size;
            Map<Object, Object> entries = new LinkedHashMap<>(Math.max(4, size * 4 / 3 + 1));
            for (int i = 0; i < size; i++) {
                entries.put(map.keys.elements[i], map.values.elements[i]);
            }
            return new GenericMapData(entries);
        }
    }

    private static final class StringDataReader
            extends ParquetValueReaders.PrimitiveReader<StringData> {
        private StringDataReader(ColumnDescriptor desc) {
            super(desc);
        }

        private final StringDataArena arena = new StringDataArena();

        @Override
        public StringData read(StringData reuse) {
            // the arena copies the bytes: the page buffer behind the binary is reused
            return arena.copyOf(column.nextBinary().toByteBuffer());
        }
    }

    /** Reads a TIME column of any unit as Flink's int milliseconds of the day (truncating). */
    private static final class TimeReader extends ParquetValueReaders.PrimitiveReader<Integer> {
        private final TimeUnit unit;

        private TimeReader(ColumnDescriptor desc, TimeUnit unit) {
            super(desc);
            this.unit = unit;
        }

        @Override
        public Integer read(Integer reuse) {
            switch (unit) {
                case MILLIS:
                    return column.nextInteger();
                case MICROS:
                    return (int) (column.nextLong() / 1_000L);
                default:
                    return (int) (column.nextLong() / 1_000_000L);
            }
        }
    }

    /** Reads an int64 timestamp in the column's annotated unit as {@link TimestampData}. */
    private static final class TimestampReader
            extends ParquetValueReaders.PrimitiveReader<TimestampData> {
        private final TimeUnit unit;

        private TimestampReader(ColumnDescriptor desc, TimeUnit unit) {
            super(desc);
            this.unit = unit;
        }

        @Override
        public TimestampData read(TimestampData reuse) {
            long value = column.nextLong();
            switch (unit) {
                case MILLIS:
                    return TimestampData.fromEpochMillis(value);
                case MICROS:
                    return RowDataConstants.fromMicros(value);
                default:
                    return RowDataConstants.fromNanos(value);
            }
        }
    }

    /**
     * Reads legacy INT96 timestamps (written by Hive, Impala and old Spark): 8 little-endian bytes
     * of nanoseconds of the day, then 4 little-endian bytes of Julian day.
     */
    private static final class Int96TimestampReader
            extends ParquetValueReaders.PrimitiveReader<TimestampData> {
        private static final long JULIAN_DAY_OF_EPOCH = 2_440_588L;
        private static final long MILLIS_PER_DAY = 86_400_000L;

        private Int96TimestampReader(ColumnDescriptor desc) {
            super(desc);
        }

        @Override
        public TimestampData read(TimestampData reuse) {
            ByteBuffer bytes = column.nextBinary().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            long nanosOfDay = bytes.getLong();
            long epochDay = bytes.getInt() - JULIAN_DAY_OF_EPOCH;
            return TimestampData.fromEpochMillis(
                    epochDay * MILLIS_PER_DAY + nanosOfDay / 1_000_000L,
                    (int) (nanosOfDay % 1_000_000L));
        }
    }

    private static final class IntegerDecimalReader
            extends ParquetValueReaders.PrimitiveReader<DecimalData> {
        private final int precision;
        private final int scale;

        private IntegerDecimalReader(ColumnDescriptor desc, int precision, int scale) {
            super(desc);
            this.precision = precision;
            this.scale = scale;
        }

        @Override
        public DecimalData read(DecimalData reuse) {
            return fromUnscaledLong(column.nextInteger(), precision, scale);
        }
    }

    private static final class LongDecimalReader
            extends ParquetValueReaders.PrimitiveReader<DecimalData> {
        private final int precision;
        private final int scale;

        private LongDecimalReader(ColumnDescriptor desc, int precision, int scale) {
            super(desc);
            this.precision = precision;
            this.scale = scale;
        }

        @Override
        public DecimalData read(DecimalData reuse) {
            return fromUnscaledLong(column.nextLong(), precision, scale);
        }
    }

    /** Reads big-endian two's complement decimals from fixed-length or variable binary. */
    private static final class BinaryDecimalReader
            extends ParquetValueReaders.PrimitiveReader<DecimalData> {
        private final int precision;
        private final int scale;

        private BinaryDecimalReader(ColumnDescriptor desc, int precision, int scale) {
            super(desc);
            this.precision = precision;
            this.scale = scale;
        }

        @Override
        public DecimalData read(DecimalData reuse) {
            byte[] unscaled = column.nextBinary().getBytes();
            if (DecimalData.isCompact(precision)) {
                return DecimalData.fromUnscaledLong(
                        new BigInteger(unscaled).longValue(), precision, scale);
            }
            return DecimalData.fromUnscaledBytes(unscaled, precision, scale);
        }
    }

    /**
     * A decimal of the expected precision from an unscaled long; the expected precision may be
     * wider than the file's after a decimal promotion.
     */
    private static DecimalData fromUnscaledLong(long unscaled, int precision, int scale) {
        if (DecimalData.isCompact(precision)) {
            return DecimalData.fromUnscaledLong(unscaled, precision, scale);
        }
        return DecimalData.fromBigDecimal(BigDecimal.valueOf(unscaled, scale), precision, scale);
    }
}
