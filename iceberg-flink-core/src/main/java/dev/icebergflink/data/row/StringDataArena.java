package dev.icebergflink.data.row;

import java.nio.ByteBuffer;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * Makes the {@link StringData} values of a file reader cheaply: the UTF-8 bytes of short strings
 * are copied into shared, append-only chunks, and each string is a {@link BinaryStringData} over
 * its slice of a chunk.
 *
 * <p>It exists because {@code StringData.fromBytes(byte[])} costs four allocations per value (the
 * bytes, a {@link MemorySegment} with its own atomic flag, the segment array and the string), which
 * made string columns the largest allocation source of a scan. Here a string costs one object; the
 * chunk, its segment and its segment array are shared by every string written into the chunk.
 *
 * <p>Bytes are never overwritten once a string points to them, so the strings are immutable and
 * independent of the reader's buffers, like strings made with {@code fromBytes}. The price is
 * retention: a string kept alive keeps its whole chunk alive, which is why chunks are small and
 * long strings get their own exact-size array. An arena is not thread-safe: one per value reader.
 */
@Internal
public final class StringDataArena {

    /** Bytes per shared chunk. */
    static final int CHUNK_SIZE = 4096;

    /** Strings longer than this get their own array rather than a slice of a chunk. */
    static final int MAX_SHARED_LENGTH = 256;

    private byte[] chunk;
    private MemorySegment[] segments;
    private int used;

    /** An arena whose first chunk is made on first use. */
    public StringDataArena() {}

    /** A string of {@code length} UTF-8 bytes of {@code bytes} from {@code offset}, copied. */
    public StringData copyOf(byte[] bytes, int offset, int length) {
        if (length > MAX_SHARED_LENGTH) {
            byte[] own = new byte[length];
            System.arraycopy(bytes, offset, own, 0, length);
            return StringData.fromBytes(own);
        }
        int start = reserve(length);
        System.arraycopy(bytes, offset, chunk, start, length);
        return BinaryStringData.fromAddress(segments, start, length);
    }

    /** A string of the remaining UTF-8 bytes of {@code buffer}, copied; the buffer is unchanged. */
    public StringData copyOf(ByteBuffer buffer) {
        int length = buffer.remaining();
        if (buffer.hasArray()) {
            return copyOf(buffer.array(), buffer.arrayOffset() + buffer.position(), length);
        }
        if (length > MAX_SHARED_LENGTH) {
            byte[] own = new byte[length];
            buffer.duplicate().get(own);
            return StringData.fromBytes(own);
        }
        int start = reserve(length);
        buffer.duplicate().get(chunk, start, length);
        return BinaryStringData.fromAddress(segments, start, length);
    }

    /**
     * The start of {@code length} free bytes of the current chunk, starting a new one if needed.
     */
    private int reserve(int length) {
        if (chunk == null || used + length > chunk.length) {
            chunk = new byte[CHUNK_SIZE];
            segments = new MemorySegment[] {MemorySegmentFactory.wrap(chunk)};
            used = 0;
        }
        int start = used;
        used += length;
        return start;
    }
}
