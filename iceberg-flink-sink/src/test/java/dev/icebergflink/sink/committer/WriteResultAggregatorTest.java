package dev.icebergflink.sink.committer;

import static dev.icebergflink.sink.committer.SinkTestTables.dataFile;
import static dev.icebergflink.sink.committer.SinkTestTables.equalityDelete;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.sink.compat.CommittableMessages;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessageTypeInfo;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.WriteResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The per-checkpoint aggregation in Flink's operator test harness, over a real Hadoop table. */
class WriteResultAggregatorTest {

    @TempDir Path dir;

    private static final String RUN = "run-of-this-submission";

    private Table table;
    private CommitterSettings settings;

    @BeforeEach
    void createTable() {
        table = SinkTestTables.create(dir, SinkTestTables.BY_DATA, 2);
        settings = CommitterSettings.builder(SinkTestTables.loader(table)).uidSuffix("t").build();
    }

    private OneInputStreamOperatorTestHarness<
                    CommittableMessage<WriteResult>, CommittableMessage<IcebergCommittable>>
            harness(OperatorSubtaskState restoreFrom) throws Exception {
        OneInputStreamOperatorTestHarness<
                        CommittableMessage<WriteResult>, CommittableMessage<IcebergCommittable>>
                harness =
                        new OneInputStreamOperatorTestHarness<>(
                                new WriteResultAggregator(settings, RUN));
        // the output type the commit topology declares; without it the harness copies the
        // committables with Kryo, which cannot rebuild their immutable lists
        harness.setup(
                CommittableMessageTypeInfo.of(IcebergCommittableSerializer::new)
                        .createSerializer(new SerializerConfigImpl()));
        if (restoreFrom == null) {
            harness.initializeEmptyState();
        } else {
            harness.initializeState(restoreFrom);
        }
        harness.open();
        return harness;
    }

    /** What one writer subtask emits for a checkpoint: a summary, then its results. */
    private static void emit(
            OneInputStreamOperatorTestHarness<CommittableMessage<WriteResult>, ?> harness,
            int subtask,
            long checkpoint,
            WriteResult... results)
            throws Exception {
        harness.processElement(
                CommittableMessages.summary(subtask, 2, checkpoint, results.length, 0), 0L);
        for (WriteResult result : results) {
            harness.processElement(new CommittableWithLineage<>(result, checkpoint, subtask), 0L);
        }
    }

    private static WriteResult data(DataFile... files) {
        return WriteResult.builder().addDataFiles(files).build();
    }

    private static List<IcebergCommittable> committables(
            OneInputStreamOperatorTestHarness<?, CommittableMessage<IcebergCommittable>> harness) {
        List<CommittableMessage<IcebergCommittable>> out = harness.extractOutputValues();
        List<IcebergCommittable> committables = new ArrayList<>();
        for (int i = 0; i < out.size(); i += 2) {
            CommittableSummary<?> summary = (CommittableSummary<?>) out.get(i);
            CommittableWithLineage<IcebergCommittable> lineage =
                    (CommittableWithLineage<IcebergCommittable>) out.get(i + 1);
            assertThat(summary.getNumberOfCommittables()).isEqualTo(1);
            assertThat(summary.getNumberOfSubtasks()).isEqualTo(1);
            assertThat(summary.getSubtaskId()).isZero();
            assertThat(lineage.getSubtaskId()).isZero();
            assertThat(CommittableMessages.checkpointIdOrEoi(lineage))
                    .isEqualTo(CommittableMessages.checkpointIdOrEoi(summary));
            committables.add(lineage.getCommittable());
        }
        return committables;
    }

    private List<String> dataFileNames(IcebergCommittable committable) {
        List<String> names = new ArrayList<>();
        for (ManifestFile manifest : committable.dataManifests()) {
            for (DataFile file : TemporaryManifests.readDataFiles(table, manifest)) {
                String path = file.location();
                names.add(path.substring(path.lastIndexOf('/') + 1).replace(".parquet", ""));
            }
        }
        return names.stream().sorted().collect(Collectors.toList());
    }

