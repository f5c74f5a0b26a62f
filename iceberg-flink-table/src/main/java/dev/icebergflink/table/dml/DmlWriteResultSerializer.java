package dev.icebergflink.table.dml;

import dev.icebergflink.tasks.codec.ContentFileCodec;
import dev.icebergflink.tasks.codec.LengthPrefixedStrings;
import dev.icebergflink.tasks.codec.TableMetadataLookup;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;

/**
 * The versioned byte form of a {@link DmlWriteResult}, as writers send it to the committer.
 *
 * <p>Version 1: four lists of files (added data, added deletes, removed data, removed deletes),
 * each an int count followed by the files in core's sequenced content-file form (the removed files
 * keep their sequence numbers), then the referenced data file locations as an int count and
 * length-prefixed strings. Partition specs are not written: they are looked up by id in the table's
 * metadata.
 */
@Internal
public final class DmlWriteResultSerializer implements SimpleVersionedSerializer<DmlWriteResult> {

    private static final int VERSION = 1;

    private final TableMetadataLookup metadata;

    /**
     * @param metadata where the specs of the files are looked up when reading
     */
    public DmlWriteResultSerializer(TableMetadataLookup metadata) {
        this.metadata = metadata;
    }

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(DmlWriteResult result) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        writeFiles(result.addedDataFiles(), out);
        writeFiles(result.addedDeleteFiles(), out);
        writeFiles(result.removedDataFiles(), out);
        writeFiles(result.removedDeleteFiles(), out);
        out.writeInt(result.referencedDataFiles().size());
        for (String location : result.referencedDataFiles()) {
            LengthPrefixedStrings.write(location, out);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public DmlWriteResult deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException(
                    "Unknown version " + version + " of a DML write result; this build reads 1");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        List<DataFile> addedData = readDataFiles(in);
        List<DeleteFile> addedDeletes = readDeleteFiles(in);
        List<DataFile> removedData = readDataFiles(in);
        List<DeleteFile> removedDeletes = readDeleteFiles(in);
        int count = in.readInt();
        Set<String> referenced = new LinkedHashSet<>();
        for (int i = 0; i < count; i++) {
            referenced.add(LengthPrefixedStrings.read(in));
        }
        return new DmlWriteResult(addedData, addedDeletes, removedData, removedDeletes, referenced);
    }

    private void writeFiles(List<? extends ContentFile<?>> files, DataOutputView out)
            throws IOException {
        out.writeInt(files.size());
        for (ContentFile<?> file : files) {
            ContentFileCodec.writeSequenced(file, metadata.spec(file.specId()), out);
        }
    }

    private List<DataFile> readDataFiles(DataInputView in) throws IOException {
        int count = in.readInt();
        List<DataFile> files = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            files.add(ContentFileCodec.readSequencedDataFile(in, metadata));
        }
        return files;
    }

    private List<DeleteFile> readDeleteFiles(DataInputView in) throws IOException {
        int count = in.readInt();
        List<DeleteFile> files = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            files.add(ContentFileCodec.readSequencedDeleteFile(in, metadata));
        }
        return files;
    }
}
