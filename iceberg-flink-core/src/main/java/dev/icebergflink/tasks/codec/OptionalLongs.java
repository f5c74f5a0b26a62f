package dev.icebergflink.tasks.codec;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * A {@code Long} that may be absent, in serialized state: a presence byte, then the long when
 * present.
 *
 * <p>It exists because sequence numbers and snapshot ids are often unknown (a file not yet
 * committed, a scan that has not started) and every serializer that stores them must write the same
 * two forms.
 */
@Internal
public final class OptionalLongs {

    private OptionalLongs() {}

    /** Writes {@code value}: {@code false} for null, else {@code true} and the long. */
    public static void write(Long value, DataOutputView out) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            out.writeLong(value);
        }
    }

    /** Reads a value written by {@link #write}; null when it was absent. */
    public static Long read(DataInputView in) throws IOException {
        return in.readBoolean() ? in.readLong() : null;
    }
}