    @Test
    void emitsOneCommittableWithManifestsPerCheckpointBeforeTheBarrier() throws Exception {
        try (var harness = harness(null)) {
            emit(
                    harness,
                    0,
                    1,
                    data(dataFile(table, "s0-a", "a", 1), dataFile(table, "s0-b", "b", 1)));
            emit(
                    harness,
                    1,
                    1,
                    WriteResult.builder()
                            .addDataFiles(dataFile(table, "s1-a", "a", 2))
                            .addDeleteFiles(equalityDelete(table, "s1", "a"))
                            .build());
            assertThat(harness.extractOutputValues()).isEmpty();
            harness.prepareSnapshotPreBarrier(1);

            List<IcebergCommittable> committables = committables(harness);
            assertThat(committables).hasSize(1);
            IcebergCommittable c = committables.get(0);
            assertThat(c.checkpointId()).isEqualTo(1);
            assertThat(c.endOfInput()).isFalse();
            assertThat(c.jobId()).hasSize(32);
            assertThat(c.operatorId()).hasSize(32);
            assertThat(c.dataManifests()).hasSize(1);
            assertThat(c.deleteManifests()).hasSize(1);
            assertThat(dataFileNames(c)).containsExactly("s0-a", "s0-b", "s1-a");
            assertThat(TemporaryManifests.readDeleteFiles(table, c.deleteManifests().get(0)))
                    .hasSize(1);

            // an empty checkpoint still yields one (empty) committable
            emit(harness, 0, 2);
            emit(harness, 1, 2);
            harness.prepareSnapshotPreBarrier(2);
            IcebergCommittable empty = committables(harness).get(1);
            assertThat(empty.checkpointId()).isEqualTo(2);
            assertThat(empty.isEmpty()).isTrue();
        }
    }

    @Test
    void keepsNotYetEmittedResultsInItsStateAcrossARestore() throws Exception {
        OperatorSubtaskState state;
        try (var harness = harness(null)) {
            emit(harness, 0, 1, data(dataFile(table, "one", "a", 1)));
            emit(harness, 1, 1);
            harness.prepareSnapshotPreBarrier(1);
            // results of checkpoint 2 arrive, then the state of checkpoint 1 is taken
            emit(harness, 0, 2, data(dataFile(table, "two", "a", 1)));
            state = harness.snapshot(1, 1L);
        }
        try (var restored = harness(state)) {
            emit(restored, 1, 2, data(dataFile(table, "two-b", "b", 1)));
            restored.prepareSnapshotPreBarrier(2);
            List<IcebergCommittable> committables = committables(restored);
            assertThat(committables).hasSize(1);
            assertThat(committables.get(0).checkpointId()).isEqualTo(2);
            assertThat(dataFileNames(committables.get(0))).containsExactly("two", "two-b");
        }
    }

    @Test
    void endOfInputEmitsOneCommittableMarkedAsSuch() throws Exception {
        try (var harness = harness(null)) {
            emit(harness, 0, 3, data(dataFile(table, "c3", "a", 1)));
            emit(harness, 1, 3);
            harness.prepareSnapshotPreBarrier(3);
            // Flink 2.1 gives the final results the last checkpoint id + 1
            emit(harness, 0, 4, data(dataFile(table, "end0", "a", 1)));
            emit(harness, 1, 4, data(dataFile(table, "end1", "b", 1)));
            harness.endInput();
            List<IcebergCommittable> committables = committables(harness);
            assertThat(committables).hasSize(2);
            IcebergCommittable end = committables.get(1);
            assertThat(end.endOfInput()).isTrue();
            assertThat(end.checkpointId()).isEqualTo(4);
            assertThat(dataFileNames(end)).containsExactly("end0", "end1");
            assertThat(CommittableMessages.checkpointIdOrEoi(harness.extractOutputValues().get(3)))
                    .isEqualTo(4);
        }
    }

    @Test
    void endOfInputWithLongMaxValueNeverRecordsLongMaxValue() throws Exception {
        try (var harness = harness(null)) {
            emit(harness, 0, 5, data(dataFile(table, "c5", "a", 1)));
            harness.prepareSnapshotPreBarrier(5);
            emit(harness, 0, CommittableMessage.EOI, data(dataFile(table, "end", "a", 1)));
            harness.endInput();
            List<IcebergCommittable> committables = committables(harness);
            IcebergCommittable end = committables.get(1);
            assertThat(end.endOfInput()).isTrue();
            assertThat(end.checkpointId()).isEqualTo(6);
            // Flink's own message keeps EOI so the committer operator commits it at the end
            assertThat(CommittableMessages.checkpointIdOrEoi(harness.extractOutputValues().get(3)))
                    .isEqualTo(CommittableMessage.EOI);
        }
    }

    @Test
    void aBatchJobWithoutCheckpointsGetsCheckpointIdOne() throws Exception {
        try (var harness = harness(null)) {
            emit(harness, 0, 1, data(dataFile(table, "b0", "a", 1)));
            emit(harness, 1, 1, data(dataFile(table, "b1", "a", 1)));
            harness.endInput();
            IcebergCommittable end = committables(harness).get(0);
            assertThat(end.endOfInput()).isTrue();
            assertThat(end.checkpointId()).isEqualTo(1);
            assertThat(end.dataManifests()).hasSize(1);
        }
    }

    @Test
    void resultsLabelledWithAnEmittedCheckpointGoIntoTheNextCommittable() throws Exception {
        try (var harness = harness(null)) {
            emit(harness, 0, 3, data(dataFile(table, "three", "a", 1)));
            harness.prepareSnapshotPreBarrier(3);
            emit(harness, 1, 3, data(dataFile(table, "late", "a", 1)));
            emit(harness, 1, 4, data(dataFile(table, "four", "a", 1)));
            harness.prepareSnapshotPreBarrier(4);
            List<IcebergCommittable> committables = committables(harness);
            assertThat(committables)
                    .extracting(IcebergCommittable::checkpointId)
                    .containsExactly(3L, 4L);
            assertThat(dataFileNames(committables.get(0))).containsExactly("three");
            assertThat(dataFileNames(committables.get(1))).containsExactly("four", "late");
        }
    }

