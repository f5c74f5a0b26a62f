package dev.icebergflink.sink.distribution;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.Arrays;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.InternalSerializers;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Encodes the equality key columns of a row into an {@link EqualityKey}: the columns' values one
 * after the other, big-endian, with no header.
 *
 * <ul>
 *   <li>Fixed width: BOOLEAN and TINYINT 1 byte, SMALLINT 2, INT, DATE, TIME and FLOAT 4, BIGINT
 *       and DOUBLE 8, DECIMAL up to precision 18 its unscaled long (8), TIMESTAMP and TIMESTAMP_LTZ
 *       its epoch millis (8) plus, above precision 3, its nano of milli (4), BINARY(n) n bytes (a
 *       value of another length is an error).
 *   <li>Variable width, as a length (7 bits per byte) and the bytes: CHAR/VARCHAR (UTF-8),
 *       VARBINARY, DECIMAL above precision 18 (unscaled two's complement), and any other type in
 *       Flink's internal binary form.
 *   <li>A nullable column is preceded by one byte, 0 for null (then a fixed-width column is
 *       zero-filled, a variable one has no bytes) or 1.
 * </ul>
 *
 * <p>The encoding is injective per key layout, so equal keys mean equal key values. When every
 * column has a fixed width, every key has the same {@link #keyLength() length}. It exists to give
 * Flink's batch sort keys whose first bytes discriminate (see {@link EqualityKey}). Serializable
 * (it travels in the key selector, and every Flink task gets its own copy); not thread-safe for
 * columns in the internal binary form, whose Flink serializers reuse buffers.
 */
final class EqualityKeyEncoder implements Serializable {

    private static final long serialVersionUID = 1L;

    private final RowType rowType;
    private final int[] positions;
    private final int keyLength;
    private transient ColumnEncoder[] encoders;

    /**
     * @param rowType the type of the rows
     * @param positions top-level positions of the key columns, in key order
     */
    EqualityKeyEncoder(RowType rowType, int[] positions) {
        if (positions.length == 0) {
            throw new IllegalArgumentException("An equality key needs at least one column");
        }
        for (int position : positions) {
            if (position < 0 || position >= rowType.getFieldCount()) {
                throw new IllegalArgumentException(
                        "Position " + position + " is not a column of " + rowType);
            }
        }
        this.rowType = rowType;
        this.positions = Arrays.copyOf(positions, positions.length);
        this.encoders = encoders(rowType, this.positions);
        int length = 0;
        for (ColumnEncoder encoder : encoders) {
            if (encoder.width() < 0) {
                length = -1;
                break;
            }
            length += encoder.width();
        }
        this.keyLength = length;
    }

    /** The length of every key in bytes, or -1 when a key column has a variable width. */
    int keyLength() {
        return keyLength;
    }

    /** The key of {@code row}. */
    EqualityKey encode(RowData row) {
        KeyBuffer buffer = new KeyBuffer(keyLength > 0 ? keyLength : 32);
        write(row, buffer);
        return new EqualityKey(buffer.trimmed());
    }

    /**
     * Encodes the key of {@code row} into {@code buffer}, which is emptied first: the same bytes
     * {@link #encode} gives, without allocating per row.
     */
    void encodeInto(RowData row, KeyBuffer buffer) {
        buffer.size = 0;
        write(row, buffer);
    }

    /** A buffer for {@link #encodeInto}. */
    KeyBuffer newBuffer() {
        return new KeyBuffer(keyLength > 0 ? keyLength : 32);
    }

    private void write(RowData row, KeyBuffer buffer) {
        for (ColumnEncoder encoder : encoders) {
            encoder.write(row, buffer);
        }
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        encoders = encoders(rowType, positions);
    }

    private static ColumnEncoder[] encoders(RowType rowType, int[] positions) {
        ColumnEncoder[] encoders = new ColumnEncoder[positions.length];
        for (int i = 0; i < positions.length; i++) {
            LogicalType type = rowType.getTypeAt(positions[i]);
            ColumnEncoder encoder =
                    valueEncoder(type, positions[i], rowType.getFieldNames().get(positions[i]));
            encoders[i] = type.isNullable() ? new Nullable(encoder, positions[i]) : encoder;
        }
        return encoders;
    }

    private static ColumnEncoder valueEncoder(LogicalType type, int pos, String name) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return fixed(1, (row, out) -> out.putByte(row.getBoolean(pos) ? 1 : 0));
            case TINYINT:
                return fixed(1, (row, out) -> out.putByte(row.getByte(pos)));
            case SMALLINT:
                return fixed(2, (row, out) -> out.putShort(row.getShort(pos)));
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
            case INTERVAL_YEAR_MONTH:
                return fixed(4, (row, out) -> out.putInt(row.getInt(pos)));
            case BIGINT:
            case INTERVAL_DAY_TIME:
                return fixed(8, (row, out) -> out.putLong(row.getLong(pos)));
            case FLOAT:
                return fixed(4, (row, out) -> out.putInt(Float.floatToIntBits(row.getFloat(pos))));
            case DOUBLE:
                return fixed(
                        8, (row, out) -> out.putLong(Double.doubleToLongBits(row.getDouble(pos))));
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return timestamp(((TimestampType) type).getPrecision(), pos);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestamp(((LocalZonedTimestampType) type).getPrecision(), pos);
            case DECIMAL:
                return decimal((DecimalType) type, pos);
            case CHAR:
            case VARCHAR:
                return variable((row, out) -> out.putCounted(row.getString(pos).toBytes()));
            case BINARY:
                return binary(((BinaryType) type).getLength(), pos, name);
            case VARBINARY:
                return variable((row, out) -> out.putCounted(row.getBinary(pos)));
            default:
                return internalForm(type, pos);
        }
    }

    private static ColumnEncoder timestamp(int precision, int pos) {
        if (precision <= 3) {
            return fixed(
                    8,
                    (row, out) -> out.putLong(row.getTimestamp(pos, precision).getMillisecond()));
        }
        return fixed(
                12,
                (row, out) -> {
                    TimestampData value = row.getTimestamp(pos, precision);
                    out.putLong(value.getMillisecond());
                    out.putInt(value.getNanoOfMillisecond());
                });
    }

    private static ColumnEncoder decimal(DecimalType type, int pos) {
        int precision = type.getPrecision();
        int scale = type.getScale();
        if (DecimalData.isCompact(precision)) {
            return fixed(
                    8,
                    (row, out) ->
                            out.putLong(row.getDecimal(pos, precision, scale).toUnscaledLong()));
        }
        return variable(
                (row, out) ->
                        out.putCounted(row.getDecimal(pos, precision, scale).toUnscaledBytes()));
    }

    private static ColumnEncoder binary(int length, int pos, String name) {
        return fixed(
                length,
                (row, out) -> {
                    byte[] value = row.getBinary(pos);
                    if (value.length != length) {
                        throw new IllegalArgumentException(
                                String.format(
                                        "Equality field column '%s' has type BINARY(%d), but a"
                                                + " row holds %d bytes in it; values of a"
                                                + " BINARY(n) key column must have exactly n"
                                                + " bytes",
                                        name, length, value.length));
                    }
                    out.putBytes(value);
                });
    }

    /** Any other type: its value in Flink's internal binary form. */
    private static ColumnEncoder internalForm(LogicalType type, int pos) {
        RowData.FieldGetter getter = RowData.createFieldGetter(type.copy(false), pos);
        TypeSerializer<Object> serializer = InternalSerializers.create(type);
        return variable(
                (row, out) -> {
                    DataOutputSerializer bytes = new DataOutputSerializer(64);
                    try {
                        serializer.serialize(getter.getFieldOrNull(row), bytes);
                    } catch (IOException e) {
                        throw new IllegalStateException(
                                "Cannot encode an equality key value of type " + type, e);
                    }
                    out.putCounted(bytes.getCopyOfBuffer());
                });
    }

    private static ColumnEncoder fixed(int width, ValueWriter writer) {
        return new ValueColumn(width, writer);
    }

    private static ColumnEncoder variable(ValueWriter writer) {
        return new ValueColumn(-1, writer);
    }

    /** Writes one column's non-null value. */
    @FunctionalInterface
    private interface ValueWriter {
        void write(RowData row, KeyBuffer out);
    }

    /** One key column: its width in bytes (-1 = variable) and how to write it. */
    private interface ColumnEncoder {
        int width();

        void write(RowData row, KeyBuffer out);
    }

    /** A column whose value is never null. */
    private record ValueColumn(int width, ValueWriter writer) implements ColumnEncoder {
        @Override
        public void write(RowData row, KeyBuffer out) {
            writer.write(row, out);
        }
    }

    /** A nullable column: a presence byte, then the value or (fixed width) zeros. */
    private record Nullable(ColumnEncoder value, int pos) implements ColumnEncoder {
        @Override
        public int width() {
            return value.width() < 0 ? -1 : value.width() + 1;
        }

        @Override
        public void write(RowData row, KeyBuffer out) {
            if (row.isNullAt(pos)) {
                out.putByte(0);
                out.skip(Math.max(value.width(), 0));
            } else {
                out.putByte(1);
                value.write(row, out);
            }
        }
    }

    /** A growing big-endian byte buffer. */
    static final class KeyBuffer {
        private byte[] bytes;
        private int size;

        KeyBuffer(int capacity) {
            this.bytes = new byte[capacity];
        }

        void putByte(int value) {
            ensure(1);
            bytes[size++] = (byte) value;
        }

        void putShort(short value) {
            ensure(2);
            bytes[size++] = (byte) (value >>> 8);
            bytes[size++] = (byte) value;
        }

        void putInt(int value) {
            ensure(4);
            for (int shift = 24; shift >= 0; shift -= 8) {
                bytes[size++] = (byte) (value >>> shift);
            }
        }

        void putLong(long value) {
            ensure(8);
            for (int shift = 56; shift >= 0; shift -= 8) {
                bytes[size++] = (byte) (value >>> shift);
            }
        }

        void putBytes(byte[] value) {
            ensure(value.length);
            System.arraycopy(value, 0, bytes, size, value.length);
            size += value.length;
        }

        /** A length (7 bits per byte, low bits first) and the bytes. */
        void putCounted(byte[] value) {
            int rest = value.length;
            while ((rest & ~0x7F) != 0) {
                putByte((rest & 0x7F) | 0x80);
                rest >>>= 7;
            }
            putByte(rest);
            putBytes(value);
        }

        /** Zeros, {@code count} of them (the buffer may be reused, so they are written). */
        void skip(int count) {
            ensure(count);
            Arrays.fill(bytes, size, size + count, (byte) 0);
            size += count;
        }

        /** The buffer; its first {@link #size()} bytes are the key. */
        byte[] bytes() {
            return bytes;
        }

        int size() {
            return size;
        }

        byte[] trimmed() {
            return size == bytes.length ? bytes : Arrays.copyOf(bytes, size);
        }

        private void ensure(int more) {
            if (size + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
            }
        }
    }
}
