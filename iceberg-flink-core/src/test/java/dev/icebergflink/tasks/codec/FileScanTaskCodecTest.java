package dev.icebergflink.tasks.codec;

import static dev.icebergflink.tasks.codec.ContentFileCodecTest.SCHEMA;
import static dev.icebergflink.tasks.codec.ContentFileCodecTest.SPEC;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.Test;

class FileScanTaskCodecTest {

    /** An older, unpartitioned spec (id 1) of the same schema (id 3). */
    private static final PartitionSpec OLD_SPEC =
            PartitionSpec.builderFor(SCHEMA).withSpecId(1).build();

    private static final Schema SCHEMA_3 = new Schema(3, SCHEMA.columns());

    private final TableMetadataLookup metadata =
            TableMetadataLookup.of(Map.of(3, SCHEMA_3), Map.of(0, SPEC, 1, OLD_SPEC));
    private final FileScanTaskCodec codec = new FileScanTaskCodec(metadata);

    @Test
    void restoresRangesDeletesResidualsSchemaAndSpecs() throws IOException {
        DataFile data = SequencedFiles.dataFile(ContentFileCodecTest.dataFile("t"), 4L, 5L);
        DeleteFile sameSpec =
                SequencedFiles.deleteFile(ContentFileCodecTest.positionDeletes("t"), 6L, 6L);
        DeleteFile olderSpec =
                SequencedFiles.deleteFile(
                        FileMetadata.deleteFileBuilder(OLD_SPEC)
                                .ofEqualityDeletes(1)
                                .withPath("/warehouse/t/data/old-eq.parquet")
                                .withFormat(FileFormat.PARQUET)
                                .withFileSizeInBytes(100)
                                .withRecordCount(1)
                                .build(),
                        2L,
                        2L);
        FileScanTask first =
                new RestoredFileScanTask(
                        data,
                        List.of(sameSpec, olderSpec),
                        SCHEMA_3,
                        SPEC,
                        Expressions.greaterThan("id", 5L),
                        128,
                        512);
        FileScanTask second =
                new RestoredFileScanTask(
                        data, List.of(), SCHEMA_3, SPEC, Expressions.alwaysTrue(), 640, 384);

        List<FileScanTask> read = roundTrip(List.of(first, second));

        assertThat(read).hasSize(2);
        FileScanTask task = read.get(0);
        assertThat(task.file().location()).isEqualTo(data.location());
        assertThat(task.file().dataSequenceNumber()).isEqualTo(4L);
        assertThat(task.file().fileSequenceNumber()).isEqualTo(5L);
        assertThat(task.schema().schemaId()).isEqualTo(3);
        assertThat(task.spec()).isSameAs(SPEC);
        assertThat(task.start()).isEqualTo(128L);
        assertThat(task.length()).isEqualTo(512L);
        assertThat(task.residual().toString())
                .isEqualTo(Expressions.greaterThan("id", 5L).toString());
        assertThat(task.deletes())
                .extracting(
                        DeleteFile::location, DeleteFile::specId, DeleteFile::dataSequenceNumber)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(sameSpec.location(), 0, 6L),
                        org.assertj.core.groups.Tuple.tuple(olderSpec.location(), 1, 2L));
        assertThat(task.deletes().get(1).equalityFieldIds()).containsExactly(1);
        assertThat(read.get(1).start()).isEqualTo(640L);
        assertThat(read.get(1).deletes()).isEmpty();
        assertThat(read.get(1).residual().op())
                .isEqualTo(org.apache.iceberg.expressions.Expression.Operation.TRUE);
    }

    @Test
    void noTasksNeedNoSchema() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(16);
        codec.writeTasks(List.of(), out);

        assertThat(out.getCopyOfBuffer()).containsExactly(0, 0, 0, 0, 0, 0, 0, 0);
        FileScanTaskCodec empty = new FileScanTaskCodec(TableMetadataLookup.ofSpecs(Map.of()));
        assertThat(empty.readTasks(new DataInputDeserializer(out.getCopyOfBuffer()))).isEmpty();
    }

    @Test
    void anUnknownSchemaIsNamed() throws IOException {
        FileScanTask task =
                new RestoredFileScanTask(
                        ContentFileCodecTest.dataFile("s"),
                        List.of(),
                        SCHEMA_3,
                        SPEC,
                        Expressions.alwaysTrue(),
                        0,
                        1);
        DataOutputSerializer out = new DataOutputSerializer(64);
        codec.writeTasks(List.of(task), out);
        FileScanTaskCodec other =
                new FileScanTaskCodec(TableMetadataLookup.of(Map.of(0, SCHEMA), Map.of(0, SPEC)));

        assertThatThrownBy(() -> other.readTasks(new DataInputDeserializer(out.getCopyOfBuffer())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("schema with id 3");
    }

    private List<FileScanTask> roundTrip(List<FileScanTask> tasks) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        codec.writeTasks(tasks, out);
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        List<FileScanTask> read = codec.readTasks(in);
        assertThat(in.available()).isZero();
        return read;
    }
}
