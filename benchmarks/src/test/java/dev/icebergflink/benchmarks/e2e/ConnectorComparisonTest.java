package dev.icebergflink.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The comparison with Iceberg's own connector: rows per CPU second paired round by round, its
 * medians, its row in the report, the report's column and section, and the chart's marks.
 */
class ConnectorComparisonTest {

    private static ResultLine line(String workload, int run, double seconds, double cpuSeconds) {
        return new ResultLine(
                workload, run, 1000, seconds, 2, 1, cpuSeconds, 1, -1, Double.NaN, "-");
    }

    /** Three rounds: limit, ours, theirs, in that order, as the suite runs them. */
    private static final List<ResultLine> LINES =
            List.of(
                    line("limit-write-parquet", 1, 1, 1),
                    line("append-parquet", 1, 1, 2),
                    line("reference-append-parquet", 1, 2, 4),
                    line("limit-write-parquet", 2, 1, 1),
                    line("append-parquet", 2, 1, 2),
                    line("reference-append-parquet", 2, 2, 5),
                    line("limit-write-parquet", 3, 1, 1),
                    line("append-parquet", 3, 1, 2.5),
                    line("reference-append-parquet", 3, 2, 2.5),
                    // a workload whose reference did not run has no comparison
                    line("scan-parquet", 1, 1, 1));

    @Test
    void pairsEachRoundsRunsAndTakesTheMedianOfTheirRatiosPerCpuSecond() {
        List<ConnectorComparison> comparisons = ConnectorComparison.of(LINES);

        assertThat(comparisons).hasSize(1);
        ConnectorComparison comparison = comparisons.get(0);
        assertThat(comparison.workload()).isEqualTo(Workload.APPEND_PARQUET);
        // ours 500, 500, 400 rows per CPU s; theirs 250, 200, 400
        assertThat(comparison.cpuRatios()).containsExactly(2.0, 2.5, 1.0);
        assertThat(comparison.medianCpuRatio()).isEqualTo(2.0);
        // the limit 1000 rows per CPU s in every round
        assertThat(comparison.limitCpuRatios()).containsExactly(0.5, 0.5, 0.4);
        assertThat(comparison.theirLimitCpuRatios()).containsExactly(0.25, 0.2, 0.4);
        assertThat(comparison.markdownRow())
                .isEqualTo(
                        "| append-parquet | `IcebergSink` | 1,000 | 500 | 250 | **2.00x"
                                + " (1.00–2.50)** | 0.50x (0.40–0.50) | 0.25x (0.20–0.40) |"
                                + " limit-write-parquet | 1,000 | 500 | – | – | – |\n");
        assertThat(comparison.consoleLine())
                .isEqualTo(
                        "append-parquet           ours 500 rows per CPU s, Iceberg's connector"
                                + " 250: ours / Iceberg's connector 2.00x (1.00–2.50); ours / limit"
                                + " 0.50x (0.40–0.50)\n");
    }

