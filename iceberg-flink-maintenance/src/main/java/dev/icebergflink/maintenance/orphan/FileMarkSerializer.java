package dev.icebergflink.maintenance.orphan;

import dev.icebergflink.tasks.codec.LengthPrefixedStrings;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned serializer of a {@link FileMark}, the record orphan detection sends from the listing
 * and metadata-reading mappers to the deciding reducers.
 *
 * <p>Version {@value #VERSION_1}: the kind (byte: {@value #LISTED} listed, {@value #REFERENCED}
 * referenced), then the location in core's length-prefixed string form.
 */
@Internal
public final class FileMarkSerializer implements SimpleVersionedSerializer<FileMark> {

    /** The first (current) version; see the class comment for its layout. */
    public static final int VERSION_1 = 1;

    static final byte LISTED = 1;
    static final byte REFERENCED = 2;

    @Override
    public int getVersion() {
        return VERSION_1;
    }

    @Override
    public byte[] serialize(FileMark mark) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(mark.location().length() + 8);
        out.writeByte(mark.referenced() ? REFERENCED : LISTED);
        LengthPrefixedStrings.write(mark.location(), out);
        return out.getCopyOfBuffer();
    }

    @Override
    public FileMark deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown file mark version " + version + "; this release reads version 1");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        byte kind = in.readByte();
        if (kind != LISTED && kind != REFERENCED) {
            throw new IOException("Corrupt file mark: unknown kind " + kind);
        }
        FileMark mark = new FileMark(kind == REFERENCED, LengthPrefixedStrings.read(in));
        if (in.available() > 0) {
            throw new IOException("Corrupt file mark: " + in.available() + " bytes left over");
        }
        return mark;
    }
}
