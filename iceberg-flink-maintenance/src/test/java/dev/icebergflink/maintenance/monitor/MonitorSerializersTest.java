package dev.icebergflink.maintenance.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The monitor source's split and enumerator state: frozen bytes, since checkpoints keep them. */
class MonitorSerializersTest {

    @Test
    void theSplitIsTheLastReportedSnapshotId() throws IOException {
        MonitorSplitSerializer serializer = new MonitorSplitSerializer();
        assertThat(HexFormat.of().formatHex(serializer.serialize(new MonitorSplit(0x1234L))))
                .isEqualTo("0000000000001234");
        assertThat(serializer.deserialize(1, HexFormat.of().parseHex("ffffffffffffffff")))
                .isEqualTo(new MonitorSplit(MonitorSplit.NONE));
        assertThatThrownBy(() -> serializer.deserialize(2, new byte[8]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 2");
    }

    @Test
    void theEnumeratorKeepsAnUnassignedSplit() throws IOException {
        MonitorEnumeratorStateSerializer serializer = new MonitorEnumeratorStateSerializer();
        assertThat(
                        HexFormat.of()
                                .formatHex(
                                        serializer.serialize(
                                                new MonitorEnumeratorState(new MonitorSplit(7L)))))
                .isEqualTo("01" + "0000000000000007");
        assertThat(HexFormat.of().formatHex(serializer.serialize(new MonitorEnumeratorState(null))))
                .isEqualTo("00");
        assertThat(serializer.deserialize(1, HexFormat.of().parseHex("010000000000000007")))
                .isEqualTo(new MonitorEnumeratorState(new MonitorSplit(7L)));
        assertThat(serializer.deserialize(1, HexFormat.of().parseHex("00")))
                .isEqualTo(new MonitorEnumeratorState(null));
        assertThatThrownBy(() -> serializer.deserialize(1, HexFormat.of().parseHex("0000")))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("1 bytes left");
    }
}
