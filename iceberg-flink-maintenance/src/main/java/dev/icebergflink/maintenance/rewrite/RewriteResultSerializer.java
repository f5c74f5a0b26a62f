package dev.icebergflink.maintenance.rewrite;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;

/**
 * Versioned serializer of the result of one work item of the streaming rewrite: the index of the
 * item's file group and the data files the item wrote. The results wait in the committer's
 * checkpointed state until the run ends, so older versions stay readable.
 *
 * <p>Version {@value #VERSION_2} (current): the group index (int), then the written files in the
 * layout of {@link WrittenFilesSerializer} version {@value WrittenFilesSerializer#VERSION_1}.
 *
 * <p>Version {@value #VERSION_1}: exactly {@link WrittenFilesSerializer} version {@value
 * WrittenFilesSerializer#VERSION_1}, which earlier releases sent back as the result; read as group
 * 0, the one group a version-1 plan header is read as.
 */
@Internal
public final class RewriteResultSerializer
        implements SimpleVersionedSerializer<RewriteResultSerializer.Result> {

    /** The written files alone, as earlier releases sent them; see the class comment. */
    public static final int VERSION_1 = 1;

    /** The current version; see the class comment for its layout. */
    public static final int VERSION_2 = 2;

    /**
     * What one work item wrote.
     *
     * @param group the index of the item's file group in the plan
     * @param files the data files written
     */
    public record Result(int group, List<DataFile> files) {}

    private final WrittenFilesSerializer files;

    /** A serializer that looks the files' partition specs up in {@code specsById}. */
    public RewriteResultSerializer(Map<Integer, PartitionSpec> specsById) {
        this.files = new WrittenFilesSerializer(specsById);
    }

    @Override
    public int getVersion() {
        return VERSION_2;
    }

    @Override
    public byte[] serialize(Result result) throws IOException {
        byte[] written = files.serialize(result.files());
        DataOutputSerializer out = new DataOutputSerializer(written.length + 4);
        out.writeInt(result.group());
        out.write(written);
        return out.getCopyOfBuffer();
    }

    @Override
    public Result deserialize(int version, byte[] serialized) throws IOException {
        if (version == VERSION_1) {
            return new Result(0, files.deserialize(WrittenFilesSerializer.VERSION_1, serialized));
        }
        if (version != VERSION_2) {
            throw new IOException(
                    "Unknown rewrite result version "
                            + version
                            + "; this release reads versions 1 and 2");
        }
        if (serialized.length < 4) {
            throw new IOException(
                    "Corrupt rewrite result: " + serialized.length + " bytes, no group index");
        }
        int group =
                ((serialized[0] & 0xff) << 24)
                        | ((serialized[1] & 0xff) << 16)
                        | ((serialized[2] & 0xff) << 8)
                        | (serialized[3] & 0xff);
        if (group < 0) {
            throw new IOException("Corrupt rewrite result: negative group index " + group);
        }
        return new Result(
                group,
                files.deserialize(
                        WrittenFilesSerializer.VERSION_1,
                        Arrays.copyOfRange(serialized, 4, serialized.length)));
    }
}