    @Test
    void theReportAndTheChartShowBothReferences() {
        List<ResultLine> lines = LINES;
        List<WorkloadSummary> summaries = WorkloadSummary.of(lines);
        String markdown =
                BenchmarkReport.markdown(
                        SuiteOptions.parse(new String[] {"--rows", "1000", "--runs", "3"}),
                        new MachineInfo("cpu", 2, "1 GiB", "os", "kernel", "jdk"),
                        summaries,
                        lines,
                        "none");

        // the Results table: ours / limit next to ours / Iceberg's connector
        assertThat(markdown)
                .contains("| compared with | ours / Iceberg's connector (per CPU s) |")
                .contains(
                        "| append-parquet | 3 | 1,000 | 1,000 | 1,000–1,000 | 1.00 | – |"
                                + " limit-write-parquet | 2.00x (1.00–2.50) |")
                .contains("| scan-parquet | 1 | 1,000 |")
                .contains("## Against Iceberg's own Flink connector")
                .contains("iceberg-flink-runtime-2.1:" + BenchmarkReport.REFERENCE_VERSION)
                .contains(ConnectorComparison.markdownHeader())
                .contains(ConnectorComparison.of(lines).get(0).markdownRow())
                .contains("BENCH workload=reference-append-parquet run=1");
        // the reference runs get no summary row of their own: they are the comparison
        assertThat(summaries)
                .extracting(s -> s.workload().id())
                .doesNotContain("reference-append-parquet");

        String svg = ThroughputChart.svg(summaries, ConnectorComparison.of(lines), "title");
        assertThat(svg)
                .contains("orange mark: Iceberg's connector")
                .contains("stroke=\"#f57c00\"")
                .contains("<title>Iceberg's connector: 500 rows/s</title>")
                .contains("1.0k rows/s; 2.00x Iceberg's connector per CPU s");
        // without runs of Iceberg's connector neither the section nor the marks appear
        List<ResultLine> oursOnly =
                lines.stream().filter(l -> !l.workload().startsWith("reference-")).toList();
        assertThat(
                        BenchmarkReport.markdown(
                                SuiteOptions.parse(new String[] {"--rows", "1000"}),
                                new MachineInfo("cpu", 2, "1 GiB", "os", "kernel", "jdk"),
                                WorkloadSummary.of(oursOnly),
                                oursOnly,
                                "none"))
                .doesNotContain("## Against Iceberg's own Flink connector");
        assertThat(ThroughputChart.svg(WorkloadSummary.of(oursOnly), List.of(), "title"))
                .doesNotContain("#f57c00");
    }

    @Test
    void upsertHeapIsComparedRoundByRoundWithTheReferenceUpsert() {
        List<ResultLine> lines =
                List.of(
                        heap("upsert", 1, 300, 1500),
                        heap("reference-upsert", 1, 1200, 2300),
                        heap("upsert-unique-keys", 1, 200, 1400),
                        heap("upsert", 2, 250, 1400),
                        heap("reference-upsert", 2, 500, 2000),
                        heap("upsert-unique-keys", 2, -1, 1400));

        List<UpsertHeapComparison> comparisons = UpsertHeapComparison.of(lines);

        assertThat(comparisons)
                .extracting(UpsertHeapComparison::workload)
                .containsExactly(Workload.UPSERT, Workload.UPSERT_UNIQUE_KEYS);
        // 300 / 1200 and 250 / 500; a round without a collection has no ratio
        assertThat(comparisons.get(0).ratios()).containsExactly(0.25, 0.5);
        assertThat(comparisons.get(1).ratios()).containsExactly(200.0 / 1200);
        assertThat(comparisons.get(0).markdownRow())
                .isEqualTo(
                        "| upsert | 300 | 1,200 | **0.38x (0.25–0.50)** | ≤ 0.25x | **no** | 1,500"
                                + " | 2,300 |\n");
        assertThat(comparisons.get(1).markdownRow())
                .isEqualTo(
                        "| upsert-unique-keys | 200 | 1,200 | **0.17x** | ≤ 0.25x | yes | 1,400 | 2,300 |\n");
        assertThat(
                        BenchmarkReport.markdown(
                                SuiteOptions.parse(new String[] {"--rows", "1000", "--runs", "2"}),
                                new MachineInfo("cpu", 2, "1 GiB", "os", "kernel", "jdk"),
                                WorkloadSummary.of(lines),
                                lines,
                                "none"))
                .contains("## Upsert heap against Iceberg's own Flink connector")
                .contains(UpsertHeapComparison.markdownHeader())
                .contains(comparisons.get(0).markdownRow())
                .contains("heap after GC MiB |");
        // without the reference run there is nothing to compare with
        assertThat(UpsertHeapComparison.of(lines.subList(0, 1))).isEmpty();
    }

    private static ResultLine heap(String workload, int run, long heapMb, long rssMb) {
        return new ResultLine(workload, run, 1000, 1, 2, 1, 1, rssMb, heapMb, Double.NaN, "-");
    }
}
