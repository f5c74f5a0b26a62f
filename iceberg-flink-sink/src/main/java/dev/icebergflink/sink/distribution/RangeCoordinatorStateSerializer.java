package dev.icebergflink.sink.distribution;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Serializes the {@link RangeCoordinatorState} into the coordinator's checkpoints.
 *
 * <p>Version {@value #VERSION_1}: checkpoint id (long), writers (int), boundary count (int), then
 * each boundary as length (int) and {@link SortKeyCodec} bytes.
 */
final class RangeCoordinatorStateSerializer
        implements SimpleVersionedSerializer<RangeCoordinatorState> {

    /** The first format. */
    static final int VERSION_1 = 1;

    /** The version written. */
    static final int CURRENT_VERSION = VERSION_1;

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(RangeCoordinatorState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        out.writeLong(state.checkpointId());
        out.writeInt(state.writers());
        out.writeInt(state.boundaries().size());
        for (byte[] boundary : state.boundaries()) {
            out.writeInt(boundary.length);
            out.write(boundary);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public RangeCoordinatorState deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown version "
                            + version
                            + " of the Iceberg sink's range-distribution coordinator state;"
                            + " this build reads version "
                            + VERSION_1);
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        long checkpointId = in.readLong();
        int writers = in.readInt();
        int count = in.readInt();
        List<byte[]> boundaries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] boundary = new byte[in.readInt()];
            in.readFully(boundary);
            boundaries.add(boundary);
        }
        return new RangeCoordinatorState(checkpointId, writers, boundaries);
    }
}
