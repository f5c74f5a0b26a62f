package dev.icebergflink.sink.committer;

import static dev.icebergflink.sink.committer.SinkTestTables.dataFile;
import static dev.icebergflink.sink.committer.SinkTestTables.equalityDelete;
import static dev.icebergflink.sink.committer.SinkTestTables.history;
import static dev.icebergflink.sink.committer.SinkTestTables.liveDataFiles;
import static dev.icebergflink.sink.committer.SinkTestTables.positionDelete;
import static dev.icebergflink.sink.committer.TestingCommitRequest.Outcome.ALREADY_COMMITTED;
import static dev.icebergflink.sink.committer.TestingCommitRequest.Outcome.COMMITTED;
import static dev.icebergflink.sink.committer.TestingCommitRequest.Outcome.FAILED_UNKNOWN;
import static dev.icebergflink.sink.committer.TestingCommitRequest.Outcome.RETRY_LATER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.TableLoader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.flink.api.connector.sink2.Committer.CommitRequest;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.WriteResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The committer against real Hadoop tables, with hand-made files and commit requests. */
class IcebergCommitterTest {

    private static final String JOB = "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1";
    private static final String JOB2 = "b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2";
    private static final String OP = "0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f";

    /** The run id of the first submission of a job. */
    private static final String RUN = "run-1";

    /** The run id of a later submission (a restore from a savepoint, or a fresh start). */
    private static final String RUN2 = "run-2";

    @TempDir Path dir;

    @AfterEach
    void clearHooks() {
        CommitterTestHooks.clear();
    }

    private final CommittableFactory factory = new CommittableFactory();
    private final IcebergCommittableSerializer serializer = new IcebergCommittableSerializer();

    private Table table;

    private Table table(PartitionSpec spec, int formatVersion) {
        table = SinkTestTables.create(dir, spec, formatVersion);
        return table;
    }

    private IcebergCommitter committer(CommitMode mode) {
        return committer(CommitterSettings.builder(SinkTestTables.loader(table)).mode(mode));
    }

    private IcebergCommitter committer(CommitterSettings.Builder settings) {
        return new IcebergCommitter(
                settings.build(), UnregisteredMetricsGroup.createOperatorMetricGroup());
    }

    private IcebergCommittable committable(
            String job, long checkpoint, boolean endOfInput, WriteResult... results) {
        return committable(new CommitOwner(job, OP, RUN), checkpoint, endOfInput, results);
    }

    private IcebergCommittable committable(
            CommitOwner owner, long checkpoint, boolean endOfInput, WriteResult... results) {
        return factory.create(() -> table, owner, checkpoint, endOfInput, List.of(results));
    }

    /** A committable of job {@code JOB} from state written before run ids existed. */
    private IcebergCommittable fromOlderSink(long checkpoint, String file) {
        return committable(
                new CommitOwner(JOB, OP, ""),
                checkpoint,
                false,
                data(dataFile(table, file, null, 1)));
    }

    /** A committable of a later submission of job {@code JOB} (same job id, new run id). */
    private IcebergCommittable laterRun(long checkpoint, DataFile... files) {
        return committable(new CommitOwner(JOB, OP, RUN2), checkpoint, false, data(files));
    }

    private IcebergCommittable committable(long checkpoint, DataFile... files) {
        return committable(JOB, checkpoint, false, data(files));
    }

    private static WriteResult data(DataFile... files) {
        return WriteResult.builder().addDataFiles(files).build();
    }

    /** A copy through the state serializer, as the committable comes back after a restore. */
    private IcebergCommittable restored(IcebergCommittable committable) throws IOException {
        return serializer.deserialize(serializer.getVersion(), serializer.serialize(committable));
    }

    private static List<TestingCommitRequest> commit(
            IcebergCommitter committer, IcebergCommittable... committables) {
        List<TestingCommitRequest> requests =
                Arrays.stream(committables)
                        .map(TestingCommitRequest::new)
                        .collect(Collectors.toList());
        retry(committer, requests);
        return requests;
    }

    private static void retry(IcebergCommitter committer, List<TestingCommitRequest> requests) {
        requests.forEach(TestingCommitRequest::startAttempt);
        List<CommitRequest<IcebergCommittable>> asFlink = new ArrayList<>(requests);
        committer.commit(asFlink);
    }

    private static List<TestingCommitRequest.Outcome> outcomes(List<TestingCommitRequest> rs) {
        return rs.stream().map(TestingCommitRequest::outcome).collect(Collectors.toList());
    }

    private boolean exists(ManifestFile manifest) {
        return table.io().newInputFile(manifest.path()).exists();
    }

    @Test
    void appendMakesOneSnapshotPerCheckpointWithTheExactlyOnceKeys() throws Exception {
        table(SinkTestTables.BY_DATA, 2);
        IcebergCommittable first =
                committable(
                        1,
                        dataFile(table, "a1", "a", 3),
                        dataFile(table, "b1", "b", 2),
                        dataFile(table, "a2", "a", 1));
        IcebergCommittable second = committable(2, dataFile(table, "c1", "c", 5));
        assertThat(first.dataManifests()).hasSize(1);
        assertThat(first.dataManifests().get(0).path())
                .contains("/table/metadata/flink-" + JOB + "-" + OP + "-1-");

        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            // handed over out of order: committed in ascending order anyway
            assertThat(outcomes(commit(committer, second, first)))
                    .containsExactly(COMMITTED, COMMITTED);
        }

