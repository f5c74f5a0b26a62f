package dev.icebergflink.sink.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.sink.compat.TestingStateBackends;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.StateBackend;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.streaming.api.operators.sorted.state.BatchExecutionStateBackend;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ChangelogDeduplicatorTest {

    private static final RowType TYPE =
            RowType.of(
                    new org.apache.flink.table.types.logical.LogicalType[] {
                        new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH)
                    },
                    new String[] {"id", "data"});

    static List<Arguments> backends() {
        return List.of(
                Arguments.of("hashmap", new HashMapStateBackend()),
                Arguments.of("rocksdb", TestingStateBackends.rocksDb()));
    }

    private static RowData row(RowKind kind, long id, String data) {
        GenericRowData row = GenericRowData.of(id, StringData.fromString(data));
        row.setRowKind(kind);
        return row;
    }

    private static KeyedOneInputStreamOperatorTestHarness<EqualityKey, RowData, RowData> harness(
            ChangelogDeduplicator.Mode mode, StateBackend backend) throws Exception {
        EqualityKeySelector keys = new EqualityKeySelector(TYPE, new int[] {0});
        KeyedOneInputStreamOperatorTestHarness<EqualityKey, RowData, RowData> harness =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new ChangelogDeduplicator(TYPE, mode), keys, keys.keyType());
        harness.setStateBackend(backend);
        return harness;
    }

    /** Keys with a value in either state; works on every backend. */
    private static long stateEntries(
            KeyedOneInputStreamOperatorTestHarness<EqualityKey, RowData, RowData> harness) {
        var backend =
                ((ChangelogDeduplicator) harness.getOneInputOperator()).getKeyedStateBackend();
        long count = 0;
        for (String state : List.of("iceberg-last-change", "iceberg-first-retraction")) {
            try (var keys = backend.getKeys(state, VoidNamespace.INSTANCE)) {
                count += keys.count();
            }
        }
        return count;
    }

    private static List<String> render(List<RowData> rows) {
        List<String> out = new ArrayList<>();
        for (RowData row : rows) {
            out.add(row.getRowKind().shortString() + row.getLong(0) + ":" + row.getString(1));
        }
        out.sort(null);
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void upsertKeepsTheLastChangePerKeyAndEmitsBeforeTheBarrier(String name, StateBackend backend)
            throws Exception {
        try (var harness = harness(ChangelogDeduplicator.Mode.UPSERT, backend)) {
            harness.open();
            Random random = new Random(42);
            TreeMap<Long, String> expected = new TreeMap<>();
            int keys = 3000;
            for (int i = 0; i < 20_000; i++) {
                long id = random.nextInt(keys);
                int choice = random.nextInt(10);
                if (choice == 0) {
                    harness.processElement(row(RowKind.DELETE, id, "gone"), i);
                    expected.put(id, "-D" + id + ":gone");
                } else if (choice == 1) {
                    // UPDATE_BEFORE is dropped in upsert mode: it never becomes the last change
                    harness.processElement(row(RowKind.UPDATE_BEFORE, id, "before"), i);
                } else {
                    RowKind kind = choice % 2 == 0 ? RowKind.INSERT : RowKind.UPDATE_AFTER;
                    harness.processElement(row(kind, id, "v" + i), i);
                    expected.put(id, kind.shortString() + id + ":v" + i);
                }
            }
            assertThat(harness.extractOutputValues()).isEmpty();

            harness.prepareSnapshotPreBarrier(1);
            List<String> emitted = render(harness.extractOutputValues());
            List<String> want = new ArrayList<>(expected.values());
            want.sort(null);
            assertThat(emitted).hasSize(expected.size()).isEqualTo(want);
            assertThat(stateEntries(harness)).isZero();
            harness.snapshot(1, 1);

            // the next checkpoint starts from nothing
            harness.getOutput().clear();
            harness.processElement(row(RowKind.INSERT, 1, "again"), 1);
            harness.prepareSnapshotPreBarrier(2);
            assertThat(render(harness.extractOutputValues())).containsExactly("+I1:again");
        }
    }

    /**
     * Bounded memory, structurally: whatever the input, the keyed state holds no entry right after
     * every pre-barrier emission and every snapshot, in both modes and on both backends; each
     * checkpoint emits at most one change per key (two in changelog mode: retraction + insert).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void keyedStateIsEmptyAfterEveryCheckpoint(String name, StateBackend backend) throws Exception {
        for (ChangelogDeduplicator.Mode mode : ChangelogDeduplicator.Mode.values()) {
            try (var harness = harness(mode, backend)) {
                harness.open();
                Random random = new Random(7);
                RowKind[] kinds = RowKind.values();
                long timestamp = 0;
                for (long checkpoint = 1; checkpoint <= 6; checkpoint++) {
                    int keys = 500 + random.nextInt(1500);
                    for (int i = 0; i < 3000; i++) {
                        long id = random.nextInt(keys);
                        RowKind kind = kinds[random.nextInt(kinds.length)];
                        harness.processElement(row(kind, id, "c" + checkpoint), timestamp++);
                    }
                    assertThat(stateEntries(harness))
                            .as("%s: state is filled while the checkpoint runs", mode)
                            .isPositive();
                    harness.getOutput().clear();
                    harness.prepareSnapshotPreBarrier(checkpoint);
                    assertThat(stateEntries(harness))
                            .as("%s: after prepareSnapshotPreBarrier(%d)", mode, checkpoint)
                            .isZero();
                    List<RowData> emitted = harness.extractOutputValues();
                    long distinct = emitted.stream().map(r -> r.getLong(0)).distinct().count();
                    assertThat((long) emitted.size())
                            .isLessThanOrEqualTo(
                                    mode == ChangelogDeduplicator.Mode.UPSERT
                                            ? distinct
                                            : 2 * distinct);
                    harness.snapshot(checkpoint, timestamp);
                    assertThat(stateEntries(harness))
                            .as("%s: after snapshot(%d)", mode, checkpoint)
                            .isZero();
                    harness.notifyOfCompletedCheckpoint(checkpoint);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void changelogEmitsTheCommittedRowsRetractionAndTheLastInsert(String name, StateBackend backend)
            throws Exception {
        try (var harness = harness(ChangelogDeduplicator.Mode.CHANGELOG, backend)) {
            harness.open();
            // key 1: update of a committed row, twice -> delete old, insert newest
            harness.processElement(row(RowKind.UPDATE_BEFORE, 1, "old"), 0);
            harness.processElement(row(RowKind.UPDATE_AFTER, 1, "mid"), 0);
            harness.processElement(row(RowKind.UPDATE_BEFORE, 1, "mid"), 0);
            harness.processElement(row(RowKind.UPDATE_AFTER, 1, "new"), 0);
            // key 2: inserted and retracted within the checkpoint -> nothing
            harness.processElement(row(RowKind.INSERT, 2, "x"), 0);
            harness.processElement(row(RowKind.DELETE, 2, "x"), 0);
            // key 3: plain insert -> insert only, no delete
            harness.processElement(row(RowKind.INSERT, 3, "y"), 0);
            // key 4: delete of a committed row
            harness.processElement(row(RowKind.DELETE, 4, "z"), 0);
            harness.prepareSnapshotPreBarrier(1);
            assertThat(render(harness.extractOutputValues()))
                    .containsExactly("+I3:y", "+U1:new", "-D1:old", "-D4:z");
            assertThat(stateEntries(harness)).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void endOfInputEmitsAndRestoredStateIsEmpty(String name, StateBackend backend)
            throws Exception {
        OperatorSubtaskState snapshot;
        try (var harness = harness(ChangelogDeduplicator.Mode.UPSERT, backend)) {
            harness.open();
            harness.processElement(row(RowKind.INSERT, 7, "a"), 0);
            harness.prepareSnapshotPreBarrier(1);
            snapshot = harness.snapshot(1, 1);
            harness.processElement(row(RowKind.INSERT, 8, "b"), 0);
            harness.endInput();
            assertThat(render(harness.extractOutputValues())).containsExactly("+I7:a", "+I8:b");
        }
        try (var restored = harness(ChangelogDeduplicator.Mode.UPSERT, backend)) {
            restored.initializeState(snapshot);
            restored.open();
            assertThat(stateEntries(restored)).isZero();
            restored.prepareSnapshotPreBarrier(2);
            assertThat(restored.extractOutputValues()).isEmpty();
        }
    }

    /** BATCH execution: the input arrives sorted by key; the last change of each key is kept. */
    @Test
    void batchEmitsTheLastChangeOfEachKeyOfSortedInput() throws Exception {
        try (var harness =
                harness(ChangelogDeduplicator.Mode.UPSERT, new BatchExecutionStateBackend())) {
            harness.open();
            harness.processElement(row(RowKind.INSERT, 1, "a"), 0);
            harness.processElement(row(RowKind.UPDATE_BEFORE, 1, "a"), 0);
            harness.processElement(row(RowKind.UPDATE_AFTER, 1, "b"), 0);
            harness.processElement(row(RowKind.INSERT, 2, "c"), 0);
            harness.processElement(row(RowKind.INSERT, 3, "d"), 0);
            harness.processElement(row(RowKind.DELETE, 3, "d"), 0);
            // key 1 and 2 are complete once the next key arrives; key 3 at the end of input
            assertThat(render(harness.extractOutputValues())).containsExactly("+I2:c", "+U1:b");
            harness.endInput();
            assertThat(render(harness.extractOutputValues()))
                    .containsExactly("+I2:c", "+U1:b", "-D3:d");
        }
    }

    /**
     * With object reuse enabled, Flink may refill an input object after handing it over, so the
     * kept change must be a copy: here one row object carries every change.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("backendsWithBatch")
    void withObjectReuseTheKeptChangeIsACopy(String name, StateBackend backend) throws Exception {
        try (var harness = harness(ChangelogDeduplicator.Mode.CHANGELOG, backend)) {
            harness.getExecutionConfig().enableObjectReuse();
            harness.open();
            GenericRowData reused = new GenericRowData(2);
            long[] ids = {1, 1, 2, 3};
            RowKind[] kinds = {
                RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.INSERT, RowKind.DELETE
            };
            String[] data = {"old", "new", "x", "y"};
            for (int i = 0; i < ids.length; i++) {
                reused.setField(0, ids[i]);
                reused.setField(1, StringData.fromString(data[i]));
                reused.setRowKind(kinds[i]);
                harness.processElement(reused, i);
            }
            reused.setField(1, StringData.fromString("overwritten"));
            if (backend instanceof BatchExecutionStateBackend) {
                harness.endInput();
            } else {
                harness.prepareSnapshotPreBarrier(1);
            }
            assertThat(render(harness.extractOutputValues()))
                    .containsExactly("+I2:x", "+U1:new", "-D1:old", "-D3:y");
        }
    }

    static List<Arguments> backendsWithBatch() {
        List<Arguments> all = new ArrayList<>(backends());
        all.add(Arguments.of("batch", new BatchExecutionStateBackend()));
        return all;
    }
}
