package dev.icebergflink.maintenance.orphan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.junit.jupiter.api.Test;

/** The versioned bytes in which orphan detection's items go to the mappers and its marks onward. */
class OrphanSerializersTest {

    private static final HexFormat HEX = HexFormat.of();

    @Test
    void listedAndReferencedMarksHaveTheirVersionOneBytes() throws IOException {
        FileMarkSerializer serializer = new FileMarkSerializer();

        // version 1, body length 9: kind 1 (listed), string length 4, "/a/b"
        assertThat(
                        HEX.formatHex(
                                SimpleVersionedSerialization.writeVersionAndSerialize(
                                        serializer, FileMark.listed("/a/b"))))
                .isEqualTo("00000001" + "00000009" + "01" + "00000004" + hex("/a/b"));
        assertThat(HEX.formatHex(serializer.serialize(FileMark.referenced("s3://b/k"))))
                .isEqualTo("02" + "00000008" + hex("s3://b/k"));
    }

    @Test
    void marksRoundTripAndRejectOtherVersionsKindsAndTrailingBytes() throws IOException {
        FileMarkSerializer serializer = new FileMarkSerializer();
        FileMark mark = FileMark.referenced("hdfs://nn/t/data/é.parquet");
        byte[] bytes = serializer.serialize(mark);

        assertThat(serializer.deserialize(1, bytes)).isEqualTo(mark);
        assertThatThrownBy(() -> serializer.deserialize(2, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 2");
        byte[] badKind = bytes.clone();
        badKind[0] = 7;
        assertThatThrownBy(() -> serializer.deserialize(1, badKind))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("unknown kind 7");
        assertThatThrownBy(() -> serializer.deserialize(1, Arrays.copyOf(bytes, bytes.length + 2)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("2 bytes left over");
    }

    @Test
    void itemsHaveTheirVersionOneBytes() throws IOException {
        OrphanItemSerializer serializer = new OrphanItemSerializer();

        assertThat(
                        HEX.formatHex(
                                serializer.serialize(
                                        new OrphanItem.Listing("/t", "/t/d", true, 258L, false))))
                .isEqualTo(
                        "01"
                                + "00000002"
                                + hex("/t")
                                + "00000004"
                                + hex("/t/d")
                                + "01"
                                + "0000000000000102"
                                + "00");
        assertThat(
                        HEX.formatHex(
                                serializer.serialize(
                                        new OrphanItem.Referenced("/t", List.of("/t/m", "/x")))))
                .isEqualTo(
                        "02"
                                + "00000002"
                                + hex("/t")
                                + "00000002"
                                + "00000004"
                                + hex("/t/m")
                                + "00000002"
                                + hex("/x"));
        assertThat(
                        HEX.formatHex(
                                serializer.serialize(
                                        new OrphanItem.Manifests(
                                                "/t", List.of(new byte[] {9, 8}, new byte[0])))))
                .isEqualTo(
                        "03"
                                + "00000002"
                                + hex("/t")
                                + "00000002"
                                + "00000002"
                                + "0908"
                                + "00000000");
    }

    @Test
    void itemsRoundTripAndRejectOtherVersionsKindsAndTrailingBytes() throws IOException {
        OrphanItemSerializer serializer = new OrphanItemSerializer();
        OrphanItem.Listing listing = new OrphanItem.Listing("/t", "/t/data/p=1", false, 5L, true);
        OrphanItem.Referenced referenced = new OrphanItem.Referenced("/t", List.of("/t/a"));

        assertThat(roundTrip(serializer, listing)).isEqualTo(listing);
        assertThat(roundTrip(serializer, referenced)).isEqualTo(referenced);
        OrphanItem.Manifests manifests =
                (OrphanItem.Manifests)
                        roundTrip(
                                serializer,
                                new OrphanItem.Manifests("/t", List.of(new byte[] {1})));
        assertThat(manifests.root()).isEqualTo("/t");
        assertThat(manifests.manifests()).containsExactly(new byte[] {1});

        byte[] bytes = serializer.serialize(listing);
        assertThatThrownBy(() -> serializer.deserialize(2, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 2");
        byte[] badKind = bytes.clone();
        badKind[0] = 4;
        assertThatThrownBy(() -> serializer.deserialize(1, badKind))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("unknown kind 4");
        assertThatThrownBy(() -> serializer.deserialize(1, Arrays.copyOf(bytes, bytes.length + 1)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("1 bytes left over");
    }

    private static OrphanItem roundTrip(OrphanItemSerializer serializer, OrphanItem item)
            throws IOException {
        return SimpleVersionedSerialization.readVersionAndDeSerialize(
                serializer,
                SimpleVersionedSerialization.writeVersionAndSerialize(serializer, item));
    }

    private static String hex(String text) {
        return HEX.formatHex(text.getBytes(StandardCharsets.UTF_8));
    }
}
