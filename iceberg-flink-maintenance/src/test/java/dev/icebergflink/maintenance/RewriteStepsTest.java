package dev.icebergflink.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.api.RewriteDataFiles;
import dev.icebergflink.maintenance.rewrite.RewriteCommit;
import dev.icebergflink.maintenance.rewrite.RewritePlanning;
import dev.icebergflink.maintenance.rewrite.RewriteResultSerializer;
import dev.icebergflink.maintenance.rewrite.RewriteWork;
import dev.icebergflink.maintenance.task.TaskFinisher;
import dev.icebergflink.maintenance.task.TaskPlanner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The three steps of the streaming rewrite run by hand on a Hadoop table, as the topology runs
 * them: the plan's items through the worker, the results through the committer. Covers partial
 * progress (file groups committed separately, a conflict losing only its commit's groups) and the
 * rewrite of a branch.
 */
class RewriteStepsTest {

    private static final Map<String, String> OPTIONS = Map.of("min-input-files", "2");

    @TempDir Path dir;

    private Table table;

    /** What one run of the steps gave. */
    private record Run(TaskPlanner.Plan plan, List<byte[]> results) {}

    private TableLoader loader() {
        return TableLoader.fromHadoopTable(table.location());
    }

    private Run planAndWork(String branch) throws Exception {
        RewritePlanning planning =
                new RewritePlanning(
                        loader(),
                        Expressions.alwaysTrue(),
                        true,
                        TableProperties.SPLIT_OPEN_FILE_COST_DEFAULT,
                        OPTIONS,
                        Long.MAX_VALUE,
                        branch);
        planning.open();
        TaskPlanner.Plan plan;
        try {
            plan = planning.plan(1L);
        } finally {
            planning.close();
        }
        RewriteWork work = new RewriteWork(loader());
        work.open(0, 0);
        List<byte[]> results = new ArrayList<>();
        try {
            for (byte[] item : plan.items()) {
                results.add(work.process(item));
            }
        } finally {
            work.close();
        }
        return new Run(plan, results);
    }

    private TaskFinisher.Outcome finish(Run run, String branch, boolean partial, int maxCommits)
            throws Exception {
        RewriteCommit commit = new RewriteCommit(loader(), branch, partial, maxCommits);
        commit.open();
        try {
            return commit.finish(run.plan().header(), run.results());
        } finally {
            commit.close();
        }
    }

    /** Every data file the workers wrote. */
    private List<DataFile> written(Run run) throws IOException {
        RewriteResultSerializer serializer = new RewriteResultSerializer(table.specs());
        List<DataFile> files = new ArrayList<>();
        for (byte[] result : run.results()) {
            files.addAll(
                    SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, result)
                            .files());
        }
        return files;
    }

    private List<Snapshot> replacesSince(long snapshotId, String branch) {
        table.refresh();
        List<Snapshot> replaces = new ArrayList<>();
        Snapshot current = table.snapshot(branch);
        while (current != null && current.snapshotId() != snapshotId) {
            if (DataOperations.REPLACE.equals(current.operation())) {
                replaces.add(current);
            }
            current = current.parentId() == null ? null : table.snapshot(current.parentId());
        }
        return replaces;
    }

    private boolean exists(DataFile file) {
        return table.io().newInputFile(file.location()).exists();
    }

    /** Deletes one data file of partition {@code part} in a concurrent commit; its rows go. */
    private DataFile deleteOneFileOf(String part) {
        DataFile victim =
                MaintenanceTables.dataFiles(table).stream()
                        .filter(file -> part.equals(MaintenanceTables.partitionOf(file)))
                        .findFirst()
                        .orElseThrow();
        table.newDelete().deleteFile(victim).commit();
        return victim;
    }

    private List<String> without(List<Record> records, Set<Long> ids) {
        return MaintenanceTables.asStrings(
                records.stream().filter(r -> !ids.contains((Long) r.getField("id"))).toList());
    }

    @Test
    void partialProgressCommitsTheGroupsInSeveralReplaceSnapshots() throws Exception {
        table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        List<Record> records = MaintenanceTables.appendSmallFiles(table, 4, 3, 20, 7L);
        long start = table.currentSnapshot().snapshotId();

        Run run = planAndWork(null);
        TaskFinisher.Outcome outcome = finish(run, null, true, 2);

        assertThat(outcome.complete()).isTrue();
        assertThat(replacesSince(start, "main")).hasSize(2);
        assertThat(MaintenanceTables.rows(table)).isEqualTo(MaintenanceTables.asStrings(records));
        assertThat(MaintenanceTables.dataFiles(table)).hasSize(4);
        assertThat(outcome.filesAdded()).isEqualTo(4L);
        assertThat(outcome.filesRemoved()).isEqualTo(12L);
    }

    @Test
    void aConflictLosesOnlyTheGroupsOfTheCommitItHits() throws Exception {
        table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        List<Record> records = MaintenanceTables.appendSmallFiles(table, 4, 3, 20, 7L);
        long start = table.currentSnapshot().snapshotId();
        Run run = planAndWork(null);
        DataFile victim = deleteOneFileOf("p2");
        Set<Long> deletedIds = MaintenanceTables.idsOf(table, victim);
        long beforeFinish = table.currentSnapshot().snapshotId();

        TaskFinisher.Outcome outcome = finish(run, null, true, 2);

        // one commit (two groups) landed; the other one, with p2's group, was lost
        assertThat(outcome.complete()).isFalse();
        assertThat(outcome.error())
                .contains("committed 2 of its 4 file groups in 2 commits")
                .contains("lost 2 file groups")
                .contains("part=p2");
        assertThat(replacesSince(beforeFinish, "main")).hasSize(1);
        assertThat(MaintenanceTables.rows(table)).isEqualTo(without(records, deletedIds));
        List<DataFile> current = MaintenanceTables.dataFiles(table);
        Map<String, Long> filesPerPartition = new java.util.TreeMap<>();
        current.forEach(
                file ->
                        filesPerPartition.merge(
                                MaintenanceTables.partitionOf(file), 1L, Long::sum));
        assertThat(filesPerPartition.get("p2")).isEqualTo(2L);
        assertThat(filesPerPartition.values()).containsOnly(1L, 2L, 3L);
        assertThat(filesPerPartition.values().stream().filter(n -> n == 1L)).hasSize(2);
        // the landed commit's files are in the table; the lost commit's are gone from storage
        Set<String> inTable = new HashSet<>();
        current.forEach(file -> inTable.add(file.location()));
        List<DataFile> written = written(run);
        assertThat(written).hasSize(4);
        for (DataFile file : written) {
            assertThat(exists(file))
                    .as(file.location())
                    .isEqualTo(inTable.contains(file.location()));
        }
        assertThat(written.stream().filter(file -> inTable.contains(file.location()))).hasSize(2);
        assertThat(outcome.filesAdded()).isEqualTo(2L);
        assertThat(outcome.filesRemoved()).isEqualTo(6L);
        assertThat(replacesSince(start, "main")).hasSize(1);
    }

    @Test
    void withoutPartialProgressTheSameConflictLosesTheWholeRun() throws Exception {
        table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        List<Record> records = MaintenanceTables.appendSmallFiles(table, 4, 3, 20, 7L);
        Run run = planAndWork(null);
        DataFile victim = deleteOneFileOf("p2");
        Set<Long> deletedIds = MaintenanceTables.idsOf(table, victim);
        long beforeFinish = table.currentSnapshot().snapshotId();
        List<DataFile> filesBefore = MaintenanceTables.dataFiles(table);

        assertThatThrownBy(() -> finish(run, null, false, 10))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("The table is unchanged");

        table.refresh();
        assertThat(table.currentSnapshot().snapshotId()).isEqualTo(beforeFinish);
        assertThat(MaintenanceTables.dataFiles(table)).hasSameSizeAs(filesBefore).hasSize(11);
        assertThat(MaintenanceTables.rows(table)).isEqualTo(without(records, deletedIds));
        assertThat(written(run)).hasSize(4).noneMatch(this::exists);
    }

    @Test
    void moreCommitsThanGroupsMakesOneCommitPerGroup() throws Exception {
        table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        List<Record> records = MaintenanceTables.appendSmallFiles(table, 3, 2, 10, 3L);
        long start = table.currentSnapshot().snapshotId();

        TaskFinisher.Outcome outcome = finish(planAndWork(null), null, true, 10);

        assertThat(outcome.complete()).isTrue();
        assertThat(replacesSince(start, "main")).hasSize(3);
        assertThat(MaintenanceTables.rows(table)).isEqualTo(MaintenanceTables.asStrings(records));
    }

    private List<String> branchRows(String branch) {
        table.refresh();
        List<String> rows = new ArrayList<>();
        try (CloseableIterable<Record> read =
                IcebergGenerics.read(table)
                        .useSnapshot(table.snapshot(branch).snapshotId())
                        .build()) {
            read.forEach(record -> rows.add(MaintenanceTables.asString(record)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        rows.sort(null);
        return rows;
    }

    private int branchFileCount(String branch) {
        table.refresh();
        int count = 0;
        try (CloseableIterable<FileScanTask> tasks = table.newScan().useRef(branch).planFiles()) {
            for (FileScanTask ignored : tasks) {
                count++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return count;
    }

    @Test
    void aBranchIsCompactedWhileMainIsLeftAlone() throws Exception {
        table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        MaintenanceTables.appendSmallFiles(table, 2, 1, 10, 5L);
        table.manageSnapshots()
                .createBranch("audit", table.currentSnapshot().snapshotId())
                .commit();
        java.util.Random random = new java.util.Random(11L);
        for (int i = 0; i < 3; i++) {
            for (String part : List.of("p0", "p1")) {
                table.newAppend()
                        .appendFile(
                                MaintenanceTables.writeDataFile(
                                        table,
                                        MaintenanceTables.records(
                                                1000L + i * 100 + (part.equals("p0") ? 0 : 50),
                                                5,
                                                part,
                                                random)))
                        .toBranch("audit")
                        .commit();
            }
        }
        table.refresh();
        long mainHead = table.currentSnapshot().snapshotId();
        long branchHead = table.snapshot("audit").snapshotId();
        List<String> mainRows = MaintenanceTables.rows(table);
        List<String> branchRowsBefore = branchRows("audit");
        assertThat(branchFileCount("audit")).isEqualTo(8);

        TaskFinisher.Outcome outcome = finish(planAndWork("audit"), "audit", false, 10);

        assertThat(outcome.complete()).isTrue();
        table.refresh();
        assertThat(table.currentSnapshot().snapshotId()).isEqualTo(mainHead);
        assertThat(MaintenanceTables.rows(table)).isEqualTo(mainRows);
        assertThat(MaintenanceTables.dataFiles(table)).hasSize(2);
        assertThat(replacesSince(branchHead, "audit")).hasSize(1);
        assertThat(table.snapshot("audit").parentId()).isEqualTo(branchHead);
        assertThat(branchRows("audit")).isEqualTo(branchRowsBefore);
        assertThat(branchFileCount("audit")).isEqualTo(2);
        assertThat(outcome.filesRemoved()).isEqualTo(8L);
    }

    @Test
    void anUnknownBranchFailsPlanningNamingTheBranch() {
        table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        MaintenanceTables.appendSmallFiles(table, 1, 2, 5, 5L);

        assertThatThrownBy(() -> planAndWork("no-such-branch"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'no-such-branch'")
                .hasMessageContaining("no such branch");
    }

    @Test
    void theBuilderRejectsBadPartialProgressAndBranchValues() {
        assertThatThrownBy(() -> RewriteDataFiles.builder().partialProgressMaxCommits(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("partialProgressMaxCommits must be positive, got 0");
        assertThatThrownBy(() -> RewriteDataFiles.builder().branch(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("branch must be a branch name, got ' '");
        assertThatThrownBy(() -> RewriteDataFiles.builder().branch(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("branch must be a branch name, got null");
        assertThat(RewriteDataFiles.DEFAULT_PARTIAL_PROGRESS_MAX_COMMITS).isEqualTo(10);
    }
}
