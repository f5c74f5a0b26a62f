package dev.icebergflink.data.row;

import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.data.writer.BinaryWriter;
import org.apache.flink.table.runtime.typeutils.InternalSerializers;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Builds the top-level rows of a file reader as {@link BinaryRowData}, field by field, straight
 * from the decoded values.
 *
 * <p>It exists because of what happens to a row after the reader: Flink copies every record between
 * chained operators unless object reuse is on, and a {@code GenericRowData} copy is a deep copy (a
 * new row, a new field array, a new string per string field), which cost more than reading the row.
 * A binary row's copy is one array copy. Decoding straight into the binary layout also skips the
 * boxed longs, doubles, timestamps and decimals a generic row holds.
 *
 * <p>Use: {@link #begin()}, one {@code set...} call per field (every field must be set, null or
 * not), then {@link #finish()}. Finished rows are copied out of the reused {@link BinaryRowWriter}
 * into shared, append-only chunks, so a row costs one object plus its bytes; rows are never written
 * over and stay valid independently of the builder (the price is that a row kept alive keeps its
 * chunk alive, so chunks are small and large rows get their own array). Nested values (rows,
 * arrays, maps) and anything without a typed setter go through {@link #setValue}, which serializes
 * Flink's internal data structures into the binary layout. Not thread-safe: one builder per reader.
 */
@Internal
public final class BinaryRowBuilder {

    /** Bytes per shared chunk of finished rows. */
    static final int CHUNK_SIZE = 32 * 1024;

    /** Rows larger than this get their own array instead of a slice of a chunk. */
    static final int MAX_SHARED_SIZE = 4 * 1024;

    private final int arity;
    private final LogicalType[] types;
    private final TypeSerializer<?>[] serializers;
    private final BinaryRowData scratch;
    private final BinaryRowWriter writer;

    /** Per field, the last buffer {@link #setBytes} saw and its wrapping segments. */
    private final byte[][] viewedArrays;

    private final MemorySegment[][] viewedSegments;

    /** One string view, pointed at each value {@link #setBytes} writes. */
    private final BinaryStringData bytesView;

    private byte[] chunk;
    private MemorySegment[] chunkSegments;
    private int used;

    /** A builder of rows of {@code rowType}. */
    public BinaryRowBuilder(RowType rowType) {
        Objects.requireNonNull(rowType, "rowType");
        List<LogicalType> children = rowType.getChildren();
        this.arity = children.size();
        this.types = children.toArray(new LogicalType[0]);
        this.serializers = new TypeSerializer<?>[arity];
        this.scratch = new BinaryRowData(arity);
        this.writer = new BinaryRowWriter(scratch, 64);
        this.viewedArrays = new byte[arity][];
        this.viewedSegments = new MemorySegment[arity][];
        this.bytesView = BinaryStringData.fromAddress(new MemorySegment[0], 0, 0);
    }

    /** The number of fields of the rows built. */
    public int arity() {
        return arity;
    }

    /** Starts a row: every field must then be set once before {@link #finish()}. */
    public void begin() {
        writer.reset();
    }

    public void setNull(int pos) {
        writer.setNullAt(pos);
    }

    public void setBoolean(int pos, boolean value) {
        writer.writeBoolean(pos, value);
    }

    /** Sets an INT, DATE or TIME field (or a TINYINT/SMALLINT field, narrowed). */
    public void setInt(int pos, int value) {
        switch (types[pos].getTypeRoot()) {
            case TINYINT:
                writer.writeByte(pos, (byte) value);
                break;
            case SMALLINT:
                writer.writeShort(pos, (short) value);
                break;
            default:
                writer.writeInt(pos, value);
        }
    }

    public void setLong(int pos, long value) {
        writer.writeLong(pos, value);
    }

    public void setFloat(int pos, float value) {
        writer.writeFloat(pos, value);
    }

    public void setDouble(int pos, double value) {
        writer.writeDouble(pos, value);
    }

    /**
     * Sets a STRING/VARCHAR/CHAR or BINARY/VARBINARY field to {@code length} bytes of {@code bytes}
     * from {@code offset} (UTF-8 for strings); the bytes are copied, so the array may be a reused
     * buffer. Allocates nothing while a field's values keep coming from the same array (a decoder's
     * buffer); the builder holds on to the last array of each field until the next.
     */
    public void setBytes(int pos, byte[] bytes, int offset, int length) {
        MemorySegment[] segments = viewedSegments[pos];
        if (bytes != viewedArrays[pos]) {
            // per field: columns read from different buffers would otherwise wrap on every value
            segments = new MemorySegment[] {MemorySegmentFactory.wrap(bytes)};
            viewedArrays[pos] = bytes;
            viewedSegments[pos] = segments;
        }
        // strings and binaries share one layout in a binary row; the writer only reads the view
        bytesView.getBinarySection().pointTo(segments, offset, length);
        writer.writeString(pos, bytesView);
    }

    /** Sets a DECIMAL field; the decimal has the field's precision and scale. */
    public void setDecimal(int pos, DecimalData value) {
        writer.writeDecimal(pos, value, ((DecimalType) types[pos]).getPrecision());
    }

    /**
     * Sets a DECIMAL field of a compact precision (at most {@link
     * DecimalData#MAX_COMPACT_PRECISION}) from its unscaled value, without making a {@link
     * DecimalData}.
     */
    public void setCompactDecimal(int pos, long unscaled) {
        writer.writeLong(pos, unscaled);
    }

    /** Sets a TIMESTAMP or TIMESTAMP_LTZ field. */
    public void setTimestamp(int pos, TimestampData value) {
        writer.writeTimestamp(pos, value, timestampPrecision(types[pos]));
    }

    /**
     * Sets a field from Flink's internal representation of its type ({@code StringData}, {@code
     * RowData}, {@code ArrayData}, {@code MapData}, boxed primitives, ...), or null. This is the
     * general path for nested values and constants; the typed setters are cheaper.
     */
    public void setValue(int pos, Object value) {
        if (value == null) {
            writer.setNullAt(pos);
            return;
        }
        TypeSerializer<?> serializer = serializers[pos];
        if (serializer == null) {
            serializer = InternalSerializers.create(types[pos]);
            serializers[pos] = serializer;
        }
        BinaryWriter.write(writer, pos, value, types[pos], serializer);
    }

    /** Completes the row started by {@link #begin()} and returns it as an independent row. */
    public RowData finish() {
        writer.complete();
        int size = scratch.getSizeInBytes();
        // the writer's segment wraps a heap array: System.arraycopy copies a row of a few dozen
        // bytes for a fraction of a segment's checked copy
        byte[] written = scratch.getSegments()[0].getArray();
        BinaryRowData row = new BinaryRowData(arity);
        if (size > MAX_SHARED_SIZE) {
            byte[] own = new byte[size];
            System.arraycopy(written, 0, own, 0, size);
            row.pointTo(MemorySegmentFactory.wrap(own), 0, size);
            return row;
        }
        if (chunk == null || used + size > chunk.length) {
            chunk = new byte[CHUNK_SIZE];
            chunkSegments = new MemorySegment[] {MemorySegmentFactory.wrap(chunk)};
            used = 0;
        }
        System.arraycopy(written, 0, chunk, used, size);
        row.pointTo(chunkSegments, used, size);
        used += size;
        return row;
    }

    private static int timestampPrecision(LogicalType type) {
        if (type instanceof TimestampType timestamp) {
            return timestamp.getPrecision();
        } else if (type instanceof LocalZonedTimestampType localZoned) {
            return localZoned.getPrecision();
        }
        throw new IllegalArgumentException("Not a timestamp type: " + type);
    }
}
