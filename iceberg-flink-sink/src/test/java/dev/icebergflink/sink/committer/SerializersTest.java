package dev.icebergflink.sink.committer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.sink.GoldenFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.ContentFileParser;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.io.WriteResult;
import org.junit.jupiter.api.Test;

/** Round trips and golden bytes of the commit side's versioned serializers. */
class SerializersTest {

    private final WriteResultSerializer resultSerializer =
            WriteResultSerializer.forSpecs(GoldenObjects.SPECS);

    private static List<String> json(ContentFile<?>[] files) {
        return Arrays.stream(files)
                .map(f -> ContentFileParser.toJson(f, GoldenObjects.SPEC))
                .collect(Collectors.toList());
    }

    private static void assertSameResult(WriteResult actual, WriteResult expected) {
        assertThat(json(actual.dataFiles())).isEqualTo(json(expected.dataFiles()));
        assertThat(json(actual.deleteFiles())).isEqualTo(json(expected.deleteFiles()));
        assertThat(json(actual.rewrittenDeleteFiles()))
                .isEqualTo(json(expected.rewrittenDeleteFiles()));
        assertThat(Arrays.stream(actual.referencedDataFiles()).map(CharSequence::toString))
                .containsExactlyElementsOf(
                        Arrays.stream(expected.referencedDataFiles())
                                .map(CharSequence::toString)
                                .collect(Collectors.toList()));
    }

    @Test
    void writeResultRoundTripKeepsEveryFileAndItsMetrics() throws IOException {
        WriteResult expected = GoldenObjects.writeResult();
        WriteResult actual =
                resultSerializer.deserialize(
                        WriteResultSerializer.CURRENT_VERSION,
                        resultSerializer.serialize(expected));
        assertSameResult(actual, expected);
        assertThat(actual.dataFiles()[0].recordCount()).isEqualTo(10L);
        assertThat(actual.dataFiles()[0].nullValueCounts()).containsEntry(2, 2L);
        assertThat(actual.dataFiles()[0].partition().get(0, String.class)).isEqualTo("a");
        assertThat(actual.deleteFiles()[0].equalityFieldIds()).containsExactly(1);
    }

    @Test
    void writeResultGoldenBytes() throws IOException {
        byte[] bytes = resultSerializer.serialize(GoldenObjects.writeResult());
        byte[] golden =
                GoldenFiles.assertGolden("write-result", WriteResultSerializer.VERSION_1, bytes);
        assertSameResult(
                resultSerializer.deserialize(WriteResultSerializer.VERSION_1, golden),
                GoldenObjects.writeResult());
    }

    @Test
    void emptyWriteResultRoundTrip() throws IOException {
        WriteResult empty = WriteResult.builder().build();
        assertSameResult(resultSerializer.deserialize(1, resultSerializer.serialize(empty)), empty);
    }

    @Test
    void writeResultRejectsUnknownVersionsAndTrailingBytes() throws IOException {
        byte[] bytes = resultSerializer.serialize(GoldenObjects.writeResult());
        assertThatThrownBy(() -> resultSerializer.deserialize(2, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 2");
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> resultSerializer.deserialize(1, longer))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("trailing");
    }

    @Test
    void writeResultNamesAnUnknownSpec() throws IOException {
        byte[] bytes = resultSerializer.serialize(GoldenObjects.writeResult());
        WriteResultSerializer noSpecs = WriteResultSerializer.forSpecs(Map.of());
        assertThatThrownBy(() -> noSpecs.deserialize(1, bytes))
                .hasMessageContaining("partition spec with id 0");
    }

    @Test
    void committableRoundTrip() throws IOException {
        IcebergCommittableSerializer serializer = new IcebergCommittableSerializer();
        IcebergCommittable expected = GoldenObjects.committable();
        IcebergCommittable actual =
                serializer.deserialize(
                        IcebergCommittableSerializer.CURRENT_VERSION,
                        serializer.serialize(expected));
        assertSameCommittable(actual, expected);
    }

    private static void assertSameCommittable(
            IcebergCommittable actual, IcebergCommittable expected) {
        assertThat(actual).isEqualTo(expected);
        assertThat(actual.jobId()).isEqualTo("a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1");
        assertThat(actual.checkpointId()).isEqualTo(42L);
        assertThat(actual.endOfInput()).isTrue();
        ManifestFile data = actual.dataManifests().get(0);
        ManifestFile original = expected.dataManifests().get(0);
        assertThat(data.length()).isEqualTo(original.length());
        assertThat(data.partitionSpecId()).isEqualTo(original.partitionSpecId());
        assertThat(data.content()).isEqualTo(ManifestContent.DATA);
        assertThat(data.addedFilesCount()).isEqualTo(1);
        assertThat(actual.deleteManifests().get(0).content()).isEqualTo(ManifestContent.DELETES);
        assertThat(actual.referencedDataFiles()).isEqualTo(expected.referencedDataFiles());
    }

    @Test
    void committableGoldenBytes() throws IOException {
        IcebergCommittableSerializer serializer = new IcebergCommittableSerializer();
        byte[] bytes = serializer.serialize(GoldenObjects.committable());
        byte[] golden =
                GoldenFiles.assertGolden(
                        "iceberg-committable", IcebergCommittableSerializer.VERSION_2, bytes);
        IcebergCommittable read =
                serializer.deserialize(IcebergCommittableSerializer.VERSION_2, golden);
        assertSameCommittable(read, GoldenObjects.committable());
        assertThat(read.owner().runId()).isEqualTo(GoldenObjects.RUN_ID);
    }

    @Test
    void committablesOfVersionOneAreReadWithoutARunId() throws IOException {
        byte[] golden =
                Files.readAllBytes(
                        GoldenFiles.path(
                                "iceberg-committable", IcebergCommittableSerializer.VERSION_1));
        IcebergCommittable read =
                new IcebergCommittableSerializer()
                        .deserialize(IcebergCommittableSerializer.VERSION_1, golden);
        assertSameCommittable(read, GoldenObjects.committable(""));
        assertThat(read.owner().runId()).isEmpty();
    }

    @Test
    void committableRejectsUnknownVersions() throws IOException {
        IcebergCommittableSerializer serializer = new IcebergCommittableSerializer();
        byte[] bytes = serializer.serialize(GoldenObjects.committable());
        assertThatThrownBy(() -> serializer.deserialize(7, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 7");
    }

    private static AggregatorState<WriteResult> goldenState() {
        return new AggregatorState<>(
                7L,
                Map.of(
                        8L,
                        List.of(GoldenObjects.writeResult(), WriteResult.builder().build()),
                        9L,
                        List.of()));
    }

    @Test
    void aggregatorStateRoundTripAndGoldenBytes() throws IOException {
        AggregatorStateSerializer<WriteResult> serializer =
                new AggregatorStateSerializer<>(resultSerializer);
        byte[] bytes = serializer.serialize(goldenState());
        byte[] golden =
                GoldenFiles.assertGolden(
                        "aggregator-state", AggregatorStateSerializer.VERSION_1, bytes);
        AggregatorState<WriteResult> actual =
                serializer.deserialize(AggregatorStateSerializer.VERSION_1, golden);
        assertThat(actual).isEqualTo(goldenState());
        assertThat(actual.lastCheckpointId()).isEqualTo(7L);
        assertThat(actual.pending().get(8L)).hasSize(2);
        assertSameResult(actual.pending().get(8L).get(0), GoldenObjects.writeResult());
        assertThat(actual.pending().get(9L)).isEmpty();
        assertThatThrownBy(() -> serializer.deserialize(3, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 3");
    }
}
