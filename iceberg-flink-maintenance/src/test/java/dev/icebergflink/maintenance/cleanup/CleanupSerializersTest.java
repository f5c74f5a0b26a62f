package dev.icebergflink.maintenance.cleanup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.HexFormat;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.junit.jupiter.api.Test;

/** The work items and results of the deleting workers. */
class CleanupSerializersTest {

    @Test
    void aPathBatchIsItsCountAndLengthPrefixedPaths() throws IOException {
        PathBatchSerializer serializer = new PathBatchSerializer();
        byte[] bytes = serializer.serialize(List.of("/a", "s3://b/c"));
        assertThat(serializer.deserialize(1, bytes)).containsExactly("/a", "s3://b/c");
        assertThat(HexFormat.of().formatHex(bytes)).startsWith("00000002");
        assertThat(serializer.deserialize(1, serializer.serialize(List.of()))).isEmpty();
        assertThatThrownBy(() -> serializer.deserialize(9, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 9");
    }

    @Test
    void pathsAreCutIntoBatchesOfAtMostTheBatchSize() throws IOException {
        List<byte[]> batches = PathBatchSerializer.batches(List.of("a", "b", "c", "d", "e"), 2);
        assertThat(batches).hasSize(3);
        PathBatchSerializer serializer = new PathBatchSerializer();
        assertThat(
                        SimpleVersionedSerialization.readVersionAndDeSerialize(
                                serializer, batches.get(2)))
                .containsExactly("e");
        assertThat(PathBatchSerializer.batches(List.of(), 2)).isEmpty();
    }

    @Test
    void aDeletionCountIsDeletedThenFailed() throws IOException {
        DeletionCountSerializer serializer = new DeletionCountSerializer();
        byte[] bytes = serializer.serialize(new DeletionCountSerializer.Count(5, 1));
        assertThat(HexFormat.of().formatHex(bytes))
                .isEqualTo("0000000000000005" + "0000000000000001");
        assertThat(serializer.deserialize(1, bytes))
                .isEqualTo(new DeletionCountSerializer.Count(5, 1));
        assertThatThrownBy(() -> serializer.deserialize(2, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 2");
    }
}
