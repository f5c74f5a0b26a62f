package dev.icebergflink.sink.dynamic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.sink.GoldenFiles;
import dev.icebergflink.sink.committer.GoldenObjects;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

class DynamicCommittableSerializerTest {

    private static final DynamicCommittable GOLDEN =
            new DynamicCommittable(
                    TableIdentifier.of(Namespace.of("lake", "sales"), "orders"),
                    "audit",
                    GoldenObjects.committable());

    private static final DynamicCommittable GOLDEN_GENERATION =
            new DynamicCommittable(
                    TableIdentifier.of(Namespace.of("lake", "sales"), "orders"),
                    "audit",
                    2,
                    GoldenObjects.committable());

    private final DynamicCommittableSerializer serializer = new DynamicCommittableSerializer();

    @Test
    void goldenBytesOfVersionTwo() throws IOException {
        byte[] golden =
                GoldenFiles.assertGolden(
                        "dynamic-committable",
                        DynamicCommittableSerializer.VERSION_2,
                        serializer.serialize(GOLDEN_GENERATION));
        DynamicCommittable read =
                serializer.deserialize(DynamicCommittableSerializer.VERSION_2, golden);
        assertThat(read).isEqualTo(GOLDEN_GENERATION);
        assertThat(read.generation()).isEqualTo(2);
        assertThat(read.branch()).isEqualTo("audit");
    }

    @Test
    void versionOneIsStillReadAsGenerationZero() throws IOException {
        byte[] golden =
                Files.readAllBytes(
                        GoldenFiles.path(
                                "dynamic-committable", DynamicCommittableSerializer.VERSION_1));
        DynamicCommittable read =
                serializer.deserialize(DynamicCommittableSerializer.VERSION_1, golden);
        assertThat(read.generation()).isZero();
        assertThat(read).isEqualTo(GOLDEN);
        assertThat(read.table().namespace().levels()).containsExactly("lake", "sales");
        assertThat(read.branch()).isEqualTo("audit");
        assertThat(read.committable().checkpointId()).isEqualTo(42L);
    }

    @Test
    void theMainBranchRoundTripsAsNull() throws IOException {
        DynamicCommittable main =
                new DynamicCommittable(
                        TableIdentifier.of("orders"), null, GoldenObjects.committable());
        DynamicCommittable read =
                serializer.deserialize(serializer.getVersion(), serializer.serialize(main));
        assertThat(read).isEqualTo(main);
        assertThat(read.branch()).isNull();
        assertThat(read.table().namespace().isEmpty()).isTrue();
    }

    @Test
    void unknownVersionsAndCorruptBytesAreRefused() throws IOException {
        byte[] bytes = serializer.serialize(GOLDEN);
        assertThatThrownBy(() -> serializer.deserialize(3, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 3");
        byte[] trailing = java.util.Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> serializer.deserialize(2, trailing))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("1 trailing bytes");
    }
}
