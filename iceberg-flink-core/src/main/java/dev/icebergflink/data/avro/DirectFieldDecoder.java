package dev.icebergflink.data.avro;

import dev.icebergflink.data.row.BinaryRowBuilder;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.io.Decoder;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.TimestampData;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Decodes one top-level primitive column of an Avro data file straight into a {@link
 * BinaryRowBuilder} field with the builder's typed setters: no boxed value, no {@code StringData},
 * no {@code DecimalData} for compact decimals. It exists because the general path (a {@link
 * org.apache.iceberg.avro.ValueReader} that returns an object, then {@link
 * BinaryRowBuilder#setValue}) allocates for every value of every row.
 *
 * <p>It handles the file encodings Iceberg writes for primitives, with the promotions Iceberg
 * allows (int to long, float to double, wider decimal precision), either required or as an optional
 * union with null. {@link #forField} returns null for anything else, which then goes the general
 * path. One decoder per column; the decoders of a row share one {@link ScratchBytes} for the bytes
 * of strings, binaries and decimals, so they are used by one thread at a time.
 */
final class DirectFieldDecoder {

    private enum Kind {
        BOOLEAN,
        INT,
        INT_AS_LONG,
        LONG,
        FLOAT,
        FLOAT_AS_DOUBLE,
        DOUBLE,
        TIME_MICROS_AS_MILLIS,
        TIMESTAMP,
        STRING,
        BYTES,
        FIXED,
        DECIMAL_FIXED,
        DECIMAL_BYTES
    }

    private final Kind kind;

    /** The union branch that is null, or -1 when the file field is not a union with null. */
    private final int nullIndex;

    /** Timestamps: file units per millisecond (1, 1,000 or 1,000,000). */
    private final long unitsPerMilli;

    private final int nanosPerUnit;

    /** Fixed and decimal columns: the file's fixed length (0 for variable length). */
    private final int fixedSize;

    /** Decimals: the expected precision and scale. */
    private final int precision;

    private final int scale;

    private final ScratchBytes scratch;

    private DirectFieldDecoder(
            Kind kind,
            int nullIndex,
            long unitsPerMilli,
            int fixedSize,
            int precision,
            int scale,
            ScratchBytes scratch) {
        this.kind = kind;
        this.nullIndex = nullIndex;
        this.unitsPerMilli = unitsPerMilli;
        this.nanosPerUnit = (int) (1_000_000L / unitsPerMilli);
        this.fixedSize = fixedSize;
        this.precision = precision;
        this.scale = scale;
        this.scratch = scratch;
    }

    /**
     * A decoder of a top-level file field of Avro schema {@code fileSchema} read as {@code
     * expected}, or null when that combination is not a primitive this class decodes.
     */
    static DirectFieldDecoder forField(Schema fileSchema, Type expected, ScratchBytes scratch) {
        int nullIndex = -1;
        Schema valueSchema = fileSchema;
        if (fileSchema.getType() == Schema.Type.UNION) {
            List<Schema> branches = fileSchema.getTypes();
            if (branches.size() != 2) {
                return null;
            }
            if (branches.get(0).getType() == Schema.Type.NULL) {
                nullIndex = 0;
                valueSchema = branches.get(1);
            } else if (branches.get(1).getType() == Schema.Type.NULL) {
                nullIndex = 1;
                valueSchema = branches.get(0);
            } else {
                return null;
            }
        }
        return forValue(valueSchema, expected, nullIndex, scratch);
    }

    private static DirectFieldDecoder forValue(
            Schema file, Type expected, int nullIndex, ScratchBytes scratch) {
        Schema.Type fileType = file.getType();
        LogicalType logical = file.getLogicalType();
        String logicalName = logical == null ? null : logical.getName();
        switch (expected.typeId()) {
            case BOOLEAN:
                return fileType == Schema.Type.BOOLEAN && logical == null
                        ? simple(scratch, Kind.BOOLEAN, nullIndex)
                        : null;
            case INTEGER:
                return fileType == Schema.Type.INT && logical == null
                        ? simple(scratch, Kind.INT, nullIndex)
                        : null;
            case DATE:
                return fileType == Schema.Type.INT && "date".equals(logicalName)
                        ? simple(scratch, Kind.INT, nullIndex)
                        : null;
            case LONG:
                if (logical != null) {
                    return null;
                } else if (fileType == Schema.Type.LONG) {
                    return simple(scratch, Kind.LONG, nullIndex);
                } else if (fileType == Schema.Type.INT) {
                    return simple(scratch, Kind.INT_AS_LONG, nullIndex);
                }
                return null;
            case FLOAT:
                return fileType == Schema.Type.FLOAT && logical == null
                        ? simple(scratch, Kind.FLOAT, nullIndex)
                        : null;
            case DOUBLE:
                if (logical != null) {
                    return null;
                } else if (fileType == Schema.Type.DOUBLE) {
                    return simple(scratch, Kind.DOUBLE, nullIndex);
                } else if (fileType == Schema.Type.FLOAT) {
                    return simple(scratch, Kind.FLOAT_AS_DOUBLE, nullIndex);
                }
                return null;
            case TIME:
                return fileType == Schema.Type.LONG && "time-micros".equals(logicalName)
                        ? simple(scratch, Kind.TIME_MICROS_AS_MILLIS, nullIndex)
                        : null;
            case TIMESTAMP:
            case TIMESTAMP_NANO:
                return fileType == Schema.Type.LONG
                        ? timestamp(logicalName, nullIndex, scratch)
                        : null;
            case STRING:
                return fileType == Schema.Type.STRING && logical == null
                        ? simple(scratch, Kind.STRING, nullIndex)
                        : null;
            case BINARY:
                return fileType == Schema.Type.BYTES && logical == null
                        ? simple(scratch, Kind.BYTES, nullIndex)
                        : null;
            case FIXED:
            case UUID:
                return fileType == Schema.Type.FIXED
                                && file.getFixedSize() == fixedLength(expected)
                                && (logical == null || "uuid".equals(logicalName))
                        ? new DirectFieldDecoder(
                                Kind.FIXED, nullIndex, 1L, file.getFixedSize(), 0, 0, scratch)
                        : null;
            case DECIMAL:
                return decimal(file, (Types.DecimalType) expected, nullIndex, scratch);
            default:
                return null;
        }
    }

    private static DirectFieldDecoder simple(ScratchBytes scratch, Kind kind, int nullIndex) {
        return new DirectFieldDecoder(kind, nullIndex, 1L, 0, 0, 0, scratch);
    }

    private static int fixedLength(Type expected) {
        return expected.typeId() == Type.TypeID.UUID ? 16 : ((Types.FixedType) expected).length();
    }

    private static DirectFieldDecoder timestamp(
            String logicalName, int nullIndex, ScratchBytes scratch) {
        if (logicalName == null) {
            return null;
        }
        switch (logicalName) {
            case "timestamp-millis":
            case "local-timestamp-millis":
                return new DirectFieldDecoder(Kind.TIMESTAMP, nullIndex, 1L, 0, 0, 0, scratch);
            case "timestamp-micros":
            case "local-timestamp-micros":
                return new DirectFieldDecoder(Kind.TIMESTAMP, nullIndex, 1_000L, 0, 0, 0, scratch);
            case "timestamp-nanos":
            case "local-timestamp-nanos":
                return new DirectFieldDecoder(
                        Kind.TIMESTAMP, nullIndex, 1_000_000L, 0, 0, 0, scratch);
            default:
                return null;
        }
    }

    private static DirectFieldDecoder decimal(
            Schema file, Types.DecimalType expected, int nullIndex, ScratchBytes scratch) {
        if (!(file.getLogicalType() instanceof LogicalTypes.Decimal fileDecimal)
                || fileDecimal.getScale() != expected.scale()) {
            return null;
        }
        if (file.getType() == Schema.Type.FIXED) {
            return new DirectFieldDecoder(
                    Kind.DECIMAL_FIXED,
                    nullIndex,
                    1L,
                    file.getFixedSize(),
                    expected.precision(),
                    expected.scale(),
                    scratch);
        } else if (file.getType() == Schema.Type.BYTES) {
            return new DirectFieldDecoder(
                    Kind.DECIMAL_BYTES,
                    nullIndex,
                    1L,
                    0,
                    expected.precision(),
                    expected.scale(),
                    scratch);
        }
        return null;
    }

    /** Decodes the field's next value into field {@code pos} of the row being built. */
    void decode(Decoder decoder, BinaryRowBuilder row, int pos) throws IOException {
        if (nullIndex >= 0 && decoder.readIndex() == nullIndex) {
            decoder.readNull();
            row.setNull(pos);
            return;
        }
        switch (kind) {
            case BOOLEAN:
                row.setBoolean(pos, decoder.readBoolean());
                break;
            case INT:
                row.setInt(pos, decoder.readInt());
                break;
            case INT_AS_LONG:
                row.setLong(pos, decoder.readInt());
                break;
            case LONG:
                row.setLong(pos, decoder.readLong());
                break;
            case FLOAT:
                row.setFloat(pos, decoder.readFloat());
                break;
            case FLOAT_AS_DOUBLE:
                row.setDouble(pos, decoder.readFloat());
                break;
            case DOUBLE:
                row.setDouble(pos, decoder.readDouble());
                break;
            case TIME_MICROS_AS_MILLIS:
                row.setInt(pos, (int) Math.floorDiv(decoder.readLong(), 1_000L));
                break;
            case TIMESTAMP:
                long value = decoder.readLong();
                row.setTimestamp(
                        pos,
                        TimestampData.fromEpochMillis(
                                Math.floorDiv(value, unitsPerMilli),
                                (int) Math.floorMod(value, unitsPerMilli) * nanosPerUnit));
                break;
            case STRING:
                int stringLength = scratch.readString(decoder);
                row.setBytes(pos, scratch.array(), 0, stringLength);
                break;
            case BYTES:
                int bytesLength = scratch.readBytes(decoder);
                row.setBytes(pos, scratch.array(), scratch.offset(), bytesLength);
                break;
            case FIXED:
                scratch.readFixed(decoder, fixedSize);
                row.setBytes(pos, scratch.array(), 0, fixedSize);
                break;
            case DECIMAL_FIXED:
                scratch.readFixed(decoder, fixedSize);
                setDecimal(row, pos, scratch.array(), 0, fixedSize);
                break;
            case DECIMAL_BYTES:
                int decimalLength = scratch.readBytes(decoder);
                setDecimal(row, pos, scratch.array(), scratch.offset(), decimalLength);
                break;
            default:
                throw new IllegalStateException("Unhandled kind of Avro field: " + kind);
        }
    }

    private void setDecimal(
            BinaryRowBuilder row, int pos, byte[] unscaled, int offset, int length) {
        if (DecimalData.isCompact(precision)) {
            // a value of at most 18 digits fits a long even when its encoding has extra sign bytes
            long value =
                    length <= Long.BYTES
                            ? toLong(unscaled, offset, length)
                            : new BigInteger(unscaled, offset, length).longValue();
            row.setCompactDecimal(pos, value);
        } else {
            BigInteger unscaledValue =
                    length == 0 ? BigInteger.ZERO : new BigInteger(unscaled, offset, length);
            BigDecimal decimal = new BigDecimal(unscaledValue, scale);
            row.setDecimal(pos, DecimalData.fromBigDecimal(decimal, precision, scale));
        }
    }

    private static long toLong(byte[] bytes, int offset, int length) {
        if (length == 0) {
            return 0L;
        }
        long value = bytes[offset]; // sign-extends the most significant byte
        for (int i = 1; i < length; i++) {
            value = (value << 8) | (bytes[offset + i] & 0xFF);
        }
        return value;
    }
}
