package dev.icebergflink.data.orc;

import dev.icebergflink.data.row.StringDataArena;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.iceberg.orc.OrcValueReader;
import org.apache.iceberg.orc.OrcValueReaders;
import org.apache.iceberg.types.Types;
import org.apache.orc.TypeDescription;
import org.apache.orc.storage.ql.exec.vector.BytesColumnVector;
import org.apache.orc.storage.ql.exec.vector.ColumnVector;
import org.apache.orc.storage.ql.exec.vector.Decimal64ColumnVector;
import org.apache.orc.storage.ql.exec.vector.DecimalColumnVector;
import org.apache.orc.storage.ql.exec.vector.ListColumnVector;
import org.apache.orc.storage.ql.exec.vector.LongColumnVector;
import org.apache.orc.storage.ql.exec.vector.MapColumnVector;
import org.apache.orc.storage.ql.exec.vector.TimestampColumnVector;
import org.apache.orc.storage.serde2.io.HiveDecimalWritable;

/**
 * The ORC value readers that produce Flink internal values ({@link StringData}, {@link
 * DecimalData}, {@link TimestampData}, {@link GenericRowData}, {@link GenericArrayData}, {@link
 * GenericMapData}); the plain numeric readers come from Iceberg's {@link OrcValueReaders}.
 *
 * <p>Every value handed out is a fresh object that shares no memory with ORC's column vectors, so
 * rows stay valid after the next batch is read.
 */
final class OrcFieldReaders {

    private static final int MAX_COMPACT_PRECISION = 18;

    private OrcFieldReaders() {}

    /** Flink TIME: Iceberg's micros of day truncated to an int of millis. */
    static OrcValueReader<Integer> timeMillis() {
        return TimeReader.INSTANCE;
    }

    /** Timestamps of any unit and zone as {@link TimestampData} (epoch based). */
    static OrcValueReader<TimestampData> timestamps() {
        return TimestampReader.INSTANCE;
    }

    /** Strings as {@link StringData}; one reader per column, as it owns a string arena. */
    static OrcValueReader<StringData> strings() {
        return new StringReader();
    }

    /** Decimals as {@link DecimalData} of the expected (possibly widened) precision and scale. */
    static OrcValueReader<DecimalData> decimals(int precision, int scale) {
        return new DecimalReader(precision, scale);
    }

    /**
     * A struct as a {@link GenericRowData} in the order of {@code struct}, with constants, metadata
     * columns ({@code _pos}, {@code _deleted}, row lineage) and columns missing from the file
     * handled by Iceberg's {@link OrcValueReaders.StructReader}.
     */
    static OrcValueReader<RowData> struct(
            TypeDescription orcType,
            List<OrcValueReader<?>> fieldReaders,
            Types.StructType struct,
            Map<Integer, ?> idToConstant) {
        return new RowReader(orcType, fieldReaders, struct, idToConstant);
    }

    static OrcValueReader<GenericArrayData> array(OrcValueReader<?> elementReader) {
        return new ArrayReader(elementReader);
    }

    static OrcValueReader<GenericMapData> map(
            OrcValueReader<?> keyReader, OrcValueReader<?> valueReader) {
        return new MapReader(keyReader, valueReader);
    }

    private static final class TimeReader implements OrcValueReader<Integer> {
        private static final TimeReader INSTANCE = new TimeReader();
        private static final long MICROS_PER_MILLI = 1_000L;

        @Override
        public Integer nonNullRead(ColumnVector vector, int row) {
            return (int) (((LongColumnVector) vector).vector[row] / MICROS_PER_MILLI);
        }
    }

    private static final class TimestampReader implements OrcValueReader<TimestampData> {
        private static final TimestampReader INSTANCE = new TimestampReader();
        private static final int NANOS_PER_MILLI = 1_000_000;
        private static final long MILLIS_PER_SECOND = 1_000L;

        @Override
        public TimestampData nonNullRead(ColumnVector vector, int row) {
            TimestampColumnVector timestamps = (TimestampColumnVector) vector;
            long epochSecond = Math.floorDiv(timestamps.time[row], MILLIS_PER_SECOND);
            int nanoOfSecond = timestamps.nanos[row];
            return TimestampData.fromEpochMillis(
                    epochSecond * MILLIS_PER_SECOND + nanoOfSecond / NANOS_PER_MILLI,
                    nanoOfSecond % NANOS_PER_MILLI);
        }
    }

