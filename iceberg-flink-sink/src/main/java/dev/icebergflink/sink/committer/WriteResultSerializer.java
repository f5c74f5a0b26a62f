package dev.icebergflink.sink.committer;

import dev.icebergflink.TableLoader;
import dev.icebergflink.tasks.codec.ContentFileCodec;
import dev.icebergflink.tasks.codec.LengthPrefixedStrings;
import dev.icebergflink.tasks.codec.LoadingTableMetadata;
import dev.icebergflink.tasks.codec.TableMetadataLookup;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.ContentFileParser;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.io.WriteResult;

/**
 * Versioned serializer of one writer subtask's {@link WriteResult} (data files, delete files,
 * referenced data files, rewritten delete files) for the way from the writers to the aggregation
 * and for the aggregation's state.
 *
 * <p>It exists because Iceberg's {@code WriteResult} is only Java-serializable, which our state
 * rules forbid. Each file is written by core's {@link ContentFileCodec} in its plain form, the JSON
 * of Iceberg's public {@link ContentFileParser} (the format of the REST scan-planning API); the
 * partition spec is not repeated but looked up by the file's spec id, from a {@link TableLoader}
 * ({@link #WriteResultSerializer(TableLoader)}) or a fixed spec map ({@link #forSpecs(Map)}).
 *
 * <p>Format of version {@value #VERSION_1}: for each of data files, delete files and rewritten
 * delete files an int count followed by that many length-prefixed UTF-8 JSON documents; then an int
 * count of referenced data file paths, each length-prefixed UTF-8.
 */
@Internal
public final class WriteResultSerializer implements SimpleVersionedSerializer<WriteResult> {

    /** The first (and current) format: JSON files through {@link ContentFileParser}. */
    public static final int VERSION_1 = 1;

    /** The version {@link #serialize(WriteResult)} writes. */
    public static final int CURRENT_VERSION = VERSION_1;

    private final TableMetadataLookup specs;

    /**
     * A serializer that looks partition specs up in the table {@code tableLoader} loads, loading it
     * again for a spec id it does not know yet (the table's spec evolved while the job ran).
     */
    public WriteResultSerializer(TableLoader tableLoader) {
        this(new LoadingTableMetadata(tableLoader));
    }

    private WriteResultSerializer(TableMetadataLookup specs) {
        this.specs = specs;
    }

    /** A serializer over a fixed map of partition specs by id (tests, or a table at hand). */
    public static WriteResultSerializer forSpecs(Map<Integer, PartitionSpec> specsById) {
        return new WriteResultSerializer(TableMetadataLookup.ofSpecs(specsById));
    }

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(WriteResult result) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        write(result, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public WriteResult deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown WriteResult serialization version "
                            + version
                            + "; this sink reads version "
                            + VERSION_1);
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        WriteResult result = read(in);
        if (in.available() != 0) {
            throw new IOException(
                    "Corrupt WriteResult state: " + in.available() + " trailing bytes");
        }
        return result;
    }

    /** Writes {@code result} in the current format (for callers that embed it in their state). */
    public void write(WriteResult result, DataOutputView out) throws IOException {
        writeFiles(result.dataFiles(), out);
        writeFiles(result.deleteFiles(), out);
        writeFiles(result.rewrittenDeleteFiles(), out);
        CharSequence[] referenced = result.referencedDataFiles();
        out.writeInt(referenced.length);
        for (CharSequence path : referenced) {
            LengthPrefixedStrings.write(path.toString(), out);
        }
    }

    /**
     * Reads a result written by {@link #write(WriteResult, DataOutputView)} in the current format.
     */
    public WriteResult read(DataInputView in) throws IOException {
        WriteResult.Builder builder = WriteResult.builder();
        builder.addDataFiles(readFiles(in, DataFile.class));
        builder.addDeleteFiles(readFiles(in, DeleteFile.class));
        builder.addRewrittenDeleteFiles(readFiles(in, DeleteFile.class));
        int referencedCount = readCount(in, "referenced data file");
        List<CharSequence> referenced = new ArrayList<>(referencedCount);
        for (int i = 0; i < referencedCount; i++) {
            referenced.add(LengthPrefixedStrings.read(in));
        }
        builder.addReferencedDataFiles(referenced);
        return builder.build();
    }

    private void writeFiles(ContentFile<?>[] files, DataOutputView out) throws IOException {
        out.writeInt(files.length);
        for (ContentFile<?> file : files) {
            ContentFileCodec.writePlain(file, specs.spec(file.specId()), out);
        }
    }

    private <F extends ContentFile<F>> List<F> readFiles(DataInputView in, Class<F> type)
            throws IOException {
        int count = readCount(in, type.getSimpleName());
        List<F> files = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            files.add(ContentFileCodec.readPlain(in, specs, type));
        }
        return files;
    }

    private static int readCount(DataInputView in, String what) throws IOException {
        int count = in.readInt();
        if (count < 0) {
            throw new IOException(
                    "Corrupt WriteResult state: negative " + what + " count " + count);
        }
        return count;
    }
}
