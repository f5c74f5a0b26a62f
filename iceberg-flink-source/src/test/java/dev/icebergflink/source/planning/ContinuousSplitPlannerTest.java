package dev.icebergflink.source.planning;

import static dev.icebergflink.source.SourceTestTables.append;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.source.SourceTestTables;
import dev.icebergflink.source.config.ScanContext;
import dev.icebergflink.source.split.IcebergSourceSplit;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streaming starting strategies and discovery rules (Iceberg's own connector's, with the
 * semantics of the user documentation), on real tables: which rows each strategy reads first
 * (inclusive or exclusive), how later rounds follow appends, skip replace snapshots, and fail or
 * skip overwrite/delete snapshots.
 */
class ContinuousSplitPlannerTest {

    @TempDir Path dir;
    private Table table;

    @BeforeEach
    void createTable() {
        table = SourceTestTables.create(dir.resolve("t").toString(), 2);
    }

    /** Plans rounds with a paged first scan (pages of 2) read to the end. */
    private Rounds planner(Map<String, String> options) {
        Map<String, String> all = new HashMap<>(options);
        all.put("streaming", "true");
        all.putIfAbsent("split-planning-page-size", "2");
        ScanContext context = ScanContext.resolve(all, new Configuration(), table, null, null);
        SplitPlanner splits = new SplitPlanner(table, context, null);
        return new Rounds(new ContinuousSplitPlanner(splits, context), new SplitPager(splits));
    }

