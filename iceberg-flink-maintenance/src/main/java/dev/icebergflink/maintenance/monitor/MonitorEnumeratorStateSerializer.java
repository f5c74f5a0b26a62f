package dev.icebergflink.maintenance.monitor;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned serializer of {@link MonitorEnumeratorState}.
 *
 * <p>Version {@value #VERSION_1}: whether a split is unassigned (boolean), then its last reported
 * snapshot id (long) when it is.
 */
@Internal
public final class MonitorEnumeratorStateSerializer
        implements SimpleVersionedSerializer<MonitorEnumeratorState> {

    /** The first (current) version; see the class comment for its layout. */
    public static final int VERSION_1 = 1;

    @Override
    public int getVersion() {
        return VERSION_1;
    }

    @Override
    public byte[] serialize(MonitorEnumeratorState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(9);
        out.writeBoolean(state.unassigned() != null);
        if (state.unassigned() != null) {
            out.writeLong(state.unassigned().lastSnapshotId());
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public MonitorEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown table-change enumerator version "
                            + version
                            + "; this release reads 1");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        MonitorSplit split = in.readBoolean() ? new MonitorSplit(in.readLong()) : null;
        if (in.available() > 0) {
            throw new IOException(
                    "Corrupt table-change enumerator state: " + in.available() + " bytes left");
        }
        return new MonitorEnumeratorState(split);
    }
}
