package dev.icebergflink.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The smoke run of the second reference: the suite runs {@code append-parquet} and, right after it,
 * the same workload through Apache Iceberg's own Flink connector ({@code reference-append-parquet},
 * a child JVM of the {@code benchmarks-reference} class path) at 20,000 rows, and writes the docs.
 * Checks both result lines (the same rows, a table of the same layout), the per-CPU-second
 * comparison, the report's section and the chart's mark. No timing is asserted.
 *
 * <p>Opt-in ({@code -Dbench.reference.smoke=true}): the reference child costs about as much as one
 * of the suite's children, some 25 seconds on a quiet 2-core machine, more than the CI budget
 * leaves for it. CI still builds the launcher against Iceberg's connector on every run; this test
 * proves that it also runs:
 *
 * <pre>
 * ./mvnw -pl benchmarks-reference,benchmarks verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
 *   -Dit.test=ConnectorReferenceITCase -Dbench.reference.smoke=true
 * </pre>
 */
@EnabledIfSystemProperty(named = "bench.reference.smoke", matches = "true")
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class ConnectorReferenceITCase {

    private static final long ROWS = 20_000;

    @TempDir Path work;

    @Test
    void runsTheWorkloadThroughIcebergsConnectorRightAfterOursAndReportsBoth() throws Exception {
        Path docs = work.resolve("docs");
        SuiteOptions options =
                SuiteOptions.parse(
                        new String[] {
                            "--rows",
                            String.valueOf(ROWS),
                            "--runs",
                            "1",
                            "--heap",
                            "768m",
                            "--workloads",
                            "append-parquet",
                            "--references",
                            "append-parquet",
                            "--work-dir",
                            work.resolve("run").toString(),
                            "--docs",
                            docs.toString()
                        });
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        List<ResultLine> lines =
                BenchmarkSuite.run(options, new PrintStream(printed, true, StandardCharsets.UTF_8));
        System.out.println(printed.toString(StandardCharsets.UTF_8));

        assertThat(lines.stream().map(ResultLine::workload))
                .as("the reference runs right after ours")
                .containsExactly("append-parquet", "reference-append-parquet");
        Map<String, ResultLine> byWorkload =
                lines.stream().collect(Collectors.toMap(ResultLine::workload, line -> line));
        ResultLine ours = byWorkload.get("append-parquet");
        ResultLine theirs = byWorkload.get("reference-append-parquet");
        // Iceberg's connector wrote the same rows (its child checked the table's record count)
        // into a table of the same layout: one file per writer
        assertThat(theirs.rows()).isEqualTo(ROWS).isEqualTo(ours.rows());
        assertThat(theirs.files()).isEqualTo(ours.files()).isEqualTo(2);
        assertThat(theirs.bytes()).isPositive();
        assertThat(theirs.cpuSeconds()).isPositive();
        assertThat(theirs.peakRssMb()).isPositive();
        assertThat(theirs.reference()).isEqualTo("limit-write-parquet");
        assertThat(Files.readString(work.resolve("run/logs/reference-append-parquet-r1.log")))
                .contains("warm-up of reference-append-parquet: " + ROWS / 10 + " rows in");
        try (java.util.stream.Stream<Path> left = Files.list(work.resolve("run"))) {
            assertThat(left.map(path -> path.getFileName().toString()))
                    .noneMatch(name -> name.contains("-warmup-"));
        }

        ConnectorComparison comparison =
                ConnectorComparison.of(lines, Workload.APPEND_PARQUET).orElseThrow();
        assertThat(comparison.cpuRatios())
                .containsExactly(
                        new double[] {(ROWS / ours.cpuSeconds()) / (ROWS / theirs.cpuSeconds())},
                        Offset.offset(1e-9));
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("Against Iceberg's own Flink connector")
                .contains(comparison.consoleLine());
        String markdown = Files.readString(docs.resolve(BenchmarkReport.MARKDOWN));
        assertThat(markdown)
                .contains("## Against Iceberg's own Flink connector")
                .contains(comparison.markdownRow())
                .contains(theirs.format());
        assertThat(Files.readString(docs.resolve(BenchmarkReport.CHART)))
                .contains("stroke=\"#f57c00\"")
                .contains("Iceberg's connector per CPU s");
    }
}
