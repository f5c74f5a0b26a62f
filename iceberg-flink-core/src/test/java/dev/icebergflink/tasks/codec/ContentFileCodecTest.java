package dev.icebergflink.tasks.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class ContentFileCodecTest {

    static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "data", Types.StringType.get()));
    static final PartitionSpec SPEC = PartitionSpec.builderFor(SCHEMA).identity("data").build();
    static final TableMetadataLookup METADATA =
            TableMetadataLookup.of(Map.of(0, SCHEMA), Map.of(0, SPEC));

    static DataFile dataFile(String name) {
        return DataFiles.builder(SPEC)
                .withPath("/warehouse/t/data/" + name + ".parquet")
                .withFormat(FileFormat.PARQUET)
                .withPartitionPath("data=a")
                .withFileSizeInBytes(1024)
                .withMetrics(
                        new Metrics(10L, Map.of(1, 80L), Map.of(1, 10L), Map.of(1, 0L), Map.of()))
                .withSplitOffsets(List.of(4L))
                .build();
    }

    static DeleteFile positionDeletes(String name) {
        return FileMetadata.deleteFileBuilder(SPEC)
                .ofPositionDeletes()
                .withPath("/warehouse/t/data/" + name + "-deletes.parquet")
                .withFormat(FileFormat.PARQUET)
                .withPartitionPath("data=a")
                .withFileSizeInBytes(512)
                .withRecordCount(3)
                .build();
    }

    @Test
    void plainFormKeepsEveryFieldButSequenceNumbers() throws IOException {
        DataFile file = dataFile("plain");
        DataOutputSerializer out = new DataOutputSerializer(64);
        ContentFileCodec.writePlain(file, SPEC, out);

        DataFile read =
                ContentFileCodec.readPlain(
                        new DataInputDeserializer(out.getCopyOfBuffer()), METADATA, DataFile.class);

        assertThat(read.location()).isEqualTo(file.location());
        assertThat(read.specId()).isEqualTo(0);
        assertThat(read.partition().get(0, String.class)).isEqualTo("a");
        assertThat(read.recordCount()).isEqualTo(10L);
        assertThat(read.columnSizes()).isEqualTo(Map.of(1, 80L));
        assertThat(read.splitOffsets()).containsExactly(4L);
        assertThat(read.dataSequenceNumber()).isNull();
    }

    @Test
    void sequencedFormRestoresSequenceNumbersAndNulls() throws IOException {
        DataFile data = SequencedFiles.dataFile(dataFile("seq"), 7L, 8L);
        DeleteFile deletes = SequencedFiles.deleteFile(positionDeletes("seq"), null, 9L);
        DataOutputSerializer out = new DataOutputSerializer(64);
        ContentFileCodec.writeSequenced(data, SPEC, out);
        ContentFileCodec.writeSequenced(deletes, SPEC, out);

        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        DataFile readData = ContentFileCodec.readSequencedDataFile(in, METADATA);
        DeleteFile readDeletes = ContentFileCodec.readSequencedDeleteFile(in, METADATA);

        assertThat(in.available()).isZero();
        assertThat(readData.location()).isEqualTo(data.location());
        assertThat(readData.dataSequenceNumber()).isEqualTo(7L);
        assertThat(readData.fileSequenceNumber()).isEqualTo(8L);
        assertThat(readDeletes.location()).isEqualTo(deletes.location());
        assertThat(readDeletes.recordCount()).isEqualTo(3L);
        assertThat(readDeletes.dataSequenceNumber()).isNull();
        assertThat(readDeletes.fileSequenceNumber()).isEqualTo(9L);
        // copies keep the restored sequence numbers
        assertThat(readData.copy().dataSequenceNumber()).isEqualTo(7L);
    }

    @Test
    void aFileOfTheWrongKindIsCorruptState() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        ContentFileCodec.writePlain(positionDeletes("kind"), SPEC, out);

        assertThatThrownBy(
                        () ->
                                ContentFileCodec.readPlain(
                                        new DataInputDeserializer(out.getCopyOfBuffer()),
                                        METADATA,
                                        DataFile.class))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("expected a DataFile");
    }

    @Test
    void anUnknownSpecIsNamed() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        ContentFileCodec.writePlain(dataFile("spec"), SPEC, out);

        assertThatThrownBy(
                        () ->
                                ContentFileCodec.readPlain(
                                        new DataInputDeserializer(out.getCopyOfBuffer()),
                                        TableMetadataLookup.ofSpecs(Map.of()),
                                        DataFile.class))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("partition spec with id 0");
    }

    @Test
    void stringsAreLengthPrefixedUtf8OfAnyLength() throws IOException {
        String longText = "é€𝄞".repeat(30_000);
        DataOutputSerializer out = new DataOutputSerializer(64);
        LengthPrefixedStrings.write(longText, out);
        LengthPrefixedStrings.write("", out);
        byte[] bytes = out.getCopyOfBuffer();

        DataInputDeserializer in = new DataInputDeserializer(bytes);
        assertThat(in.readInt()).isEqualTo(longText.getBytes("UTF-8").length);
        in = new DataInputDeserializer(bytes);
        assertThat(LengthPrefixedStrings.read(in)).isEqualTo(longText);
        assertThat(LengthPrefixedStrings.read(in)).isEmpty();
        assertThat(in.available()).isZero();
    }

    @Test
    void aNegativeStringLengthIsCorruptState() {
        byte[] bytes = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xfe};

        assertThatThrownBy(() -> LengthPrefixedStrings.read(new DataInputDeserializer(bytes)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("negative string length -2");
    }
}