    @Test
    void finalResultsOfWritersRestoredWithoutStateEndTheInputOfARestoredJob() throws Exception {
        OperatorSubtaskState state;
        try (var harness = harness(null)) {
            for (long c = 1; c <= 5; c++) {
                emit(harness, 0, c);
                harness.prepareSnapshotPreBarrier(c);
            }
            state = harness.snapshot(5, 5L);
        }
        try (var restored = harness(state)) {
            // a writer task without state of its own labels its final results 0 + 1, another one
            // that restored state labels them 5 + 1
            emit(restored, 0, 1, data(dataFile(table, "end0", "a", 1)));
            emit(restored, 1, 6, data(dataFile(table, "end1", "b", 1)));
            restored.endInput();
            List<IcebergCommittable> committables = committables(restored);
            assertThat(committables).hasSize(1);
            IcebergCommittable end = committables.get(0);
            assertThat(end.endOfInput()).isTrue();
            assertThat(end.checkpointId()).isEqualTo(6);
            assertThat(dataFileNames(end)).containsExactly("end0", "end1");
        }
    }

    /**
     * The report "5 snapshots, 4 distinct flink.max-committed-checkpoint-id values" of a bounded
     * streaming append: the last regular checkpoint C and the end of input (Flink's id C + 1) are
     * two committables with different data; the end-of-input commit records max = C (the last
     * regular checkpoint, so that a later job under a fixed job id is not blocked) plus
     * flink.end-of-input-checkpoint-id = C + 1. No data is recorded twice and a replay of either
     * commits nothing. The empty-commit path never fires for the end of input.
     */
    @Test
    void lastCheckpointAndEndOfInputShareTheMaxIdButNeverTheData() throws Exception {
        table.updateProperties().set(IcebergCommitter.MAX_CONTINUOUS_EMPTY_COMMITS, "2").commit();
        List<IcebergCommittable> committables;
        try (var harness = harness(null)) {
            emit(harness, 0, 1);
            harness.prepareSnapshotPreBarrier(1);
            emit(harness, 0, 2);
            harness.prepareSnapshotPreBarrier(2);
            emit(harness, 0, 3, data(dataFile(table, "c3", "a", 1)));
            harness.prepareSnapshotPreBarrier(3);
            emit(harness, 0, 4, data(dataFile(table, "end", "a", 1)));
            harness.endInput();
            committables = committables(harness);
        }
        assertThat(committables)
                .extracting(IcebergCommittable::checkpointId)
                .containsExactly(1L, 2L, 3L, 4L);
        IcebergCommittableSerializer serializer = new IcebergCommittableSerializer();
        List<IcebergCommittable> replay = new ArrayList<>();
        for (IcebergCommittable c : committables) {
            replay.add(serializer.deserialize(serializer.getVersion(), serializer.serialize(c)));
        }
        try (IcebergCommitter committer =
                new IcebergCommitter(
                        settings,
                        org.apache.flink.metrics.groups.UnregisteredMetricsGroup
                                .createOperatorMetricGroup())) {
            for (IcebergCommittable c : committables) {
                committer.commit(List.of(new TestingCommitRequest(c)));
            }
            // a replay of everything (restore from an old checkpoint) is skipped entirely
            List<TestingCommitRequest> again = new ArrayList<>();
            replay.forEach(c -> again.add(new TestingCommitRequest(c)));
            committer.commit(new ArrayList<>(again));
            assertThat(again)
                    .extracting(TestingCommitRequest::outcome)
                    .containsOnly(TestingCommitRequest.Outcome.ALREADY_COMMITTED);
        }
        table.refresh();
        List<String> recorded =
                SinkTestTables.history(table, "main").stream()
                        .map(
                                s ->
                                        s.summary()
                                                        .get(
                                                                CommitSummaryKeys
                                                                        .MAX_COMMITTED_CHECKPOINT_ID)
                                                + "/"
                                                + s.summary()
                                                        .get(
                                                                CommitSummaryKeys
                                                                        .END_OF_INPUT_CHECKPOINT_ID)
                                                + "/"
                                                + s.summary().get("added-data-files"))
                        .collect(Collectors.toList());
        // checkpoint 2 is the second empty one in a row: an empty snapshot records the progress;
        // then 3 with its file, then the end of input with max 3 (again) and its own id 4
        assertThat(recorded).containsExactly("2/null/null", "3/null/1", "3/4/1");
        assertThat(SinkTestTables.liveDataFiles(table, "main"))
                .containsExactlyInAnyOrder("c3", "end");
    }
}
