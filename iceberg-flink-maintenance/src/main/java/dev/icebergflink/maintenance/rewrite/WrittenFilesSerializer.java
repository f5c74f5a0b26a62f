package dev.icebergflink.maintenance.rewrite;

import dev.icebergflink.tasks.codec.ContentFileCodec;
import dev.icebergflink.tasks.codec.TableMetadataLookup;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;

/**
 * Versioned serializer of the data files one rewrite task wrote, for the way from the tasks back to
 * the caller, which commits them.
 *
 * <p>It exists so that written files travel as bytes of core's {@link ContentFileCodec} (Iceberg's
 * JSON form of a content file, the spec looked up by id) rather than as Java-serialized objects.
 * Like the units, they live only within one batch job and are versioned to fail loudly on a
 * mismatch.
 *
 * <p>Version {@value #VERSION_1}: the file count (int), then each data file in the plain form of
 * {@link ContentFileCodec#writePlain}.
 */
@Internal
public final class WrittenFilesSerializer implements SimpleVersionedSerializer<List<DataFile>> {

    /** The first (current) version; see the class comment for its layout. */
    public static final int VERSION_1 = 1;

    private final TableMetadataLookup specs;

    /** A serializer that looks the files' partition specs up in {@code specsById}. */
    public WrittenFilesSerializer(Map<Integer, PartitionSpec> specsById) {
        this.specs = TableMetadataLookup.ofSpecs(specsById);
    }

    @Override
    public int getVersion() {
        return VERSION_1;
    }

    @Override
    public byte[] serialize(List<DataFile> files) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        out.writeInt(files.size());
        for (DataFile file : files) {
            ContentFileCodec.writePlain(file, specs.spec(file.specId()), out);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public List<DataFile> deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown written-files version " + version + "; this job reads version 1");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int count = in.readInt();
        if (count < 0) {
            throw new IOException("Corrupt written files: negative file count " + count);
        }
        List<DataFile> files = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            files.add(ContentFileCodec.readPlain(in, specs, DataFile.class));
        }
        if (in.available() > 0) {
            throw new IOException(
                    "Corrupt written files: " + in.available() + " bytes left after the files");
        }
        return files;
    }
}
