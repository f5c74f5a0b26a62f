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
 * committing step needs: it travels from the planner to the committer beside the work units (and
 * may wait in the committer's checkpointed state, so older versions stay readable).
 *
 * <p>Version {@value #VERSION_2} (current): starting snapshot id (long), file group count (int),
 * then for each group the count (int) and the plain form ({@link ContentFileCodec#writePlain}) of
 * each of its rewritten data files, followed by the same for each of its dangling delete files.
 *
 * <p>Version {@value #VERSION_1}: starting snapshot id (long), file group count (int), the count
 * (int) and plain form of every rewritten data file, then the same for every dangling delete file;
 * the files of all groups together. It is read as ONE group holding every file (or no group when
 * there is no file), which the work items of that version all belong to.
 */
@Internal
public final class RewriteHeaderSerializer implements SimpleVersionedSerializer<RewriteHeader> {

    /** The first version, the files of all groups together; see the class comment. */
    public static final int VERSION_1 = 1;

    /** The current version, the files per group; see the class comment. */
    public static final int VERSION_2 = 2;

    private final TableMetadataLookup specs;

    /** A serializer that looks the files' partition specs up in {@code specsById}. */
    public RewriteHeaderSerializer(Map<Integer, PartitionSpec> specsById) {
        this.specs = TableMetadataLookup.ofSpecs(specsById);
    }

    @Override
    public int getVersion() {
        return VERSION_2;
    }

    @Override
    public byte[] serialize(RewriteHeader header) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(1024);
        out.writeLong(header.startingSnapshotId());
        out.writeInt(header.groupCount());
        for (RewriteHeader.Group group : header.groups()) {
            writeFiles(group.rewrittenDataFiles(), out);
            writeFiles(group.danglingDeleteFiles(), out);
        }
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
        if (version != VERSION_1 && version != VERSION_2) {
            throw new IOException(
                    "Unknown rewrite plan version "
                            + version
                            + "; this release reads versions 1 and 2");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        long snapshotId = in.readLong();
        int groupCount = in.readInt();
        if (groupCount < 0) {
            throw new IOException("Corrupt rewrite plan: negative group count " + groupCount);
        }
        List<RewriteHeader.Group> groups = new ArrayList<>();
        if (version == VERSION_1) {
            List<DataFile> data = readFiles(in, DataFile.class);
            List<DeleteFile> deletes = readFiles(in, DeleteFile.class);
            if (!data.isEmpty() || !deletes.isEmpty()) {
                groups.add(new RewriteHeader.Group(data, deletes));
            }
        } else {
            for (int i = 0; i < groupCount; i++) {
                List<DataFile> data = readFiles(in, DataFile.class);
                List<DeleteFile> deletes = readFiles(in, DeleteFile.class);
                groups.add(new RewriteHeader.Group(data, deletes));
            }
        }
        if (in.available() > 0) {
            throw new IOException(
                    "Corrupt rewrite plan: " + in.available() + " bytes left after the files");
        }
        return new RewriteHeader(snapshotId, groups);
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
