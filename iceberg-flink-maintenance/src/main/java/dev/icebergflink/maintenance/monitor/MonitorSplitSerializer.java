package dev.icebergflink.maintenance.monitor;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned serializer of {@link MonitorSplit}, for the reader's checkpoints.
 *
 * <p>Version {@value #VERSION_1}: the last reported snapshot id (long, -1 for none).
 */
@Internal
public final class MonitorSplitSerializer implements SimpleVersionedSerializer<MonitorSplit> {

    /** The first (current) version; see the class comment for its layout. */
    public static final int VERSION_1 = 1;

    @Override
    public int getVersion() {
        return VERSION_1;
    }

    @Override
    public byte[] serialize(MonitorSplit split) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(8);
        out.writeLong(split.lastSnapshotId());
        return out.getCopyOfBuffer();
    }

    @Override
    public MonitorSplit deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown table-change split version " + version + "; this release reads 1");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        MonitorSplit split = new MonitorSplit(in.readLong());
        if (in.available() > 0) {
            throw new IOException(
                    "Corrupt table-change split: " + in.available() + " bytes left over");
        }
        return split;
    }
}
