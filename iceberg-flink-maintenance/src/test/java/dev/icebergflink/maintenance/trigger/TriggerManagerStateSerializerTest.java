package dev.icebergflink.maintenance.trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.maintenance.api.TableChange;
import java.io.IOException;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The trigger manager's checkpointed state: its bytes are frozen, since savepoints keep them. */
class TriggerManagerStateSerializerTest {

    /**
     * Version 1 of the state below: last trigger millis 1000, last trigger timestamp 1001, run in
     * flight task 1 at 1001, two tasks (last run 500 with 3 data files of 30 bytes, 1 position
     * delete file of 2 rows, 1 equality delete file of 4 rows and 2 commits; last run 1000 with no
     * change).
     */
    private static final String GOLDEN_V1 =
            "00000000000003e8" // last trigger millis
                    + "00000000000003e9" // last trigger timestamp
                    + "00000001" // in-flight task
                    + "00000000000003e9" // in-flight timestamp
                    + "00000002" // tasks
                    + "00000000000001f4" // task 0: last run
                    + "00000003"
                    + "000000000000001e" // data files, bytes
                    + "00000001"
                    + "0000000000000002" // position delete files, rows
                    + "00000001"
                    + "0000000000000004" // equality delete files, rows
                    + "00000002" // commits
                    + "00000000000003e8" // task 1: last run
                    + "00000000"
                    + "0000000000000000"
                    + "00000000"
                    + "0000000000000000"
                    + "00000000"
                    + "0000000000000000"
                    + "00000000";

    private static TriggerManagerState state() {
        TableChange change =
                TableChange.builder()
                        .dataFileCount(3)
                        .dataFileSizeInBytes(30)
                        .posDeleteFileCount(1)
                        .posDeleteRecordCount(2)
                        .eqDeleteFileCount(1)
                        .eqDeleteRecordCount(4)
                        .commitCount(2)
                        .build();
        TriggerManagerState state =
                new TriggerManagerState(
                        List.of(change, TableChange.empty()),
                        List.of(500L, 1000L),
                        Long.MIN_VALUE,
                        0L,
                        TriggerManagerState.NONE,
                        0L);
        state.triggered(1, 1001L, 1000L);
        state.accumulate(TableChange.empty());
        return state;
    }

    @Test
    void writesTheFrozenVersion1Layout() throws IOException {
        assertThat(HexFormat.of().formatHex(new TriggerManagerStateSerializer().serialize(state())))
                .isEqualTo(GOLDEN_V1);
    }

    @Test
    void readsTheFrozenVersion1Bytes() throws IOException {
        TriggerManagerState read =
                new TriggerManagerStateSerializer()
                        .deserialize(1, HexFormat.of().parseHex(GOLDEN_V1));

        assertThat(read.taskCount()).isEqualTo(2);
        assertThat(read.lastTriggerMillis()).isEqualTo(1000L);
        assertThat(read.lastTriggerTimestamp()).isEqualTo(1001L);
        assertThat(read.inFlightTask()).isEqualTo(1);
        assertThat(read.inFlightTimestamp()).isEqualTo(1001L);
        assertThat(read.lastRunMillis(0)).isEqualTo(500L);
        assertThat(read.changes(0)).isEqualTo(state().changes(0));
        assertThat(read.changes(1)).isEqualTo(TableChange.empty());
    }

    @Test
    void otherVersionsAndTrailingBytesFail() {
        TriggerManagerStateSerializer serializer = new TriggerManagerStateSerializer();
        byte[] golden = HexFormat.of().parseHex(GOLDEN_V1);
        assertThatThrownBy(() -> serializer.deserialize(2, golden))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 2");
        assertThatThrownBy(
                        () ->
                                serializer.deserialize(
                                        1, java.util.Arrays.copyOf(golden, golden.length + 1)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("left over");
    }

    @Test
    void aRestoredStateFitsAChangedTopology() {
        TriggerManagerState state = state();
        state.resize(3, 2000L);
        assertThat(state.taskCount()).isEqualTo(3);
        assertThat(state.lastRunMillis(2)).isEqualTo(2000L);
        assertThat(state.inFlightTask()).isEqualTo(1);

        state.resize(1, 3000L);
        assertThat(state.taskCount()).isEqualTo(1);
        assertThat(state.inFlightTask())
                .as("the run of a task no longer in the topology is not in flight")
                .isEqualTo(TriggerManagerState.NONE);
    }
}
