package dev.icebergflink.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.source.planning.SnapshotPosition;
import dev.icebergflink.source.split.IcebergSourceSplit;
import dev.icebergflink.source.split.IcebergSourceSplitSerializer;
import dev.icebergflink.source.split.TestingSplits;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The enumerator state serializer: round trips of every position kind and golden bytes. */
class IcebergEnumeratorStateSerializerTest {

    private final IcebergEnumeratorStateSerializer serializer =
            new IcebergEnumeratorStateSerializer(
                    new IcebergSourceSplitSerializer(TestingSplits.METADATA));

    private IcebergEnumeratorState roundTrip(IcebergEnumeratorState state) throws IOException {
        return serializer.deserialize(serializer.getVersion(), serializer.serialize(state));
    }

    @Test
    void positionsRoundTrip() throws IOException {
        assertThat(roundTrip(new IcebergEnumeratorState(null, List.of())).position()).isNull();
        assertThat(
                        roundTrip(
                                        new IcebergEnumeratorState(
                                                SnapshotPosition.beforeFirstSnapshot(), List.of()))
                                .position())
                .isEqualTo(SnapshotPosition.beforeFirstSnapshot());
        assertThat(
                        roundTrip(
                                        new IcebergEnumeratorState(
                                                new SnapshotPosition(42L, 1700000000000L),
                                                List.of()))
                                .position())
                .isEqualTo(new SnapshotPosition(42L, 1700000000000L));
    }

    @Test
    void version1GoldenBytes() throws IOException {
        IcebergSourceSplit a = TestingSplits.split("a");
        IcebergSourceSplit b = TestingSplits.split("b").withPosition(0, 0);
        IcebergEnumeratorState state =
                new IcebergEnumeratorState(new SnapshotPosition(7L, 1700000000000L), List.of(a, b));
        byte[] bytes = serializer.serialize(state);
        byte[] golden = TestingSplits.golden("iceberg-enumerator-state-v1.bin", bytes);
        assertThat(bytes).isEqualTo(golden);
        IcebergEnumeratorState restored =
                serializer.deserialize(IcebergEnumeratorStateSerializer.VERSION_1, golden);
        assertThat(restored.position()).isEqualTo(state.position());
        assertThat(restored.pendingSplits()).containsExactly(a, b);
    }
}
