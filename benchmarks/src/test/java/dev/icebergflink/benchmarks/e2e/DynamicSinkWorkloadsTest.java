package dev.icebergflink.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongPredicate;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The smoke run of the {@code dynamic-*} workloads at a tiny size, in process: {@code
 * dynamic-10-tables} runs through {@link WorkloadRunner} (tables created, one {@code
 * DynamicIcebergSink} job, the content check, the tables dropped), the routing spreads the ids over
 * every table, the content check notices a row in the wrong table, a missing row and a changed
 * value, and the report compares the workloads with {@code append-parquet} per CPU second as well
 * as per second. No time is asserted.
 */
class DynamicSinkWorkloadsTest {

    private static final long ROWS = 2_000;

    private final BenchmarkRows data = new BenchmarkRows(42);

    @TempDir Path warehouse;

    @Test
    void theRoutingSpreadsTheIdsOverEveryTable() {
        for (int tables : new int[] {10, 100}) {
            long[] counts = DynamicRouting.expectedCounts(100_000, tables);
            assertThat(Arrays.stream(counts).sum()).isEqualTo(100_000);
            long mean = 100_000 / tables;
            assertThat(Arrays.stream(counts).boxed())
                    .allSatisfy(n -> assertThat(n).isBetween(mean * 8 / 10, mean * 12 / 10));
        }
        assertThat(DynamicRouting.tableOf(17, 10)).isEqualTo(DynamicRouting.tableOf(17, 10));
        assertThat(DynamicRouting.tableName("dynamic_10_tables_r1", 7))
                .isEqualTo("dynamic_10_tables_r1_t007");
        assertThat(Workload.DYNAMIC_10_TABLES.tables()).isEqualTo(10);
        assertThat(Workload.DYNAMIC_100_TABLES.tables()).isEqualTo(100);
        assertThat(Workload.APPEND_PARQUET.tables()).isEqualTo(1);
        assertThat(Workload.parseList("dynamic-100-tables,append-parquet,dynamic-10-tables"))
                .containsExactly(
                        Workload.APPEND_PARQUET,
                        Workload.DYNAMIC_10_TABLES,
                        Workload.DYNAMIC_100_TABLES);
    }

    /**
     * {@code dynamic-10-tables} as the suite's child runs it. {@code dynamic-100-tables} runs the
     * same code with 100 tables; it is left out here because its fixed cost (100 tables created,
     * 200 files, 100 manifests and 100 commits, each file a {@code chmod} process on Hadoop's local
     * file system) takes 30-45 seconds even at 2,000 rows.
     */
    @Test
    void theWorkloadWritesEveryRowIntoItsTable() throws Exception {
        Workload workload = Workload.DYNAMIC_10_TABLES;
        BenchmarkTables tables = new BenchmarkTables(warehouse);
        WorkloadRunner runner = new WorkloadRunner(tables, data, ROWS);

        Measurement measurement = runner.run(workload, 1);

        assertThat(measurement.rows()).isEqualTo(ROWS);
        assertThat(measurement.seconds()).isPositive();
        // both writers get rows of every table round-robin: a file per table and writer
        assertThat(measurement.files()).isEqualTo(2L * workload.tables());
        assertThat(measurement.bytes()).isPositive();
        String prefix = BenchmarkTables.tableName(workload, 1);
        assertThat(tables.exists(DynamicRouting.tableName(prefix, 0))).isFalse();
    }

