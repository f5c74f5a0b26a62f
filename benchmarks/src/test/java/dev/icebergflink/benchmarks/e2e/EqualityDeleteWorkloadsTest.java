package dev.icebergflink.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.util.ContentFileUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The smoke run of the {@code eqdelete-*} workloads at a tiny size: the upserted table has the
 * intended layout, {@code RewriteEqualityDeletes} leaves no equality delete and the same rows, the
 * check notices a changed row, and the rewritten-scan workload runs through {@link WorkloadRunner}
 * with the right count. No time is asserted.
 */
class EqualityDeleteWorkloadsTest {

    private static final long ROWS = 2_000;

    private final BenchmarkRows data = new BenchmarkRows(42);

    @TempDir Path warehouse;

    @Test
    void eachUpsertCommitRewritesThirtyPercentOfTheKeysWithOverlap() {
        for (long rows : new long[] {0, 1, 7, 13, 2_000}) {
            long written = rows;
            for (int commit = 1; commit <= UpsertedTable.UPSERT_COMMITS; commit++) {
                long count = 0;
                for (long id = 0; id < rows; id++) {
                    if (UpsertedTable.rewrites(commit, id)) {
                        count++;
                    }
                }
                assertThat(UpsertedTable.rewrittenBy(commit, rows))
                        .as("rows %d", rows)
                        .isEqualTo(count);
                written += count;
            }
            assertThat(UpsertedTable.writtenRows(rows)).isEqualTo(written);
        }
        assertThat(UpsertedTable.writtenRows(ROWS)).isEqualTo(3_800);
        // ids ending in 2 and 4 are rewritten twice; 7, 8, 9 never
        assertThat(UpsertedTable.lastCommit(12)).isEqualTo(2);
        assertThat(UpsertedTable.lastCommit(24)).isEqualTo(3);
        assertThat(UpsertedTable.lastCommit(31)).isEqualTo(1);
        assertThat(UpsertedTable.lastCommit(38)).isZero();
        // a shuffle by key: each of two writers gets about half of a commit's ids
        long first = 0;
        for (long id = 0; id < 10_000; id++) {
            if (UpsertedTable.rewrites(1, id) && UpsertedTable.writerOf(id, 2) == 0) {
                first++;
            }
        }
        assertThat(first).isBetween(1_350L, 1_650L);
    }

    @ParameterizedTest(name = "format v{0}")
    @ValueSource(ints = {2, 3})
    void theConversionKeepsTheRowsAndLeavesNoEqualityDelete(int formatVersion) throws Exception {
        BenchmarkTables tables = new BenchmarkTables(warehouse);
        Table table = UpsertedTable.create(tables, "t", formatVersion, data, ROWS);
        UpsertedTableCheck check = new UpsertedTableCheck(data, ROWS);

        assertThat(BenchmarkTables.recordCount(table)).isEqualTo(UpsertedTable.writtenRows(ROWS));
        assertThat(UpsertedTableCheck.liveEqualityDeletes(table))
                .isEqualTo((long) UpsertedTable.UPSERT_COMMITS * GenericLimits.threads());
        check.checkRows(table, "before");
        assertThatThrownBy(() -> UpsertedTableCheck.checkNoLiveEqualityDeletes(table))
                .isInstanceOf(WrongAnswerException.class)
                .hasMessageContaining("still live");

        EqualityDeleteRewrite.Result result =
                EqualityDeleteRewrite.run(
                        WorkloadRunner.loader(tables, "t"), WorkloadRunner.PARALLELISM);

        table.refresh();
        assertThat(result.filesAdded()).isPositive();
        assertThat(table.currentSnapshot().operation()).isEqualTo(DataOperations.REPLACE);
        assertThatCode(() -> UpsertedTableCheck.checkNoLiveEqualityDeletes(table))
                .doesNotThrowAnyException();
        check.checkRows(table, "after");
        List<DeleteFile> deletes = deletes(table);
        assertThat(deletes).isNotEmpty();
        for (DeleteFile delete : deletes) {
            assertThat(delete.content()).isEqualTo(FileContent.POSITION_DELETES);
            assertThat(ContentFileUtil.isDV(delete)).isEqualTo(formatVersion >= 3);
        }
    }