        List<Snapshot> snapshots = history(table, "main");
        assertThat(snapshots).hasSize(2);
        assertThat(snapshots.get(0).operation()).isEqualTo(DataOperations.APPEND);
        assertThat(snapshots.get(0).summary())
                .containsEntry(CommitSummaryKeys.JOB_ID, JOB)
                .containsEntry(CommitSummaryKeys.OPERATOR_ID, OP)
                .containsEntry(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID, "1")
                .containsEntry(SnapshotSummary.ADDED_FILES_PROP, "3")
                .containsEntry(SnapshotSummary.ADDED_RECORDS_PROP, "6")
                .doesNotContainKey(CommitSummaryKeys.END_OF_INPUT_CHECKPOINT_ID);
        assertThat(snapshots.get(1).summary())
                .containsEntry(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID, "2")
                .containsEntry(SnapshotSummary.ADDED_FILES_PROP, "1");
        assertThat(liveDataFiles(table, "main")).containsExactlyInAnyOrder("a1", "a2", "b1", "c1");
        // temporary manifests are gone after the commit
        assertThat(first.allManifests()).noneMatch(this::exists);
        assertThat(second.allManifests()).noneMatch(this::exists);
    }

    @Test
    void writesOneManifestPerPartitionSpec() {
        table(SinkTestTables.BY_DATA, 2);
        DataFile oldSpecFile = dataFile(table, "old", "a", 1);
        table.updateSpec().removeField("data").commit();
        DataFile newSpecFile = dataFile(table, "new", null, 1);
        assertThat(newSpecFile.specId()).isNotEqualTo(oldSpecFile.specId());
        IcebergCommittable c = committable(1, oldSpecFile, newSpecFile);
        assertThat(c.dataManifests())
                .extracting(ManifestFile::partitionSpecId)
                .containsExactlyInAnyOrder(oldSpecFile.specId(), newSpecFile.specId());
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            assertThat(outcomes(commit(committer, c))).containsExactly(COMMITTED);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        assertThat(liveDataFiles(table, "main")).containsExactlyInAnyOrder("old", "new");
    }

    @Test
    void skipsCheckpointsTheBranchAlreadyHoldsAndDeletesTheirManifests() throws Exception {
        table(PartitionSpec.unpartitioned(), 2);
        IcebergCommittable one = committable(1, dataFile(table, "f1", null, 1));
        IcebergCommittable two = committable(2, dataFile(table, "f2", null, 1));
        IcebergCommittable twoAgain = restored(two);
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            commit(committer, one, two);
        }
        // a restored committer gets checkpoint 2 again (its state predates the commit) and 3
        IcebergCommittable three = committable(3, dataFile(table, "f3", null, 1));
        try (IcebergCommitter restarted = committer(CommitMode.APPEND)) {
            assertThat(outcomes(commit(restarted, twoAgain, three)))
                    .containsExactly(ALREADY_COMMITTED, COMMITTED);
        }
        assertThat(history(table, "main")).hasSize(3);
        assertThat(liveDataFiles(table, "main")).containsExactlyInAnyOrder("f1", "f2", "f3");
    }

    @Test
    void skipDeletesTheManifestsOfTheSkippedCheckpoint() throws Exception {
        table(PartitionSpec.unpartitioned(), 2);
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            commit(committer, committable(5, dataFile(table, "f5", null, 1)));
            // a replay wrote new manifests for an already committed checkpoint
            IcebergCommittable replay = committable(4, dataFile(table, "f4", null, 1));
            assertThat(replay.allManifests()).allMatch(this::exists);
            assertThat(outcomes(commit(committer, replay))).containsExactly(ALREADY_COMMITTED);
            assertThat(replay.allManifests()).noneMatch(this::exists);
        }
        assertThat(liveDataFiles(table, "main")).containsExactly("f5");
    }

    @Test
    void commitsSeveralPendingCheckpointsInAscendingOrderOneSnapshotEach() throws Exception {
        table(SinkTestTables.BY_DATA, 2);
        List<IcebergCommittable> pending = new ArrayList<>();
        for (long c = 7; c >= 3; c--) {
            pending.add(committable(c, dataFile(table, "f" + c, "p" + (c % 2), c)));
        }
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            assertThat(outcomes(commit(committer, pending.toArray(new IcebergCommittable[0]))))
                    .containsOnly(COMMITTED);
        }
        assertThat(history(table, "main"))
                .extracting(s -> s.summary().get(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID))
                .containsExactly("3", "4", "5", "6", "7");
        assertThat(history(table, "main"))
                .extracting(s -> s.summary().get(SnapshotSummary.ADDED_RECORDS_PROP))
                .containsExactly("3", "4", "5", "6", "7");
    }

    @Test
    void aLostCommitResponseIsNotCommittedTwice() throws Exception {
        table(PartitionSpec.unpartitioned(), 2);
        IcebergCommittable one = committable(1, dataFile(table, "f1", null, 1));
        IcebergCommittable two = committable(2, dataFile(table, "f2", null, 1));
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            AtomicBoolean loseResponse = new AtomicBoolean(true);
            CommitterTestHooks.install(
                    c -> {},
                    c -> {
                        if (c.checkpointId() == 1 && loseResponse.getAndSet(false)) {
                            throw new RuntimeException("connection reset after commit");
                        }
                    });
            List<TestingCommitRequest> requests = commit(committer, one, two);
            assertThat(outcomes(requests)).containsExactly(RETRY_LATER, RETRY_LATER);
            assertThat(committer.metrics().failedCommits()).isEqualTo(1);
            assertThat(history(table, "main")).hasSize(1);

            // Flink retries both: the first is recognised as committed, the second committed
            retry(committer, requests);
            assertThat(outcomes(requests)).containsExactly(ALREADY_COMMITTED, COMMITTED);
        }
        // and again after a failover, from the committer's state
        try (IcebergCommitter restarted = committer(CommitMode.APPEND)) {
            assertThat(outcomes(commit(restarted, restored(one), restored(two))))
                    .containsExactly(ALREADY_COMMITTED, ALREADY_COMMITTED);
        }
        assertThat(history(table, "main")).hasSize(2);
        assertThat(liveDataFiles(table, "main")).containsExactlyInAnyOrder("f1", "f2");
        assertThat(one.allManifests()).noneMatch(this::exists);
    }

    @Test
    void restoringAnOlderSavepointSkipsCommittedAndCommitsNewerCheckpoints() throws Exception {
        table(PartitionSpec.unpartitioned(), 2);
        IcebergCommittable three = committable(3, dataFile(table, "f3", null, 1));
        IcebergCommittable savepointThree = restored(three);
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            for (long c = 1; c <= 5; c++) {
                IcebergCommittable next =
                        c == 3 ? three : committable(c, dataFile(table, "f" + c, null, 1));
                commit(committer, next);
            }
        }
        // restored from a savepoint of checkpoint 3 (pending committable 3 in the state) under
        // job JOB2: the old job's committable is skipped, the new job's checkpoints are committed
        try (IcebergCommitter restarted = committer(CommitMode.APPEND)) {
            IcebergCommittable newer =
                    committable(JOB2, 4, false, data(dataFile(table, "g4", null, 1)));
            assertThat(outcomes(commit(restarted, savepointThree, newer)))
                    .containsExactly(ALREADY_COMMITTED, COMMITTED);
        }
        // a failover inside the first submission (same run) replays checkpoint 5: skipped
        try (IcebergCommitter restarted = committer(CommitMode.APPEND)) {
            IcebergCommittable six = committable(6, dataFile(table, "f6", null, 1));
            IcebergCommittable five = committable(5, dataFile(table, "dup5", null, 1));
            assertThat(outcomes(commit(restarted, five, six)))
                    .containsExactly(ALREADY_COMMITTED, COMMITTED);
        }
        assertThat(liveDataFiles(table, "main"))
                .containsExactlyInAnyOrder("f1", "f2", "f3", "f4", "f5", "g4", "f6");
    }

    @Test
    void aConcurrentCommitByAnotherWriterIsRetriedAndNothingIsLost() throws Exception {
        table(SinkTestTables.BY_DATA, 2);
        Table other = SinkTestTables.loader(table).loadTable();
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            // another writer commits between the committer's refresh and its commit
            CommitterTestHooks.install(
                    c -> {
                        other.refresh();
                        other.newFastAppend()
                                .appendFile(dataFile(other, "other" + c.checkpointId(), "x", 1))
                                .commit();
                    },
                    c -> {});
            assertThat(
                            outcomes(
                                    commit(
                                            committer,
                                            committable(1, dataFile(table, "f1", "a", 1)),
                                            committable(2, dataFile(table, "f2", "b", 1)))))
                    .containsExactly(COMMITTED, COMMITTED);
            assertThat(committer.metrics().failedCommits()).isZero();
        }
        assertThat(liveDataFiles(table, "main"))
                .containsExactlyInAnyOrder("f1", "f2", "other1", "other2");
        assertThat(history(table, "main")).hasSize(4);
        // the dedup still finds this job's newest commit below the other writer's snapshot
        try (IcebergCommitter restarted = committer(CommitMode.APPEND)) {
            other.newFastAppend().appendFile(dataFile(other, "other3", "x", 1)).commit();
            assertThat(outcomes(commit(restarted, committable(2, dataFile(table, "dup2", "b", 1)))))
                    .containsExactly(ALREADY_COMMITTED);
        }
    }

    @Test
    void dynamicOverwriteReplacesTheTouchedPartitions() throws Exception {
        table(SinkTestTables.BY_DATA, 2);
        table.newFastAppend()
                .appendFile(dataFile(table, "oldA", "a", 1))
                .appendFile(dataFile(table, "oldB", "b", 1))
                .commit();
        try (IcebergCommitter committer = committer(CommitMode.DYNAMIC_OVERWRITE)) {
            assertThat(outcomes(commit(committer, committable(1, dataFile(table, "newA", "a", 2)))))
                    .containsExactly(COMMITTED);
            // an empty checkpoint replaces nothing
            assertThat(outcomes(commit(committer, committable(JOB, 2, false))))
                    .containsExactly(COMMITTED);
        }
        assertThat(liveDataFiles(table, "main")).containsExactlyInAnyOrder("newA", "oldB");
        List<Snapshot> snapshots = history(table, "main");
        assertThat(snapshots).hasSize(2);
        assertThat(snapshots.get(1).operation()).isEqualTo(DataOperations.OVERWRITE);
        assertThat(snapshots.get(1).summary())
                .containsEntry(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID, "1");
    }

    @Test
    void dynamicOverwriteOfAnUnpartitionedTableReplacesEverything() throws Exception {
        table(PartitionSpec.unpartitioned(), 2);
        table.newFastAppend().appendFile(dataFile(table, "old", null, 1)).commit();
        try (IcebergCommitter committer = committer(CommitMode.DYNAMIC_OVERWRITE)) {
            commit(committer, committable(1, dataFile(table, "new", null, 2)));
        }
        assertThat(liveDataFiles(table, "main")).containsExactly("new");
    }

    @Test
    void staticOverwriteReplacesThePartitionAndEmptiesItOnceWithoutFiles() throws Exception {
        table(SinkTestTables.BY_DATA, 2);
        table.newFastAppend()
                .appendFile(dataFile(table, "oldA", "a", 1))
                .appendFile(dataFile(table, "oldB", "b", 1))
                .commit();
        CommitterSettings.Builder settings =
                CommitterSettings.builder(SinkTestTables.loader(table))
                        .staticOverwrite(Expressions.equal("data", "a"));
        try (IcebergCommitter committer = committer(settings)) {
            assertThat(outcomes(commit(committer, committable(JOB, 1, false))))
                    .containsExactly(COMMITTED);
            assertThat(liveDataFiles(table, "main")).containsExactly("oldB");
            assertThat(history(table, "main")).hasSize(2);
            assertThat(history(table, "main").get(1).operation()).isEqualTo(DataOperations.DELETE);

            // later empty checkpoints leave the partition alone
            assertThat(outcomes(commit(committer, committable(JOB, 2, false))))
                    .containsExactly(COMMITTED);
            assertThat(history(table, "main")).hasSize(2);

            commit(committer, committable(3, dataFile(table, "newA", "a", 3)));
        }
        assertThat(liveDataFiles(table, "main")).containsExactlyInAnyOrder("newA", "oldB");
        assertThat(history(table, "main").get(2).summary())
                .containsEntry(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID, "3");
    }

    @Test
    void staticOverwriteOfABoundedJobWithNoRowsEmptiesThePartitionOnce() throws Exception {
        table(SinkTestTables.BY_DATA, 2);
        table.newFastAppend()
                .appendFile(dataFile(table, "oldA", "a", 1))
                .appendFile(dataFile(table, "oldB", "b", 1))
                .commit();
        CommitterSettings.Builder settings =
                CommitterSettings.builder(SinkTestTables.loader(table))
                        .staticOverwrite(Expressions.equal("data", "a"));
        IcebergCommittable endOfInput = committable(JOB, 1, true);
        try (IcebergCommitter committer = committer(settings)) {
            assertThat(outcomes(commit(committer, endOfInput))).containsExactly(COMMITTED);
        }
        assertThat(liveDataFiles(table, "main")).containsExactly("oldB");
        // rows the user adds afterwards are not removed by a repeat of the same commit
        table.newFastAppend().appendFile(dataFile(table, "laterA", "a", 1)).commit();
        try (IcebergCommitter committer = committer(settings)) {
            assertThat(outcomes(commit(committer, restored(endOfInput))))
                    .containsExactly(ALREADY_COMMITTED);
        }
        assertThat(liveDataFiles(table, "main")).containsExactlyInAnyOrder("laterA", "oldB");
    }

    @Test
    void rowDeltaCommitsDataAndDeleteFilesPerCheckpoint() throws Exception {
        table(SinkTestTables.BY_DATA, 2);
        DataFile a1 = dataFile(table, "a1", "a", 2);
        DeleteFile pos = positionDelete(table, "a1", "a");
        WriteResult first =
                WriteResult.builder()
                        .addDataFiles(a1)
                        .addDeleteFiles(pos)
                        .addReferencedDataFiles(a1.location())
                        .build();
        WriteResult second =
                WriteResult.builder()
                        .addDataFiles(dataFile(table, "a2", "a", 1))
                        .addDeleteFiles(equalityDelete(table, "a2", "a"))
                        .build();
        try (IcebergCommitter committer = committer(CommitMode.ROW_DELTA)) {
            assertThat(
                            outcomes(
                                    commit(
                                            committer,
                                            committable(JOB, 1, false, first),
                                            committable(JOB, 2, false, second))))
                    .containsExactly(COMMITTED, COMMITTED);
        }
        List<Snapshot> snapshots = history(table, "main");
        assertThat(snapshots).hasSize(2);
        assertThat(snapshots.get(0).summary())
                .containsEntry(SnapshotSummary.ADD_POS_DELETE_FILES_PROP, "1")
                .containsEntry(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID, "1");
        assertThat(snapshots.get(1).summary())
                .containsEntry(SnapshotSummary.ADD_EQ_DELETE_FILES_PROP, "1")
                .containsEntry(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID, "2");
        // checkpoint 2's equality delete has a higher sequence number than checkpoint 1's rows
        assertThat(snapshots.get(1).sequenceNumber())
                .isGreaterThan(snapshots.get(0).sequenceNumber());
        assertThat(liveDataFiles(table, "main")).containsExactlyInAnyOrder("a1", "a2");
    }

    @Test
    void rowDeltaCheckpointsWithoutDeleteFilesAreFastAppends() throws Exception {
        table(SinkTestTables.BY_DATA, 2);
        // a merging commit (RowDelta, merge append) would fold these manifests into one
        table.updateProperties()
                .set(TableProperties.MANIFEST_MERGE_ENABLED, "true")
                .set(TableProperties.MANIFEST_MIN_MERGE_COUNT, "2")
                .commit();
        try (IcebergCommitter committer = committer(CommitMode.ROW_DELTA)) {
            assertThat(
                            outcomes(
                                    commit(
                                            committer,
                                            committable(1, dataFile(table, "a1", "a", 2)),
                                            committable(2, dataFile(table, "b1", "b", 1)),
                                            committable(3, dataFile(table, "a2", "a", 3)))))
                    .containsExactly(COMMITTED, COMMITTED, COMMITTED);
        }
        List<Snapshot> snapshots = history(table, "main");
        assertThat(snapshots).hasSize(3);
        assertThat(snapshots)
                .allSatisfy(
                        snapshot ->
                                assertThat(snapshot.operation()).isEqualTo(DataOperations.APPEND));
        assertThat(snapshots.get(2).summary())
                .containsEntry(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID, "3");
        assertThat(table.currentSnapshot().dataManifests(table.io())).hasSize(3);
        assertThat(liveDataFiles(table, "main")).containsExactlyInAnyOrder("a1", "a2", "b1");
    }

    @Test
    void deleteFilesOutsideRowDeltaFailTheJobWithAClearMessage() throws Exception {
        table(SinkTestTables.BY_DATA, 2);
        WriteResult withDeletes =
                WriteResult.builder()
                        .addDataFiles(dataFile(table, "a1", "a", 1))
                        .addDeleteFiles(equalityDelete(table, "a1", "a"))
                        .build();
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            List<TestingCommitRequest> requests =
                    commit(
                            committer,
                            committable(JOB, 1, false, withDeletes),
                            committable(2, dataFile(table, "a2", "a", 1)));
            assertThat(outcomes(requests)).containsExactly(FAILED_UNKNOWN, RETRY_LATER);
            assertThat(requests.get(0).failure())
                    .isInstanceOf(UncommittableException.class)
                    .hasMessageContaining("APPEND")
                    .hasMessageContaining("ROW_DELTA")
                    .hasMessageContaining("checkpoint 1");
            assertThat(committer.metrics().failedCommits()).isEqualTo(1);
        }
        assertThat(history(table, "main")).isEmpty();
    }

    @Test
    void aFailedCommitKeepsLaterCheckpointsWaitingInOrder() throws Exception {
        table(PartitionSpec.unpartitioned(), 2);
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            AtomicBoolean fail = new AtomicBoolean(true);
            CommitterTestHooks.install(
                    c -> {
                        if (c.checkpointId() == 2 && fail.getAndSet(false)) {
                            throw new RuntimeException("catalog unavailable");
                        }
                    },
                    c -> {});
            List<TestingCommitRequest> requests =
                    commit(
                            committer,
                            committable(1, dataFile(table, "f1", null, 1)),
                            committable(2, dataFile(table, "f2", null, 1)),
                            committable(3, dataFile(table, "f3", null, 1)));
            assertThat(outcomes(requests)).containsExactly(COMMITTED, RETRY_LATER, RETRY_LATER);
            assertThat(liveDataFiles(table, "main")).containsExactly("f1");
            retry(committer, requests.subList(1, 3));
            assertThat(outcomes(requests)).containsExactly(COMMITTED, COMMITTED, COMMITTED);
            assertThat(committer.metrics().failedCommits()).isEqualTo(1);
            assertThat(committer.metrics().commitDurationMs()).isGreaterThanOrEqualTo(0);
            assertThat(committer.metrics().lastSuccessfulCommitAgeMs()).isGreaterThanOrEqualTo(0);
        }
        assertThat(history(table, "main"))
                .extracting(s -> s.summary().get(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID))
                .containsExactly("1", "2", "3");
    }

    @Test
    void emptyCheckpointsMakeNoSnapshotUntilTheMaxContinuousEmptyCommits() throws Exception {
        table =
                SinkTestTables.create(
                        dir,
                        PartitionSpec.unpartitioned(),
                        2,
                        Map.of(IcebergCommitter.MAX_CONTINUOUS_EMPTY_COMMITS, "3"));
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            assertThat(committer.metrics().lastSuccessfulCommitAgeMs()).isEqualTo(-1);
            commit(committer, committable(1, dataFile(table, "f1", null, 1)));
            commit(committer, committable(JOB, 2, false));
            commit(committer, committable(JOB, 3, false));
            assertThat(history(table, "main")).hasSize(1);
            commit(committer, committable(JOB, 4, false));
            assertThat(history(table, "main")).hasSize(2);
            commit(committer, committable(JOB, 5, false));
            assertThat(history(table, "main")).hasSize(2);
        }
        Snapshot progress = history(table, "main").get(1);
        assertThat(progress.summary())
                .containsEntry(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID, "4")
                .doesNotContainKey(SnapshotSummary.ADDED_FILES_PROP);
        assertThat(liveDataFiles(table, "main")).containsExactly("f1");
    }

    @Test
    void endOfInputIsRecognisedWhenRepeatedButDoesNotBlockLaterJobsWithTheSameJobId()
            throws Exception {
        table(PartitionSpec.unpartitioned(), 2);
        // a batch job: Flink gives the final results checkpoint id 1 (no checkpoint before)
        IcebergCommittable batch =
                committable(JOB, 1, true, data(dataFile(table, "batch", null, 1)));
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            assertThat(outcomes(commit(committer, batch))).containsExactly(COMMITTED);
        }
        assertThat(history(table, "main").get(0).summary())
                .containsEntry(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID, "0")
                .containsEntry(CommitSummaryKeys.END_OF_INPUT_CHECKPOINT_ID, "1");
        // the same batch job re-run after a JobManager failover: nothing twice
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            IcebergCommittable rerun =
                    committable(JOB, 1, true, data(dataFile(table, "batch-again", null, 1)));
            assertThat(outcomes(commit(committer, rerun))).containsExactly(ALREADY_COMMITTED);
        }
        // a later streaming job that runs under the same (fixed) job id starts at checkpoint 1
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            assertThat(
                            outcomes(
                                    commit(
                                            committer,
                                            laterRun(1, dataFile(table, "s1", null, 1)),
                                            laterRun(2, dataFile(table, "s2", null, 1)))))
                    .containsExactly(COMMITTED, COMMITTED);
        }
        assertThat(liveDataFiles(table, "main")).containsExactlyInAnyOrder("batch", "s1", "s2");
    }

    @Test
    void boundedStreamingJobRecordsItsLastCheckpointAndTheEndOfInput() throws Exception {
        table(PartitionSpec.unpartitioned(), 2);
        IcebergCommittable end = committable(JOB, 4, true, data(dataFile(table, "end", null, 1)));
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            for (long c = 1; c <= 3; c++) {
                commit(committer, committable(c, dataFile(table, "f" + c, null, 1)));
            }
            assertThat(outcomes(commit(committer, end))).containsExactly(COMMITTED);
        }
        assertThat(history(table, "main").get(3).summary())
                .containsEntry(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID, "3")
                .containsEntry(CommitSummaryKeys.END_OF_INPUT_CHECKPOINT_ID, "4");
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            // restored from the final checkpoint: the end-of-input committable again
            assertThat(outcomes(commit(committer, restored(end))))
                    .containsExactly(ALREADY_COMMITTED);
            // a job restored from the final (drain) savepoint continues with later checkpoints
            assertThat(outcomes(commit(committer, committable(6, dataFile(table, "f6", null, 1)))))
                    .containsExactly(COMMITTED);
        }
        assertThat(liveDataFiles(table, "main"))
                .containsExactlyInAnyOrder("f1", "f2", "f3", "end", "f6");
    }

    @Test
    void commitsToTheConfiguredBranchWithSnapshotPropertiesAndOurKeysWin() throws Exception {
        table(PartitionSpec.unpartitioned(), 2);
        table.newFastAppend().appendFile(dataFile(table, "base", null, 1)).commit();
        table.manageSnapshots()
                .createBranch("audit", table.currentSnapshot().snapshotId())
                .commit();
        CommitterSettings.Builder settings =
                CommitterSettings.builder(SinkTestTables.loader(table))
                        .branch("audit")
                        .snapshotProperty("writer", "unit-test")
                        .snapshotProperty(CommitSummaryKeys.JOB_ID, "spoofed");
        try (IcebergCommitter committer = committer(settings)) {
            commit(committer, committable(1, dataFile(table, "f1", null, 1)));
            // a commit by the same job on main does not count for the branch
            assertThat(outcomes(commit(committer, committable(1, dataFile(table, "f1", null, 1)))))
                    .containsExactly(ALREADY_COMMITTED);
        }
        assertThat(liveDataFiles(table, "main")).containsExactly("base");
        assertThat(liveDataFiles(table, "audit")).containsExactlyInAnyOrder("base", "f1");
        assertThat(table.snapshot("audit").summary())
                .containsEntry("writer", "unit-test")
                .containsEntry(CommitSummaryKeys.JOB_ID, JOB);

        // the same checkpoint on main is not considered committed
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            assertThat(outcomes(commit(committer, committable(1, dataFile(table, "m1", null, 1)))))
                    .containsExactly(COMMITTED);
        }
        assertThat(liveDataFiles(table, "main")).containsExactlyInAnyOrder("base", "m1");
    }

    @Test
    void aSnapshotWithTheJobIdButNoOperatorIdCounts() throws Exception {
        table(PartitionSpec.unpartitioned(), 2);
        table.newFastAppend()
                .appendFile(dataFile(table, "legacy", null, 1))
                .set(CommitSummaryKeys.JOB_ID, JOB)
                .set(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID, "8")
                .commit();
        table.newFastAppend()
                .appendFile(dataFile(table, "otherOp", null, 1))
                .set(CommitSummaryKeys.JOB_ID, JOB)
                .set(CommitSummaryKeys.OPERATOR_ID, "another-operator")
                .set(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID, "100")
                .commit();
        // committables restored from state written before run ids existed
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            assertThat(outcomes(commit(committer, fromOlderSink(8, "f8"), fromOlderSink(9, "f9"))))
                    .containsExactly(ALREADY_COMMITTED, COMMITTED);
        }
        assertThat(liveDataFiles(table, "main"))
                .containsExactlyInAnyOrder("legacy", "otherOp", "f9");
    }

    @Test
    void worksOnFormatVersionThreeTables() throws Exception {
        table(SinkTestTables.BY_DATA, 3);
        try (IcebergCommitter committer = committer(CommitMode.ROW_DELTA)) {
            WriteResult result =
                    WriteResult.builder()
                            .addDataFiles(dataFile(table, "a1", "a", 2))
                            .addDeleteFiles(equalityDelete(table, "a0", "a"))
                            .build();
            assertThat(outcomes(commit(committer, committable(JOB, 1, false, result))))
                    .containsExactly(COMMITTED);
        }
        assertThat(liveDataFiles(table, "main")).containsExactly("a1");
    }

    @Test
    void restoringAnOlderSavepointUnderTheSameJobIdCommitsEveryNewCheckpoint() throws Exception {
        table(PartitionSpec.unpartitioned(), 2);
        // the first submission runs to checkpoint 5; the savepoint of checkpoint 3 holds 3
        IcebergCommittable three = committable(3, dataFile(table, "f3", null, 1));
        IcebergCommittable savepointThree = restored(three);
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            for (long c = 1; c <= 5; c++) {
                commit(
                        committer,
                        c == 3 ? three : committable(c, dataFile(table, "f" + c, null, 1)));
            }
        }
        // resubmitted from that savepoint under the same job id (application mode with HA): its
        // checkpoints 4..6 carry other rows than the first run's 4 and 5, and all of them land
        try (IcebergCommitter restored = committer(CommitMode.APPEND)) {
            assertThat(
                            outcomes(
                                    commit(
                                            restored,
                                            savepointThree,
                                            laterRun(4, dataFile(table, "r4", null, 1)),
                                            laterRun(5, dataFile(table, "r5", null, 1)),
                                            laterRun(6, dataFile(table, "r6", null, 1)))))
                    .containsExactly(ALREADY_COMMITTED, COMMITTED, COMMITTED, COMMITTED);
        }
        // and a failover of the second run recognises its own commits
        try (IcebergCommitter failedOver = committer(CommitMode.APPEND)) {
            assertThat(outcomes(commit(failedOver, laterRun(6, dataFile(table, "dup6", null, 1)))))
                    .containsExactly(ALREADY_COMMITTED);
        }
        assertThat(liveDataFiles(table, "main"))
                .containsExactlyInAnyOrder("f1", "f2", "f3", "f4", "f5", "r4", "r5", "r6");
        assertThat(history(table, "main").get(5).summary())
                .containsEntry(CommitSummaryKeys.JOB_ID, JOB)
                .containsEntry(CommitSummaryKeys.RUN_ID, RUN2)
                .containsEntry(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID, "4");
    }

    @Test
    void aFreshStartUnderTheSameJobIdSkipsNothing() throws Exception {
        table(PartitionSpec.unpartitioned(), 2);
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            for (long c = 1; c <= 3; c++) {
                commit(committer, committable(c, dataFile(table, "f" + c, null, 1)));
            }
        }
        try (IcebergCommitter fresh = committer(CommitMode.APPEND)) {
            assertThat(
                            outcomes(
                                    commit(
                                            fresh,
                                            laterRun(1, dataFile(table, "n1", null, 1)),
                                            laterRun(2, dataFile(table, "n2", null, 1)))))
                    .containsExactly(COMMITTED, COMMITTED);
        }
        assertThat(liveDataFiles(table, "main"))
                .containsExactlyInAnyOrder("f1", "f2", "f3", "n1", "n2");
    }

    @Test
    void committablesFromStateWithoutRunIdsMatchOnlyCommitsWithoutRunIds() throws Exception {
        table(PartitionSpec.unpartitioned(), 2);
        // a commit made by the sink before run ids existed
        table.newFastAppend()
                .appendFile(dataFile(table, "old", null, 1))
                .set(CommitSummaryKeys.JOB_ID, JOB)
                .set(CommitSummaryKeys.OPERATOR_ID, OP)
                .set(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID, "8")
                .commit();
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            assertThat(
                            outcomes(
                                    commit(
                                            committer,
                                            fromOlderSink(8, "dup8"),
                                            fromOlderSink(9, "f9"))))
                    .containsExactly(ALREADY_COMMITTED, COMMITTED);
            // a run of the new sink under the same job id is not taken for the old one
            assertThat(outcomes(commit(committer, laterRun(8, dataFile(table, "n8", null, 1)))))
                    .containsExactly(COMMITTED);
        }
        assertThat(history(table, "main").get(1).summary())
                .doesNotContainKey(CommitSummaryKeys.RUN_ID);
        assertThat(liveDataFiles(table, "main")).containsExactlyInAnyOrder("old", "f9", "n8");
    }

    @Test
    void anAttemptThatLandsBetweenTheLookupAndTheCommitIsNotCommittedTwice() throws Exception {
        table(SinkTestTables.BY_DATA, 2);
        IcebergCommittable one = committable(1, dataFile(table, "f1", "a", 1));
        IcebergCommittable earlierAttempt = restored(one);
        try (IcebergCommitter committer = committer(CommitMode.APPEND);
                IcebergCommitter earlier = committer(CommitMode.APPEND)) {
            // an attempt from before a restart lands after this committer looked its progress up
            // the hook is static, so it also runs for the earlier attempt's own commit: skip that
            CommitterTestHooks.install(
                    c -> {
                        if (c != earlierAttempt) {
                            assertThat(outcomes(commit(earlier, earlierAttempt)))
                                    .containsOnly(COMMITTED);
                        }
                    },
                    c -> {});
            assertThat(outcomes(commit(committer, one))).containsExactly(ALREADY_COMMITTED);
        }
        assertThat(history(table, "main")).hasSize(1);
        assertThat(liveDataFiles(table, "main")).containsExactly("f1");
        assertThat(one.allManifests()).noneMatch(this::exists);
    }

    @Test
    void aCommitRetriedByIcebergAfterTheSameCommittableLandedIsNotCommittedTwice()
            throws Exception {
        table(SinkTestTables.BY_DATA, 2);
        IcebergCommittable two = committable(2, dataFile(table, "f2", "b", 1));
        IcebergCommittable earlierAttempt = restored(two);
        AtomicBoolean armed = new AtomicBoolean();
        AtomicBoolean landed = new AtomicBoolean();
        // the table's operations land the earlier attempt right before the first metadata commit,
        // so Iceberg's own retry loop meets it: a conflict, a refresh, and a second apply
        TableLoader landing =
                TestingTableLoaders.withOperations(
                        SinkTestTables.loader(table),
                        ops ->
                                new TestingTableLoaders.BeforeCommit(
                                        ops,
                                        () -> {
                                            if (armed.get() && !landed.getAndSet(true)) {
                                                try (IcebergCommitter earlier =
                                                        committer(CommitMode.APPEND)) {
                                                    commit(earlier, earlierAttempt);
                                                } catch (Exception e) {
                                                    throw new AssertionError(e);
                                                }
                                            }
                                        }));
        try (IcebergCommitter committer =
                committer(CommitterSettings.builder(landing).mode(CommitMode.APPEND))) {
            commit(committer, committable(1, dataFile(table, "f1", "a", 1)));
            armed.set(true);
            List<TestingCommitRequest> requests = commit(committer, two);
            assertThat(landed).isTrue();
            assertThat(outcomes(requests)).containsExactly(ALREADY_COMMITTED);
            assertThat(committer.metrics().failedCommits()).isZero();
        }
        assertThat(history(table, "main")).hasSize(2);
        assertThat(liveDataFiles(table, "main")).containsExactlyInAnyOrder("f1", "f2");
    }

    @Test
    void aCommittedCheckpointWhoseSnapshotExpiredFailsOnceWithAClearMessage() throws Exception {
        table(PartitionSpec.unpartitioned(), 2);
        IcebergCommittable one = committable(1, dataFile(table, "f1", null, 1));
        IcebergCommittable fromState = restored(one);
        try (IcebergCommitter committer = committer(CommitMode.APPEND)) {
            commit(committer, one);
        }
        // other writers go on, and the snapshot that recorded checkpoint 1 is expired
        table.refresh();
        Snapshot flinkCommit = table.currentSnapshot();
        table.newFastAppend().appendFile(dataFile(table, "other", null, 1)).commit();
        table.expireSnapshots()
                .expireSnapshotId(flinkCommit.snapshotId())
                .cleanExpiredFiles(false)
                .commit();
        try (IcebergCommitter restarted = committer(CommitMode.APPEND)) {
            List<TestingCommitRequest> requests = commit(restarted, fromState);
            assertThat(outcomes(requests)).containsExactly(FAILED_UNKNOWN);
            assertThat(requests.get(0).failure())
                    .isInstanceOf(SuppressRestartsException.class)
                    .cause()
                    .isInstanceOf(CommitProgressLostException.class)
                    .hasMessageContaining("Checkpoint 1 of job=" + JOB)
                    .hasMessageContaining("expired or rolled back")
                    .hasMessageContaining(one.dataManifests().get(0).path());
        }
        assertThat(liveDataFiles(table, "main")).containsExactlyInAnyOrder("f1", "other");
    }
}
