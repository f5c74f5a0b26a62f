package dev.icebergflink.source.planning;

import static dev.icebergflink.source.SourceTestTables.append;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.source.SourceTestTables;
import dev.icebergflink.source.config.ScanContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bounded planning: time travel, bounded incremental ranges, split sizing and filters. */
class SplitPlannerTest {

    @TempDir Path dir;
    private Table table;

    @BeforeEach
    void createTable() {
        table = SourceTestTables.create(dir.resolve("t").toString(), 2);
    }

    /** Plans with pages of 2 splits (read to the end), unless the options set a page size. */
    private PlanningResult plan(Map<String, String> options, List<Expression> filters) {
        return plan(options, filters, 1);
    }

    /** Plans for {@code readers} reader subtasks, with pages as {@link #plan(Map, List)}. */
    private PlanningResult plan(
            Map<String, String> options, List<Expression> filters, int readers) {
        Map<String, String> all = new java.util.HashMap<>(options);
        all.putIfAbsent("split-planning-page-size", "2");
        ScanContext context = ScanContext.resolve(all, new Configuration(), table, null, filters);
        SplitPlanner planner = new SplitPlanner(table, context, null);
        try (SplitPager pager = new SplitPager(planner)) {
            return PagedScans.drain(planner.planBounded(readers), pager, 2);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static final long MIB = 1L << 20;

    /**
     * Commits a Parquet data file of {@code mib} MiB with a row group every 16 MiB. Only its
     * metadata exists: planning never opens data files.
     */
    private void appendLargeFile(String name, long mib) {
        List<Long> rowGroups = new ArrayList<>();
        for (long offset = 0; offset < mib * MIB; offset += 16 * MIB) {
            rowGroups.add(offset);
        }
        table.newAppend()
                .appendFile(
                        DataFiles.builder(table.spec())
                                .withPath(dir.resolve(name).toString())
                                .withFormat(FileFormat.PARQUET)
                                .withFileSizeInBytes(mib * MIB)
                                .withRecordCount(1_000)
                                .withSplitOffsets(rowGroups)
                                .build())
                .commit();
    }

    /** Each split's files as "name@start+length" in MiB, in planning order. */
    private static List<List<String>> pieces(PlanningResult result) {
        return result.splits().stream()
                .map(split -> split.task().files().stream().map(SplitPlannerTest::piece).toList())
                .toList();
    }

    private static String piece(FileScanTask task) {
        String path = task.file().location();
        return path.substring(path.lastIndexOf('/') + 1)
                + "@"
                + task.start() / MIB
                + "+"
                + task.length() / MIB;
    }

    private static long rows(PlanningResult result) {
        return result.splits().stream()
                .flatMap(split -> split.task().files().stream())
                .mapToLong(task -> task.file().recordCount())
                .sum();
    }

    private static int files(PlanningResult result) {
        return result.splits().stream().mapToInt(split -> split.task().files().size()).sum();
    }

    @Test
    void emptyTablePlansNothing() {
        assertThat(plan(Map.of(), List.of()).splits()).isEmpty();
    }

    @Test
    void timeTravelBySnapshotTagBranchAndTimestamp() {
        Snapshot first = append(table, 0, 2);
        Snapshot second = append(table, 2, 5);
        append(table, 5, 9);
        table.manageSnapshots().createTag("t1", first.snapshotId()).commit();
        table.manageSnapshots().createBranch("b", second.snapshotId()).commit();
        assertThat(rows(plan(Map.of(), List.of()))).isEqualTo(9);
        assertThat(rows(plan(Map.of("snapshot-id", "" + first.snapshotId()), List.of())))
                .isEqualTo(2);
        assertThat(rows(plan(Map.of("tag", "t1"), List.of()))).isEqualTo(2);
        assertThat(rows(plan(Map.of("branch", "b"), List.of()))).isEqualTo(5);
        assertThat(rows(plan(Map.of("as-of-timestamp", "" + second.timestampMillis()), List.of())))
                .isGreaterThanOrEqualTo(5);
        // snapshot-id wins over tag and branch.
        assertThat(
                        rows(
                                plan(
                                        Map.of(
                                                "snapshot-id",
                                                "" + second.snapshotId(),
                                                "tag",
                                                "t1",
                                                "branch",
                                                "b"),
                                        List.of())))
                .isEqualTo(5);
    }

    @Test
    void boundedIncrementalStartIsExclusiveAndEndInclusive() {
        Snapshot first = append(table, 0, 2);
        Snapshot second = append(table, 2, 5);
        Snapshot third = append(table, 5, 9);
        append(table, 9, 20);
        assertThat(
                        rows(
                                plan(
                                        Map.of(
                                                "start-snapshot-id",
                                                "" + first.snapshotId(),
                                                "end-snapshot-id",
                                                "" + third.snapshotId()),
                                        List.of())))
                .isEqualTo(3 + 4);
        assertThat(rows(plan(Map.of("start-snapshot-id", "" + second.snapshotId()), List.of())))
                .isEqualTo(4 + 11);
        assertThat(rows(plan(Map.of("end-snapshot-id", "" + second.snapshotId()), List.of())))
                .isEqualTo(5);
        table.manageSnapshots().createTag("s", first.snapshotId()).commit();
        table.manageSnapshots().createTag("e", second.snapshotId()).commit();
        assertThat(rows(plan(Map.of("start-tag", "s", "end-tag", "e"), List.of()))).isEqualTo(3);
        assertThat(
                        plan(
                                        Map.of(
                                                "start-snapshot-id",
                                                "" + second.snapshotId(),
                                                "end-snapshot-id",
                                                "" + second.snapshotId()),
                                        List.of())
                                .splits())
                .isEmpty();
    }

    @Test
    void splitSizeAndOpenFileCostShapeSplits() {
        SourceTestTables.appendFiles(table, 0, 40, 10);
        // Small files, default sizes: all four files fit in one split.
        assertThat(plan(Map.of(), List.of()).splits()).hasSize(1);
        // An open cost as large as the split size gives one file per split.
        PlanningResult oneEach =
                plan(Map.of("split-size", "1000000", "split-file-open-cost", "1000000"), List.of());
        assertThat(oneEach.splits()).hasSize(4);
        assertThat(files(oneEach)).isEqualTo(4);
    }

    @Test
    void fewerSplitsThanReadersArePlannedSmaller() {
        appendLargeFile("a.parquet", 64);

        assertThat(pieces(plan(Map.of(), List.of(), 1))).containsExactly(List.of("a.parquet@0+64"));
        for (String pageSize : List.of("2", "-1")) {
            PlanningResult four = plan(Map.of("split-planning-page-size", pageSize), List.of(), 4);
            assertThat(pieces(four))
                    .as("page size %s", pageSize)
                    .containsExactly(
                            List.of("a.parquet@0+16"),
                            List.of("a.parquet@16+16"),
                            List.of("a.parquet@32+16"),
                            List.of("a.parquet@48+16"));
        }
        ScanContext context =
                ScanContext.resolve(Map.of(), new Configuration(), table, null, List.of());
        try {
            assertThat(new SplitPlanner(table, context, null).countBoundedSplits(100))
                    .as("counted for up to 100 readers: the adaptive splits")
                    .isEqualTo(4);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        // the table's split size does not turn it off: it is the size being adapted
        table.updateProperties().set(TableProperties.SPLIT_SIZE, Long.toString(128 * MIB)).commit();
        assertThat(plan(Map.of(), List.of(), 4).splits()).hasSize(4);
    }

    @Test
    void adaptiveSplitSizeKeepsExplicitSizesLimitsAndEnoughSplits() {
        appendLargeFile("a.parquet", 64);
        List<List<String>> whole = List.of(List.of("a.parquet@0+64"));

        assertThat(pieces(plan(Map.of("split-size", Long.toString(128 * MIB)), List.of(), 4)))
                .as("an explicit split size")
                .isEqualTo(whole);
        assertThat(pieces(plan(Map.of("adaptive-split-size-enabled", "false"), List.of(), 4)))
                .as("turned off by option")
                .isEqualTo(whole);
        assertThat(pieces(plan(Map.of("limit", "10"), List.of(), 4)))
                .as("a limited read goes to one reader")
                .isEqualTo(whole);

        appendLargeFile("b.parquet", 64);
        appendLargeFile("c.parquet", 64);
        appendLargeFile("d.parquet", 64);
        assertThat(plan(Map.of(), List.of(), 2).splits())
                .as("128 MiB splits, two files each, are enough for 2 readers")
                .hasSize(2)
                .allSatisfy(split -> assertThat(split.task().files()).hasSize(2));
        assertThat(plan(Map.of(), List.of(), 4).splits())
                .as("256 MiB for 4 readers: a file each")
                .hasSize(4)
                .allSatisfy(split -> assertThat(split.task().files()).hasSize(1));
        assertThat(plan(Map.of(), List.of(), 8).splits())
                .as("256 MiB for 8 readers: 32 MiB, two row groups each")
                .hasSize(8)
                .allSatisfy(split -> assertThat(split.task().files()).hasSize(1));

        table.updateProperties().set(TableProperties.ADAPTIVE_SPLIT_SIZE_ENABLED, "false").commit();
        assertThat(plan(Map.of(), List.of(), 8).splits())
                .as("turned off by table property")
                .hasSize(2);
    }

    @Test
    void tablePropertiesApplyWhenNoOptionIsSet() {
        SourceTestTables.appendFiles(table, 0, 40, 10);
        table.updateProperties()
                .set(TableProperties.SPLIT_SIZE, "1000")
                .set(TableProperties.SPLIT_OPEN_FILE_COST, "1000")
                .commit();
        assertThat(plan(Map.of(), List.of()).splits()).hasSize(4);
        // An explicit option wins over the table property.
        assertThat(
                        plan(
                                        Map.of(
                                                "split-size", "100000000",
                                                "split-file-open-cost", "1"),
                                        List.of())
                                .splits())
                .hasSize(1);
    }

    @Test
    void filtersPruneFilesAndStayAsResiduals() {
        append(table, 0, 10);
        append(table, 100, 110);
        PlanningResult result = plan(Map.of(), List.of(Expressions.greaterThanOrEqual("id", 105L)));
        assertThat(rows(result)).isEqualTo(10);
        assertThat(result.splits().get(0).task().files().iterator().next().residual().toString())
                .contains("id");
    }

    @Test
    void columnStatsAreDroppedUnlessRequested() {
        append(table, 0, 10);
        var file = plan(Map.of(), List.of()).splits().get(0).task().files().iterator().next();
        assertThat(file.file().lowerBounds()).isNullOrEmpty();
        var withStats =
                plan(Map.of("include-column-stats", "true"), List.of())
                        .splits()
                        .get(0)
                        .task()
                        .files()
                        .iterator()
                        .next();
        assertThat(withStats.file().lowerBounds()).isNotEmpty();
        var watermark =
                plan(Map.of("watermark-column", "ts"), List.of())
                        .splits()
                        .get(0)
                        .task()
                        .files()
                        .iterator()
                        .next();
        assertThat(watermark.file().lowerBounds()).containsOnlyKeys(3);
    }
}
