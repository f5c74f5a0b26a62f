package dev.icebergflink.tasks.codec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Strings in serialized state as an int byte length followed by that many UTF-8 bytes.
 *
 * <p>It exists because {@code DataOutput#writeUTF} limits a string to 64 KiB of modified UTF-8,
 * which the JSON of a content file with many column statistics can exceed; every serializer of this
 * connector that writes JSON or paths frames them this way.
 */
@Internal
public final class LengthPrefixedStrings {

    private LengthPrefixedStrings() {}

    /** Writes {@code value} as its UTF-8 byte length (int) and bytes. */
    public static void write(String value, DataOutputView out) throws IOException {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    /**
     * Reads a string written by {@link #write}.
     *
     * @throws IOException when the length is negative or the input ends early
     */
    public static String read(DataInputView in) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            throw new IOException("Corrupt serialized state: negative string length " + length);
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