    /** The planner under test, with each round's paged scan drained. */
    private record Rounds(ContinuousSplitPlanner planner, SplitPager pager) {
        PlanningResult planNext(SnapshotPosition last) {
            PlanningResult result = planner.planNext(last);
            try {
                return PagedScans.drain(result, pager, 2);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
    }

    /** The row ids the splits cover, read from the files' record counts and id bounds. */
    private static List<Long> firstIds(PlanningResult result) {
        return result.splits().stream()
                .flatMap(split -> split.task().files().stream())
                .map(FileScanTask::file)
                .map(DataFile::recordCount)
                .toList();
    }

    private static long rows(PlanningResult result) {
        return result.splits().stream()
                .flatMap(split -> split.task().files().stream())
                .mapToLong(task -> task.file().recordCount())
                .sum();
    }

    private static Set<String> files(PlanningResult result) {
        return new java.util.TreeSet<>(
                result.splits().stream()
                        .flatMap(split -> split.task().files().stream())
                        .map(task -> task.file().location())
                        .toList());
    }

    @Test
    void tableScanThenIncrementalReadsEverythingOnceThenOnlyNewAppends() {
        append(table, 0, 3);
        append(table, 3, 5);
        Rounds planner = planner(Map.of());
        PlanningResult first = planner.planNext(null);
        assertThat(rows(first)).isEqualTo(5);
        assertThat(first.toPosition().snapshotId()).isEqualTo(table.currentSnapshot().snapshotId());

        PlanningResult idle = planner.planNext(first.toPosition());
        assertThat(idle.splits()).isEmpty();
        assertThat(idle.toPosition()).isEqualTo(first.toPosition());

        Snapshot third = append(table, 5, 9);
        PlanningResult next = planner.planNext(idle.toPosition());
        assertThat(rows(next)).isEqualTo(4);
        assertThat(next.toPosition().snapshotId()).isEqualTo(third.snapshotId());
    }

    @Test
    void tableScanThenIncrementalOnEmptyTableReadsEveryLaterAppend() {
        Rounds planner = planner(Map.of());
        PlanningResult first = planner.planNext(null);
        assertThat(first.splits()).isEmpty();
        assertThat(first.toPosition().isBeforeFirstSnapshot()).isTrue();
        append(table, 0, 2);
        append(table, 2, 5);
        assertThat(rows(planner.planNext(first.toPosition()))).isEqualTo(5);
    }

    @Test
    void latestSnapshotIsInclusiveAndExclusiveVariantIsNot() {
        append(table, 0, 3);
        append(table, 3, 7);
        assertThat(
                        rows(
                                planner(
                                                Map.of(
                                                        "starting-strategy",
                                                        "INCREMENTAL_FROM_LATEST_SNAPSHOT"))
                                        .planNext(null)))
                .isEqualTo(4);
        PlanningResult exclusive =
                planner(Map.of("starting-strategy", "INCREMENTAL_FROM_LATEST_SNAPSHOT_EXCLUSIVE"))
                        .planNext(null);
        assertThat(exclusive.splits()).isEmpty();
        assertThat(exclusive.toPosition().snapshotId())
                .isEqualTo(table.currentSnapshot().snapshotId());
    }

    @Test
    void latestSnapshotOnEmptyTableReadsFutureAppends() {
        Rounds planner = planner(Map.of("starting-strategy", "INCREMENTAL_FROM_LATEST_SNAPSHOT"));
        PlanningResult first = planner.planNext(null);
        assertThat(first.splits()).isEmpty();
        append(table, 0, 2);
        assertThat(rows(planner.planNext(first.toPosition()))).isEqualTo(2);
    }

    @Test
    void earliestSnapshotReadsAllAppends() {
        append(table, 0, 3);
        append(table, 3, 7);
        assertThat(
                        rows(
                                planner(
                                                Map.of(
                                                        "starting-strategy",
                                                        "INCREMENTAL_FROM_EARLIEST_SNAPSHOT"))
                                        .planNext(null)))
                .isEqualTo(7);
    }

    @Test
    void snapshotIdStrategyIsInclusiveAndBareStartSnapshotIdIsExclusive() {
        append(table, 0, 3);
        Snapshot second = append(table, 3, 7);
        append(table, 7, 12);
        Map<String, String> inclusive =
                Map.of(
                        "starting-strategy",
                        "INCREMENTAL_FROM_SNAPSHOT_ID",
                        "start-snapshot-id",
                        Long.toString(second.snapshotId()));
        assertThat(rows(planner(inclusive).planNext(null))).isEqualTo(9);
        Map<String, String> bare = Map.of("start-snapshot-id", Long.toString(second.snapshotId()));
        assertThat(rows(planner(bare).planNext(null))).isEqualTo(5);
    }

    @Test
    void timestampStrategyIsInclusiveAndBareTimestampIsExclusive() throws InterruptedException {
        append(table, 0, 3);
        Snapshot second = append(table, 3, 7);
        append(table, 7, 12);
        Map<String, String> inclusive =
                Map.of(
                        "starting-strategy",
                        "INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP",
                        "start-snapshot-timestamp",
                        Long.toString(second.timestampMillis()));
        // The oldest snapshot at or after the time is the second one (or a later one when two
        // commits share the millisecond): its rows are read.
        assertThat(rows(planner(inclusive).planNext(null))).isGreaterThanOrEqualTo(5);
        Map<String, String> bare =
                Map.of("start-snapshot-timestamp", Long.toString(second.timestampMillis()));
        assertThat(rows(planner(bare).planNext(null))).isLessThanOrEqualTo(5);
    }

    @Test
    void timestampStrategyAfterTheNewestSnapshotFails() {
        Snapshot only = append(table, 0, 3);
        Map<String, String> options =
                Map.of(
                        "starting-strategy",
                        "INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP",
                        "start-snapshot-timestamp",
                        Long.toString(only.timestampMillis() + 60_000));
        assertThatThrownBy(() -> planner(options).planNext(null))
                .isInstanceOf(UnrecoverablePlanningException.class)
                .hasMessageContaining("start-snapshot-timestamp");
    }

    @Test
    void maxPlanningSnapshotCountLimitsARound() {
        Rounds planner =
                planner(
                        Map.of(
                                "starting-strategy",
                                "INCREMENTAL_FROM_EARLIEST_SNAPSHOT",
                                "max-planning-snapshot-count",
                                "2"));
        for (int i = 0; i < 5; i++) {
            append(table, i * 10, i * 10 + 1 + i);
        }
        PlanningResult first = planner.planNext(null);
        assertThat(rows(first)).isEqualTo(1 + 2);
        PlanningResult second = planner.planNext(first.toPosition());
        assertThat(rows(second)).isEqualTo(3 + 4);
        PlanningResult third = planner.planNext(second.toPosition());
        assertThat(rows(third)).isEqualTo(5);
        assertThat(third.toPosition().snapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
    }

    @Test
    void replaceSnapshotsAreSkipped() {
        append(table, 0, 2);
        append(table, 2, 4);
        Rounds planner = planner(Map.of());
        PlanningResult first = planner.planNext(null);
        List<DataFile> old =
                first.splits().stream()
                        .flatMap(s -> s.task().files().stream())
                        .map(FileScanTask::file)
                        .toList();
        DataFile compacted = SourceTestTables.writeFile(table, SourceTestTables.records(0, 4));
        table.newRewrite().rewriteFiles(Set.copyOf(old), Set.of(compacted)).commit();
        append(table, 4, 6);
        PlanningResult next = planner.planNext(first.toPosition());
        assertThat(rows(next)).isEqualTo(2);
        assertThat(files(next)).doesNotContain(compacted.location());
    }

    @Test
    void overwriteAndDeleteSnapshotsFailWithTheirIdUnlessSkipped() {
        append(table, 0, 2);
        Rounds planner = planner(Map.of());
        PlanningResult first = planner.planNext(null);
        DataFile file = first.splits().get(0).task().files().iterator().next().file();
        DataFile replacement = SourceTestTables.writeFile(table, SourceTestTables.records(10, 12));
        table.newOverwrite().deleteFile(file).addFile(replacement).commit();
        long overwriteId = table.currentSnapshot().snapshotId();
        assertThatThrownBy(() -> planner.planNext(first.toPosition()))
                .isInstanceOf(UnrecoverablePlanningException.class)
                .hasMessageContaining(Long.toString(overwriteId))
                .hasMessageContaining("overwrite")
                .hasMessageContaining("streaming-skip-overwrite-snapshots");

        table.newDelete().deleteFile(replacement).commit();
        long deleteId = table.currentSnapshot().snapshotId();
        append(table, 20, 23);
        // The delete snapshot stops the round before anything is planned.
        assertThatThrownBy(
                        () ->
                                planner(Map.of("streaming-skip-overwrite-snapshots", "true"))
                                        .planNext(first.toPosition()))
                .hasMessageContaining(Long.toString(deleteId))
                .hasMessageContaining("streaming-skip-delete-snapshots");
    }

    @Test
    void skippingOverwriteAndDeleteReadsOnlyTheAppends() {
        append(table, 0, 2);
        Rounds planner =
                planner(
                        Map.of(
                                "streaming-skip-overwrite-snapshots", "true",
                                "streaming-skip-delete-snapshots", "true"));
        PlanningResult first = planner.planNext(null);
        DataFile file = first.splits().get(0).task().files().iterator().next().file();
        DataFile replacement = SourceTestTables.writeFile(table, SourceTestTables.records(10, 12));
        table.newOverwrite().deleteFile(file).addFile(replacement).commit();
        table.newDelete().deleteFile(replacement).commit();
        append(table, 20, 23);
        PlanningResult next = planner.planNext(first.toPosition());
        assertThat(rows(next)).isEqualTo(3);
        assertThat(next.toPosition().snapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
    }

    @Test
    void followsTheBranchHead() {
        append(table, 0, 2);
        table.manageSnapshots().createBranch("b", table.currentSnapshot().snapshotId()).commit();
        Rounds planner = planner(Map.of("branch", "b"));
        PlanningResult first = planner.planNext(null);
        assertThat(rows(first)).isEqualTo(2);
        append(table, 100, 110); // main only
        Snapshot head = SourceTestTables.appendToBranch(table, "b", 2, 5);
        PlanningResult next = planner.planNext(first.toPosition());
        assertThat(rows(next)).isEqualTo(3);
        assertThat(next.toPosition().snapshotId()).isEqualTo(head.snapshotId());
    }

    @Test
    void positionThatLeftTheHistoryFails() {
        Snapshot first = append(table, 0, 2);
        append(table, 2, 4);
        table.manageSnapshots().rollbackTo(first.snapshotId()).commit();
        append(table, 4, 6);
        Rounds planner = planner(Map.of());
        SnapshotPosition lost = new SnapshotPosition(first.snapshotId() + 12345, 0L);
        assertThatThrownBy(() -> planner.planNext(lost))
                .isInstanceOf(UnrecoverablePlanningException.class)
                .hasMessageContaining("no longer an ancestor");
    }

    @Test
    void splitsCarryTheirFiles() {
        append(table, 0, 2);
        PlanningResult result = planner(Map.of()).planNext(null);
        IcebergSourceSplit split = result.splits().get(0);
        assertThat(split.fileOffset()).isZero();
        assertThat(split.recordOffset()).isZero();
        assertThat(firstIds(result)).containsExactly(2L);
    }
}