    private static final class StringReader implements OrcValueReader<StringData> {
        private final StringDataArena arena = new StringDataArena();

        @Override
        public StringData nonNullRead(ColumnVector vector, int row) {
            BytesColumnVector bytes = (BytesColumnVector) vector;
            // copy: wrapping ORC's buffer would break when the next batch overwrites it
            return arena.copyOf(bytes.vector[row], bytes.start[row], bytes.length[row]);
        }
    }

    private static final class DecimalReader implements OrcValueReader<DecimalData> {
        private final int precision;
        private final int scale;

        private DecimalReader(int precision, int scale) {
            this.precision = precision;
            this.scale = scale;
        }

        @Override
        public DecimalData nonNullRead(ColumnVector vector, int row) {
            if (vector instanceof Decimal64ColumnVector) {
                Decimal64ColumnVector decimals = (Decimal64ColumnVector) vector;
                return rescaled(decimals.vector[row], decimals.scale);
            }
            HiveDecimalWritable value = ((DecimalColumnVector) vector).vector[row];
            if (precision <= MAX_COMPACT_PRECISION) {
                return DecimalData.fromUnscaledLong(value.serialize64(scale), precision, scale);
            }
            return DecimalData.fromBigDecimal(
                    value.getHiveDecimal().bigDecimalValue().setScale(scale), precision, scale);
        }

        private DecimalData rescaled(long unscaled, int fileScale) {
            if (fileScale == scale) {
                return DecimalData.fromUnscaledLong(unscaled, precision, scale);
            }
            return DecimalData.fromBigDecimal(
                    java.math.BigDecimal.valueOf(unscaled, fileScale).setScale(scale),
                    precision,
                    scale);
        }
    }

    private static final class RowReader extends OrcValueReaders.StructReader<RowData> {
        private final int arity;

        private RowReader(
                TypeDescription orcType,
                List<OrcValueReader<?>> fieldReaders,
                Types.StructType struct,
                Map<Integer, ?> idToConstant) {
            super(orcType, fieldReaders, struct, idToConstant);
            this.arity = struct.fields().size();
        }

        @Override
        protected RowData create() {
            return new GenericRowData(arity);
        }

        @Override
        protected void set(RowData row, int pos, Object value) {
            ((GenericRowData) row).setField(pos, value);
        }
    }

    private static final class ArrayReader implements OrcValueReader<GenericArrayData> {
        private final OrcValueReader<?> elementReader;

        private ArrayReader(OrcValueReader<?> elementReader) {
            this.elementReader = elementReader;
        }

        @Override
        public GenericArrayData nonNullRead(ColumnVector vector, int row) {
            ListColumnVector list = (ListColumnVector) vector;
            int offset = (int) list.offsets[row];
            int length = (int) list.lengths[row];
            Object[] elements = new Object[length];
            for (int i = 0; i < length; i++) {
                elements[i] = elementReader.read(list.child, offset + i);
            }
            return new GenericArrayData(elements);
        }

        @Override
        public void setBatchContext(long batchOffsetInFile) {
            elementReader.setBatchContext(batchOffsetInFile);
        }
    }

    private static final class MapReader implements OrcValueReader<GenericMapData> {
        private final OrcValueReader<?> keyReader;
        private final OrcValueReader<?> valueReader;

        private MapReader(OrcValueReader<?> keyReader, OrcValueReader<?> valueReader) {
            this.keyReader = keyReader;
            this.valueReader = valueReader;
        }

        @Override
        public GenericMapData nonNullRead(ColumnVector vector, int row) {
            MapColumnVector map = (MapColumnVector) vector;
            int offset = (int) map.offsets[row];
            int length = (int) map.lengths[row];
            Map<Object, Object> entries = new LinkedHashMap<>(Math.max(4, length * 2));
            for (int i = 0; i < length; i++) {
                entries.put(
                        keyReader.read(map.keys, offset + i),
                        valueReader.read(map.values, offset + i));
            }
            return new GenericMapData(entries);
        }

        @Override
        public void setBatchContext(long batchOffsetInFile) {
            keyReader.setBatchContext(batchOffsetInFile);
            valueReader.setBatchContext(batchOffsetInFile);
        }
    }
}
