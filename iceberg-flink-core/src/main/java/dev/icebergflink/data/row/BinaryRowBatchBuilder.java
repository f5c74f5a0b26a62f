package dev.icebergflink.data.row;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Builds a batch of top-level rows as {@link BinaryRowData} column by column: all values of one
 * field for every row of the batch, then the next field.
 *
 * <p>It exists for columnar decoders, which hold a batch of values per column: handing them over
 * row by row ({@link BinaryRowBuilder}) costs a call per value through the column's reader, a
 * general writer that checks its capacity on every write, and one more copy of every finished row
 * out of the writer's scratch buffer. Here the space of every row is laid out first, from the sizes
 * of its variable-length values, and each value is then written once, straight to its place in the
 * final row.
 *
 * <p>The rows are byte for byte those {@link BinaryRowBuilder} builds for the same values (Flink's
 * binary row layout: header and null bits, one 8-byte slot per field, then the variable-length
 * part, each value rounded up to 8 bytes; values of at most 7 bytes live in their slot). Like that
 * builder it packs rows into shared, append-only chunks of {@link BinaryRowBuilder#CHUNK_SIZE}
 * bytes (rows larger than {@link BinaryRowBuilder#MAX_SHARED_SIZE} get their own array), so rows
 * stay valid after the batch and a kept row keeps at most one small chunk alive.
 *
 * <p>Use, for a batch of {@code n} rows: {@link #begin(int)}; for each variable-length value, its
 * size ({@link #addBytesLength}, {@link #addTimestamp}); {@link #layOut()}; then every field of
 * every row, null or not ({@link #setNull}, {@link #setLong}, ...); the rows are then {@link
 * #row(int)}. Variable-length values of one row must be written in the order of their fields.
 * Types: BOOLEAN, TINYINT, SMALLINT, INT, DATE, TIME, BIGINT, FLOAT, DOUBLE, compact DECIMAL,
 * TIMESTAMP and TIMESTAMP_LTZ of any precision, STRING and BINARY of any length ({@link
 * #supports}). Not thread-safe.
 */
@Internal
public final class BinaryRowBatchBuilder {

    /** Bytes of a value that still fit in its 8-byte slot. */
    private static final int MAX_INLINE_BYTES = 7;

    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private final int arity;
    private final int nullBitsBytes;
    private final int fixedSize;
    private final LogicalTypeRoot[] roots;
    private final boolean[] preciseTimestamp;

    private int count;
    private int[] size = new int[0];
    private int[] varCursor = new int[0];
    private int[] offset = new int[0];
    private MemorySegment[][] segments = new MemorySegment[0][];

    /**
     * Per row, the array its segment wraps: bytes are copied into it with {@code System.arraycopy},
     * which for values of a few dozen bytes costs a fraction of a segment's checked copy.
     */
    private byte[][] arrays = new byte[0][];

    private byte[] chunk;
    private MemorySegment[] chunkSegments;
    private int used;

    /**
     * A builder of rows of {@code rowType}, whose fields must all be {@link #supports supported}.
     */
    public BinaryRowBatchBuilder(RowType rowType) {
        Objects.requireNonNull(rowType, "rowType");
        List<LogicalType> fields = rowType.getChildren();
        this.arity = fields.size();
        this.nullBitsBytes = BinaryRowData.calculateBitSetWidthInBytes(arity);
        this.fixedSize = BinaryRowData.calculateFixPartSizeInBytes(arity);
        this.roots = new LogicalTypeRoot[arity];
        this.preciseTimestamp = new boolean[arity];
        for (int pos = 0; pos < arity; pos++) {
            LogicalType type = fields.get(pos);
            if (!supports(type)) {
                throw new IllegalArgumentException(
                        String.format(
                                "Field %d of %s has type %s, which rows built column by column"
                                        + " cannot hold",
                                pos, rowType, type));
            }
            roots[pos] = type.getTypeRoot();
            preciseTimestamp[pos] =
                    type instanceof TimestampType timestamp
                            ? !TimestampData.isCompact(timestamp.getPrecision())
                            : type instanceof LocalZonedTimestampType localZoned
                                    && !TimestampData.isCompact(localZoned.getPrecision());
        }
    }

    /** Whether a field of {@code type} can be built here. */
    public static boolean supports(LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
            case BIGINT:
            case FLOAT:
            case DOUBLE:
            case CHAR:
            case VARCHAR:
            case BINARY:
            case VARBINARY:
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return true;
            case DECIMAL:
                return DecimalData.isCompact(((DecimalType) type).getPrecision());
            default:
                return false;
        }
    }

    /** Starts a batch of {@code rows} rows, none of them with variable-length values yet. */
    public void begin(int rows) {
        if (size.length < rows) {
            int capacity = Math.max(rows, size.length * 2);
            size = new int[capacity];
            varCursor = new int[capacity];
            offset = new int[capacity];
            segments = new MemorySegment[capacity][];
            arrays = new byte[capacity][];
        }
        count = rows;
        Arrays.fill(size, 0, rows, fixedSize);
    }

    /**
     * Counts a non-null STRING or BINARY value of {@code length} bytes in row {@code row}; call it
     * before {@link #layOut()}, once per such value.
     */
    public void addBytesLength(int row, int length) {
        if (length > MAX_INLINE_BYTES) {
            size[row] += roundUpToWord(length);
        }
    }

    /**
     * Counts a non-null TIMESTAMP value of field {@code pos} in row {@code row}: of a precision
     * above 3, its milliseconds take 8 bytes of the variable-length part.
     */
    public void addTimestamp(int row, int pos) {
        if (preciseTimestamp[pos]) {
            size[row] += 8;
        }
    }

    /** Places every row of the batch, once all variable-length values are counted. */
    public void layOut() {
        for (int row = 0; row < count; row++) {
            int bytes = size[row];
            if (bytes > BinaryRowBuilder.MAX_SHARED_SIZE) {
                byte[] own = new byte[bytes];
                arrays[row] = own;
                segments[row] = new MemorySegment[] {MemorySegmentFactory.wrap(own)};
                offset[row] = 0;
            } else {
                if (chunk == null || used + bytes > chunk.length) {
                    chunk = new byte[BinaryRowBuilder.CHUNK_SIZE];
                    chunkSegments = new MemorySegment[] {MemorySegmentFactory.wrap(chunk)};
                    used = 0;
                }
                arrays[row] = chunk;
                segments[row] = chunkSegments;
                offset[row] = used;
                used += bytes;
            }
            varCursor[row] = fixedSize;
        }
    }

    public void setNull(int row, int pos) {
        // the row's bytes are fresh zeros: the slot is already 0, only the null bit is set
        int bit = pos + BinaryRowData.HEADER_SIZE_IN_BITS;
        MemorySegment segment = segments[row][0];
        int index = offset[row] + (bit >>> 3);
        segment.put(index, (byte) (segment.get(index) | (1 << (bit & 7))));
    }

    public void setBoolean(int row, int pos, boolean value) {
        segments[row][0].putBoolean(slot(row, pos), value);
    }

    /** Sets an INT, DATE or TIME field (or a TINYINT/SMALLINT field, narrowed). */
    public void setInt(int row, int pos, int value) {
        MemorySegment segment = segments[row][0];
        switch (roots[pos]) {
            case TINYINT:
                segment.put(slot(row, pos), (byte) value);
                break;
            case SMALLINT:
                segment.putShort(slot(row, pos), (short) value);
                break;
            default:
                segment.putInt(slot(row, pos), value);
        }
    }

    /** Sets a BIGINT field, or a compact DECIMAL field from its unscaled value. */
    public void setLong(int row, int pos, long value) {
        segments[row][0].putLong(slot(row, pos), value);
    }

    public void setFloat(int row, int pos, float value) {
        segments[row][0].putFloat(slot(row, pos), value);
    }

    public void setDouble(int row, int pos, double value) {
        segments[row][0].putDouble(slot(row, pos), value);
    }

    /**
     * Sets a TIMESTAMP or TIMESTAMP_LTZ field, counted with {@link #addTimestamp}: the milliseconds
     * since the epoch and the nanoseconds within that millisecond (dropped by a precision of at
     * most 3).
     */
    public void setTimestamp(int row, int pos, long millis, int nanoOfMillisecond) {
        MemorySegment segment = segments[row][0];
        if (!preciseTimestamp[pos]) {
            segment.putLong(slot(row, pos), millis);
            return;
        }
        int cursor = varCursor[row];
        segment.putLong(offset[row] + cursor, millis);
        segment.putLong(slot(row, pos), ((long) cursor << 32) | nanoOfMillisecond);
        varCursor[row] = cursor + 8;
    }

    /**
     * Sets a STRING or BINARY field to {@code length} bytes of {@code bytes} from {@code from}
     * (UTF-8 for strings), counted with {@link #addBytesLength}.
     */
    public void setBytes(int row, int pos, byte[] bytes, int from, int length) {
        MemorySegment segment = segments[row][0];
        if (length <= MAX_INLINE_BYTES) {
            // the slot's highest byte holds 0x80 | length, the seven others the bytes, in the
            // order of memory
            long inline = 0;
            for (int i = 0; i < length; i++) {
                int shift = LITTLE_ENDIAN ? i * 8 : (6 - i) * 8;
                inline |= (bytes[from + i] & 0xFFL) << shift;
            }
            segment.putLong(slot(row, pos), ((0x80L | length) << 56) | inline);
            return;
        }
        int cursor = varCursor[row];
        System.arraycopy(bytes, from, arrays[row], offset[row] + cursor, length);
        segment.putLong(slot(row, pos), ((long) cursor << 32) | length);
        varCursor[row] = cursor + roundUpToWord(length);
    }

    /** Row {@code index} of the batch, once every field of it is set. */
    public RowData row(int index) {
        BinaryRowData row = new BinaryRowData(arity);
        row.pointTo(segments[index], offset[index], size[index]);
        return row;
    }

    /** The number of rows of the batch. */
    public int size() {
        return count;
    }

    private int slot(int row, int pos) {
        return offset[row] + nullBitsBytes + (pos << 3);
    }

    private static int roundUpToWord(int bytes) {
        return (bytes + 7) & ~7;
    }
}
