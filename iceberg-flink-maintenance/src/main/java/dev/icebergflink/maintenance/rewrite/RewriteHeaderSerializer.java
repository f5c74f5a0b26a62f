package dev.icebergflink.maintenance.rewrite;

import dev.icebergflink.tasks.codec.ContentFileCodec;
import dev.icebergflink.tasks.codec.TableMetadataLookup;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionSpec;

/**
 * Versioned serializer of a {@link RewriteHeader}, the part of a streaming rewrite's plan that the
 * committing step needs: it travels from the planner to the committer beside the work units.
 *
 * <p>Version {@value #VERSION_1}: starting snapshot id (long), file group count (int), the count
 * (int) and the plain form ({@link ContentFileCodec#writePlain}) of each rewritten data file, then
 * the same for each dangling delete file.
 */
@Internal
public final class RewriteHeaderSerializer implements SimpleVersionedSerializer<RewriteHeader> {

    /** The first (current) version; see the class comment for its layout. */
    public static final int VERSION_1 = 1;

    private final TableMetadataLookup specs;

    /** A serializer that looks the files' partition specs up in {@code specsById}. */
    public RewriteHeaderSerializer(Map<Integer, PartitionSpec> specsById) {
        this.specs = TableMetadataLookup.ofSpecs(specsById);
    }

    @Override
    public int getVersion() {
        return VERSION_1;
    }

    @Override
    public byte[] serialize(RewriteHeader header) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(1024);
        out.writeLong(header.startingSnapshotId());
        out.writeInt(header.groupCount());
        writeFiles(header.rewrittenDataFiles(), out);
        writeFiles(header.danglingDeleteFiles(), out);
        return out.getCopyOfBuffer();
    }

    private void writeFiles(Collection<? extends ContentFile<?>> files, DataOutputSerializer out)
            throws IOException {
        out.writeInt(files.size());
        for (ContentFile<?> file : files) {
            ContentFileCodec.writePlain(file, specs.spec(file.specId()), out);
        }
    }

    @Override
    public RewriteHeader deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown rewrite plan version " + version + "; this release reads version 1");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        long snapshotId = in.readLong();
        int groups = in.readInt();
        List<DataFile> data = readFiles(in, DataFile.class);
        List<DeleteFile> deletes = readFiles(in, DeleteFile.class);
        if (in.available() > 0) {
            throw new IOException(
                    "Corrupt rewrite plan: " + in.available() + " bytes left after the files");
        }
        return new RewriteHeader(snapshotId, groups, data, deletes);
    }

    private <F extends ContentFile<F>> List<F> readFiles(DataInputDeserializer in, Class<F> type)
            throws IOException {
        int count = in.readInt();
        if (count < 0) {
            throw new IOException("Corrupt rewrite plan: negative file count " + count);
        }
        List<F> files = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            files.add(ContentFileCodec.readPlain(in, specs, type));
        }
        return files;
    }
}
