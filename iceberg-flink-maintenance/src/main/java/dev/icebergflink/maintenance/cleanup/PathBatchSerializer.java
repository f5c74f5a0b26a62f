package dev.icebergflink.maintenance.cleanup;

import dev.icebergflink.tasks.codec.LengthPrefixedStrings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned serializer of a batch of file locations, the work item of the deleting workers.
 *
 * <p>Version {@value #VERSION_1}: the count (int), then each location in core's length-prefixed
 * string form.
 */
@Internal
public final class PathBatchSerializer implements SimpleVersionedSerializer<List<String>> {

    /** The first (current) version; see the class comment for its layout. */
    public static final int VERSION_1 = 1;

    @Override
    public int getVersion() {
        return VERSION_1;
    }

    @Override
    public byte[] serialize(List<String> paths) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64 * Math.max(1, paths.size()));
        out.writeInt(paths.size());
        for (String path : paths) {
            LengthPrefixedStrings.write(path, out);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public List<String> deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown path batch version " + version + "; this release reads version 1");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int count = in.readInt();
        if (count < 0) {
            throw new IOException("Corrupt path batch: negative count " + count);
        }
        List<String> paths = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            paths.add(LengthPrefixedStrings.read(in));
        }
        if (in.available() > 0) {
            throw new IOException("Corrupt path batch: " + in.available() + " bytes left over");
        }
        return paths;
    }

    /** {@code paths} cut into serialized batches of at most {@code batchSize}. */
    public static List<byte[]> batches(List<String> paths, int batchSize) throws IOException {
        PathBatchSerializer serializer = new PathBatchSerializer();
        List<byte[]> batches = new ArrayList<>();
        for (int from = 0; from < paths.size(); from += batchSize) {
            List<String> batch = paths.subList(from, Math.min(paths.size(), from + batchSize));
            batches.add(
                    org.apache.flink.core.io.SimpleVersionedSerialization.writeVersionAndSerialize(
                            serializer, new ArrayList<>(batch)));
        }
        return batches;
    }
}
