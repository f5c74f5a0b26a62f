package dev.icebergflink.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.source.planning.ScanCursor;
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
    void cursorsRoundTrip() throws IOException {
        for (ScanCursor cursor :
                List.of(
                        ScanCursor.tableScan(3L),
                        ScanCursor.tableScan(3L).advancedBy(12, "f-12"),
                        ScanCursor.appendScan(null, 9L),
                        ScanCursor.appendScan(4L, 9L).advancedBy(1, "a"))) {
            IcebergEnumeratorState state =
                    new IcebergEnumeratorState(
                            new SnapshotPosition(9L, 90L),
                            cursor,
                            List.of(TestingSplits.split("x")));
            IcebergEnumeratorState restored = roundTrip(state);
            assertThat(restored.pagedScan()).isEqualTo(cursor);
            assertThat(restored.pendingSplits()).containsExactly(TestingSplits.split("x"));
        }
    }

    /** Version 1 bytes (written by the first release) still read, as states without a cursor. */
    @Test
    void version1GoldenBytesStillRead() throws IOException {
        IcebergSourceSplit a = TestingSplits.split("a");
        IcebergSourceSplit b = TestingSplits.split("b").withPosition(0, 0);
        byte[] golden = TestingSplits.golden("iceberg-enumerator-state-v1.bin", null);
        IcebergEnumeratorState restored =
                serializer.deserialize(IcebergEnumeratorStateSerializer.VERSION_1, golden);
        assertThat(restored.position()).isEqualTo(new SnapshotPosition(7L, 1700000000000L));
        assertThat(restored.pagedScan()).isNull();
        assertThat(restored.pendingSplits()).containsExactly(a, b);
    }

    @Test
    void version2GoldenBytes() throws IOException {
        IcebergSourceSplit a = TestingSplits.split("a");
        IcebergEnumeratorState state =
                new IcebergEnumeratorState(
                        new SnapshotPosition(7L, 1700000000000L),
                        ScanCursor.appendScan(5L, 7L).advancedBy(40, a.splitId()),
                        List.of(a));
        assertThat(serializer.getVersion()).isEqualTo(IcebergEnumeratorStateSerializer.VERSION_2);
        byte[] bytes = serializer.serialize(state);
        byte[] golden = TestingSplits.golden("iceberg-enumerator-state-v2.bin", bytes);
        assertThat(bytes).isEqualTo(golden);
        IcebergEnumeratorState restored =
                serializer.deserialize(IcebergEnumeratorStateSerializer.VERSION_2, golden);
        assertThat(restored.position()).isEqualTo(state.position());
        assertThat(restored.pagedScan()).isEqualTo(state.pagedScan());
        assertThat(restored.pendingSplits()).containsExactly(a);
    }
}