    @Test
    void theCheckNoticesARowInTheWrongTableAMissingRowAndAChangedValue() throws IOException {
        BenchmarkTables tables = new BenchmarkTables(warehouse);
        int count = 3;
        long rows = 300;
        List<Table> written = new ArrayList<>();
        for (int t = 0; t < count; t++) {
            int index = t;
            Table table =
                    tables.create("t" + t, PartitionSpec.unpartitioned(), FileFormat.PARQUET, 2);
            append(table, rows, id -> DynamicRouting.tableOf(id, count) == index, data);
            written.add(table);
        }
        DynamicTablesCheck check = new DynamicTablesCheck(data, rows);
        assertThatCode(() -> check.check(written)).doesNotThrowAnyException();

        // the rows of table 0 and table 1 swapped: same ids in all, but each in the wrong table
        assertThatThrownBy(
                        () -> check.check(List.of(written.get(1), written.get(0), written.get(2))))
                .isInstanceOf(WrongAnswerException.class);

        // one row fewer in a table
        assertThatThrownBy(() -> new DynamicTablesCheck(data, rows + 1).check(written))
                .isInstanceOf(WrongAnswerException.class)
                .hasMessageContaining("the routing sends");

        // the same ids with other values (another seed)
        Table other = tables.create("other", PartitionSpec.unpartitioned(), FileFormat.PARQUET, 2);
        append(other, rows, id -> DynamicRouting.tableOf(id, count) == 2, new BenchmarkRows(43));
        assertThatThrownBy(() -> check.check(List.of(written.get(0), written.get(1), other)))
                .isInstanceOf(WrongAnswerException.class)
                .hasMessageContaining("should be");
    }

    @Test
    void theReportComparesRowsPerCpuSecondWithTheAppend() {
        List<ResultLine> lines =
                List.of(
                        new ResultLine(
                                "append-parquet",
                                1,
                                1000,
                                1,
                                2,
                                1,
                                2,
                                1,
                                -1,
                                0.9,
                                "limit-write-parquet"),
                        new ResultLine(
                                "dynamic-100-tables",
                                1,
                                1000,
                                4,
                                200,
                                1,
                                5,
                                1,
                                -1,
                                0.25,
                                "append-parquet"));
        List<DynamicSinkComparison> comparisons =
                DynamicSinkComparison.of(WorkloadSummary.of(lines));

        assertThat(comparisons).hasSize(1);
        assertThat(comparisons.get(0).referenceRow())
                .isEqualTo("| append-parquet | 1 | 1,000 | 2 | 1,000 | 500 | 1.00x | 1.00x |\n");
        assertThat(comparisons.get(0).markdownRow())
                .isEqualTo(
                        "| dynamic-100-tables | 100 | 1,000 | 200 | 250 | 200 | 0.25x | 0.40x |\n");
        assertThat(comparisons.get(0).consoleLine())
                .isEqualTo(
                        "dynamic-100-tables (100 tables, 200 files): 250 rows/s (0.25x of"
                                + " append-parquet), 200 rows per CPU s (0.40x)\n");
        String markdown =
                BenchmarkReport.markdown(
                        SuiteOptions.parse(new String[] {"--rows", "1000", "--runs", "1"}),
                        new MachineInfo("cpu", 2, "1 GiB", "os", "kernel", "jdk"),
                        WorkloadSummary.of(lines),
                        lines,
                        "none");
        assertThat(markdown)
                .contains("## DynamicIcebergSink: one stream into many tables")
                .contains(comparisons.get(0).referenceRow() + comparisons.get(0).markdownRow());
        // without its reference no comparison is made
        assertThat(DynamicSinkComparison.of(WorkloadSummary.of(lines.subList(1, 2)))).isEmpty();
    }

    private static void append(Table table, long rows, LongPredicate ids, BenchmarkRows values)
            throws IOException {
        GenericFileWriterFactory writers = new GenericFileWriterFactory.Builder(table).build();
        DataWriter<Record> writer =
                writers.newDataWriter(
                        OutputFileFactory.builderFor(table, 1, 1).build().newOutputFile(),
                        table.spec(),
                        null);
        try (writer) {
            for (long id = 0; id < rows; id++) {
                if (ids.test(id)) {
                    writer.write(values.record(id));
                }
            }
        }
        DataFile file = writer.toDataFile();
        AppendFiles append = table.newAppend();
        append.appendFile(file);
        append.commit();
    }
}