    @Test
    void theRowCheckNoticesARowDeletedByAnExtraEqualityDelete() throws IOException {
        BenchmarkTables tables = new BenchmarkTables(warehouse);
        Table table = UpsertedTable.create(tables, "t", 2, data, ROWS);
        GenericFileWriterFactory writers =
                new GenericFileWriterFactory.Builder(table)
                        .equalityFieldIds(new int[] {table.schema().findField("id").fieldId()})
                        .equalityDeleteRowSchema(table.schema().select("id"))
                        .build();
        EqualityDeleteWriter<Record> writer =
                writers.newEqualityDeleteWriter(
                        OutputFileFactory.builderFor(table, 9, 9).build().newOutputFile(),
                        table.spec(),
                        null);
        try (writer) {
            writer.write(GenericRecord.create(table.schema().select("id")).copy("id", 17L));
        }
        table.newRowDelta().addDeletes(writer.toDeleteFile()).commit();

        assertThatThrownBy(() -> new UpsertedTableCheck(data, ROWS).checkRows(table, "now"))
                .isInstanceOf(WrongAnswerException.class)
                .hasMessageContaining("now: expected 2000 live rows, found 1999");
    }

    /**
     * The rewritten-scan workload as the suite's child runs it (build, check, convert, check, then
     * the measured Flink scan). Its before-workload is the same build and scan without the
     * conversion; one Flink job is enough to keep this test short.
     */
    @Test
    void theRewrittenScanWorkloadCountsTheLiveRows() throws Exception {
        WorkloadRunner runner = new WorkloadRunner(new BenchmarkTables(warehouse), data, ROWS);

        Measurement after = runner.run(Workload.EQDELETE_REWRITTEN_SCAN_V2, 1);

        assertThat(after.rows()).isEqualTo(ROWS);
        assertThat(after.files()).isPositive();
        assertThat(after.seconds()).isPositive();
    }

    @Test
    void theReportShowsBeforeAfterAndTheirRatio() {
        List<ResultLine> lines =
                List.of(
                        new ResultLine(
                                "eqdelete-scan-v2",
                                1,
                                1000,
                                2,
                                9,
                                1,
                                4,
                                1,
                                -1,
                                0.5,
                                "scan-parquet"),
                        new ResultLine(
                                "eqdelete-rewritten-scan-v2",
                                1,
                                1000,
                                1,
                                9,
                                1,
                                1,
                                1,
                                -1,
                                2.0,
                                "eqdelete-scan-v2"));
        List<RewriteComparison> comparisons = RewriteComparison.of(WorkloadSummary.of(lines));

        assertThat(comparisons).hasSize(1);
        assertThat(comparisons.get(0).markdownRow())
                .isEqualTo("| v2 | 1,000 | 500 | 1,000 | 2.00x | 250 | 1,000 | 4.00x |\n");
        assertThat(comparisons.get(0).consoleLine())
                .isEqualTo(
                        "format v2: 500 -> 1,000 rows/s (2.00x), 250 -> 1,000 rows per CPU s"
                                + " (4.00x)\n");
        String markdown =
                BenchmarkReport.markdown(
                        SuiteOptions.parse(new String[] {"--rows", "1000", "--runs", "1"}),
                        new MachineInfo("cpu", 2, "1 GiB", "os", "kernel", "jdk"),
                        WorkloadSummary.of(lines),
                        lines,
                        "none");
        assertThat(markdown)
                .contains("## Reads before and after RewriteEqualityDeletes")
                .contains(comparisons.get(0).markdownRow());
    }

    private static List<DeleteFile> deletes(Table table) {
        List<DeleteFile> deletes = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                deletes.addAll(task.deletes());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return deletes;
    }
}
