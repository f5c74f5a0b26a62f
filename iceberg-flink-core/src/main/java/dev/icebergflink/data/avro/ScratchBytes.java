package dev.icebergflink.data.avro;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.avro.io.Decoder;
import org.apache.avro.util.Utf8;

/**
 * One reused byte array that the top-level field decoders of a row read strings, binaries, fixed
 * values and decimals into, before the bytes are copied into the row.
 *
 * <p>It exists so that decoding a value allocates nothing: Avro's decoder fills one reused {@link
 * Utf8} or {@link ByteBuffer} over this array, and {@link
 * dev.icebergflink.data.row.BinaryRowBuilder#setBytes} keeps its segment wrapper while a field's
 * bytes keep coming from the same array. The array only grows; {@link #array()} is valid until the
 * next read.
 */
final class ScratchBytes {

    private byte[] array = new byte[64];
    private Utf8 utf8 = new Utf8(array);
    private ByteBuffer buffer = ByteBuffer.wrap(array);
    private int bytesOffset;

    /**
     * The array the last read wrote to, from index 0 (or from {@link #offset()} for bytes); ask for
     * it after the read, which may have grown it.
     */
    byte[] array() {
        return array;
    }

    /** Reads an Avro string; returns its length in bytes, which are in {@link #array()} from 0. */
    int readString(Decoder decoder) throws IOException {
        utf8 = decoder.readString(utf8);
        adopt(utf8.getBytes());
        return utf8.getByteLength();
    }

    /**
     * Reads Avro bytes; returns their length. They are in {@link #array()} from {@link #offset()}.
     */
    int readBytes(Decoder decoder) throws IOException {
        ByteBuffer read = decoder.readBytes(buffer);
        int length = read.remaining();
        if (read.hasArray()) {
            int start = read.arrayOffset() + read.position();
            adopt(read.array());
            bytesOffset = start;
        } else {
            // not what Avro's binary decoder does, but the Decoder contract allows it
            ensureCapacity(length);
            read.get(array, 0, length);
            bytesOffset = 0;
        }
        return length;
    }

    /** Where the bytes of the last {@link #readBytes} start in {@link #array()}. */
    int offset() {
        return bytesOffset;
    }

    /** Reads {@code size} fixed bytes, which are in {@link #array()} from 0. */
    void readFixed(Decoder decoder, int size) throws IOException {
        ensureCapacity(size);
        decoder.readFixed(array, 0, size);
    }

    private void ensureCapacity(int size) {
        if (array.length < size) {
            adopt(new byte[Math.max(size, array.length * 2)]);
        }
    }

    /** Makes {@code newArray} (the decoder may have grown a buffer) the one every read uses. */
    private void adopt(byte[] newArray) {
        if (newArray != array) {
            array = newArray;
            utf8 = new Utf8(newArray);
            buffer = ByteBuffer.wrap(newArray);
        }
    }
}
