package dev.icebergflink.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.source.planning.ScanCursor;
import dev.icebergflink.source.planning.SnapshotPosition;
import dev.icebergflink.source.split.IcebergSourceSplit;
import dev.icebergflink.source.split.IcebergSourceSplitSerializer;
import dev.icebergflink.source.split.TestingSplits;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
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

    /** Version 2 bytes (pending splits not deflated) still read. */
    @Test
    void version2GoldenBytesStillRead() throws IOException {
        IcebergSourceSplit a = TestingSplits.split("a");
        byte[] golden = TestingSplits.golden("iceberg-enumerator-state-v2.bin", null);
        IcebergEnumeratorState restored =
                serializer.deserialize(IcebergEnumeratorStateSerializer.VERSION_2, golden);
        assertThat(restored.position()).isEqualTo(new SnapshotPosition(7L, 1700000000000L));
        assertThat(restored.pagedScan())
                .isEqualTo(ScanCursor.appendScan(5L, 7L).advancedBy(40, a.splitId()));
        assertThat(restored.pendingSplits()).containsExactly(a);
    }

    /** Version 3 bytes (no table UUID) still read, as states whose UUID is unknown. */
    @Test
    void version3GoldenBytesStillRead() throws IOException {
        IcebergSourceSplit a = TestingSplits.split("a");
        IcebergSourceSplit b = TestingSplits.split("b");
        byte[] golden = TestingSplits.golden("iceberg-enumerator-state-v3.bin", null);
        IcebergEnumeratorState restored =
                serializer.deserialize(IcebergEnumeratorStateSerializer.VERSION_3, golden);
        assertThat(restored.position()).isEqualTo(new SnapshotPosition(7L, 1700000000000L));
        assertThat(restored.pagedScan())
                .isEqualTo(ScanCursor.appendScan(5L, 7L).advancedBy(40, a.splitId()));
        assertThat(restored.pendingSplits()).containsExactly(a, b);
        assertThat(restored.tableUuid()).isNull();
    }

    /**
     * Version 4 golden bytes read, with splits of version 1 and of version 2; freshly written bytes
     * equal the latter up to the deflated block (whose exact bytes may depend on the platform's
     * zlib) and read back the same.
     */
    @Test
    void version4GoldenBytes() throws IOException {
        IcebergSourceSplit a = TestingSplits.split("a");
        IcebergSourceSplit b = TestingSplits.split("b");
        IcebergEnumeratorState state =
                new IcebergEnumeratorState(
                        new SnapshotPosition(7L, 1700000000000L),
                        ScanCursor.appendScan(5L, 7L).advancedBy(40, a.splitId()),
                        List.of(a, b),
                        "6f1c2d3e-4b5a-4c6d-8e7f-901a2b3c4d5e");
        assertThat(serializer.getVersion()).isEqualTo(IcebergEnumeratorStateSerializer.VERSION_4);
        byte[] bytes = serializer.serialize(state);
        // written when splits were at version 1; the state embeds splits of any version
        byte[] golden = TestingSplits.golden("iceberg-enumerator-state-v4.bin", null);
        byte[] current = TestingSplits.golden("iceberg-enumerator-state-v4-splits-v2.bin", bytes);
        int header = current.length - deflatedBlockLength(current);
        assertThat(Arrays.copyOf(bytes, header)).isEqualTo(Arrays.copyOf(current, header));
        for (byte[] serialized : List.of(golden, current, bytes)) {
            IcebergEnumeratorState restored =
                    serializer.deserialize(IcebergEnumeratorStateSerializer.VERSION_4, serialized);
            assertThat(restored.position()).isEqualTo(state.position());
            assertThat(restored.pagedScan()).isEqualTo(state.pagedScan());
            assertThat(restored.pendingSplits()).containsExactly(a, b);
            assertThat(restored.tableUuid()).isEqualTo(state.tableUuid());
        }
    }

    @Test
    void tableUuidsRoundTrip() throws IOException {
        assertThat(roundTrip(new IcebergEnumeratorState(null, null, List.of(), null)).tableUuid())
                .isNull();
        IcebergEnumeratorState state =
                new IcebergEnumeratorState(
                        new SnapshotPosition(3L, 30L),
                        ScanCursor.tableScan(3L),
                        List.of(TestingSplits.split("u")),
                        "0a1b2c3d-0000-4000-8000-000000000001");
        assertThat(roundTrip(state)).isEqualTo(state);
    }

    @Test
    void unknownVersionsAreAnIOException() {
        assertThatThrownBy(() -> serializer.deserialize(5, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("versions [1, 2, 3, 4]");
    }

    /** Pending splits that repeat paths and keys take a fraction of their serialized size. */
    @Test
    void pendingSplitsAreDeflated() throws IOException {
        List<IcebergSourceSplit> pending =
                IntStream.range(0, 50).mapToObj(i -> TestingSplits.split("s" + i)).toList();
        IcebergSourceSplitSerializer splits =
                new IcebergSourceSplitSerializer(TestingSplits.METADATA);
        long plain = 0;
        for (IcebergSourceSplit split : pending) {
            plain += splits.serialize(split).length;
        }
        byte[] bytes = serializer.serialize(new IcebergEnumeratorState(null, pending));
        assertThat((long) bytes.length).isLessThan(plain / 4);
        assertThat(roundTrip(new IcebergEnumeratorState(null, pending)).pendingSplits())
                .containsExactlyElementsOf(pending);
    }

    @Test
    void corruptDeflatedSplitsAreAnIOException() throws IOException {
        byte[] bytes =
                serializer.serialize(
                        new IcebergEnumeratorState(null, List.of(TestingSplits.split("c"))));
        bytes[bytes.length - 8] ^= 0x5a;
        bytes[bytes.length - 9] ^= 0x5a;
        assertThatThrownBy(
                        () ->
                                serializer.deserialize(
                                        IcebergEnumeratorStateSerializer.VERSION_4, bytes))
                .isInstanceOf(IOException.class);
    }

    /** The length of the deflated block and its length prefix at the end of version 3+ bytes. */
    private static int deflatedBlockLength(byte[] state) {
        for (int start = state.length - 4; start >= 0; start--) {
            int length = ByteBuffer.wrap(state, start, 4).getInt();
            if (length == state.length - start - 4) {
                return length + 4;
            }
        }
        throw new AssertionError("No deflated block at the end of the state");
    }
}
