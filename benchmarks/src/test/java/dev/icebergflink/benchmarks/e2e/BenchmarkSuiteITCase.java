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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the suite as its command does (every workload in a child JVM) at a tiny scale: a few
 * workloads, 20,000 rows, one run, and one of them also through Iceberg's own connector (a child
 * JVM of the {@code benchmarks-reference} class path), so that its launcher cannot rot; one
 * streaming workload ({@code stream-append}) keeps the streaming path and its report alive. Checks
 * the printed result lines parse and carry the right counts and ratios, and that the docs are
 * regenerated with the hand-written findings kept. No timing is asserted. The timeout only catches
 * a hung child JVM: alone the run takes under two minutes, but CI runs it next to other builds on
 * two cores.
 */
@Timeout(value = 12, unit = TimeUnit.MINUTES)
class BenchmarkSuiteITCase {

    private static final long ROWS = 20_000;

    @TempDir Path work;

    @Test
    void runsWorkloadsInChildJvmsAndRegeneratesTheDocs() throws Exception {
        Path docs = work.resolve("docs");
        Files.createDirectories(docs);
        Files.writeString(
                docs.resolve(BenchmarkReport.MARKDOWN),
                "# old\n"
                        + BenchmarkReport.FINDINGS_BEGIN
                        + "\nThe writer spends its time in X.\n"
                        + BenchmarkReport.FINDINGS_END
                        + "\nold results\n");
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
                            "limit-write-partitioned,append-parquet,upsert,"
                                    + "scan-parquet,sql-count,stream-append",
                            // one run through Iceberg's own connector keeps its launcher alive:
                            // one more child JVM, about what each of the others costs
                            "--references",
                            "append-parquet",
                            "--work-dir",
                            work.resolve("run").toString(),
                            "--docs",
                            docs.toString()
                        });
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        // ~25 s per child JVM on a quiet 2-core machine
        List<ResultLine> returned =
                BenchmarkSuite.run(options, new PrintStream(printed, true, StandardCharsets.UTF_8));

        System.out.println(printed.toString(StandardCharsets.UTF_8));
        List<ResultLine> lines =
                printed.toString(StandardCharsets.UTF_8)
                        .lines()
                        .filter(ResultLine::isResultLine)
                        .map(ResultLine::parse)
                        .collect(Collectors.toList());
        assertThat(lines.stream().map(ResultLine::format))
                .containsExactlyElementsOf(
                        returned.stream().map(ResultLine::format).collect(Collectors.toList()));
        Map<String, ResultLine> byWorkload =
                lines.stream().collect(Collectors.toMap(ResultLine::workload, line -> line));
        assertThat(lines.stream().map(ResultLine::workload))
                .as("the reference runs right after ours")
                .containsSubsequence("append-parquet", "reference-append-parquet", "upsert");
        assertThat(byWorkload.keySet())
                .containsExactlyInAnyOrder(
                        "limit-write-partitioned",
                        "append-parquet",
                        "reference-append-parquet",
                        "upsert",
                        "scan-parquet",
                        "sql-count",
                        "stream-append");
        assertThat(byWorkload.get("append-parquet").rows()).isEqualTo(ROWS);
        // Iceberg's connector wrote the same rows into a table of the same layout: two files
        // (one per writer) of the same row count, checked by its child
        ResultLine theirs = byWorkload.get("reference-append-parquet");
        assertThat(theirs.rows()).isEqualTo(ROWS);
        assertThat(theirs.files()).isEqualTo(byWorkload.get("append-parquet").files());
        assertThat(theirs.reference()).isEqualTo("limit-write-parquet");
        assertThat(byWorkload.get("limit-write-partitioned").rows()).isEqualTo(ROWS);
        // every thread's id range holds all 16 categories: a file per category and thread
        assertThat(byWorkload.get("limit-write-partitioned").files())
                .isEqualTo(16L * GenericLimits.threads());
        assertThat(byWorkload.get("scan-parquet").rows()).isEqualTo(ROWS);
        assertThat(byWorkload.get("upsert").rows()).isEqualTo(ROWS / 4);
        // the streaming path: a checkpoint every second, at least the final one committed
        ResultLine streamAppend = byWorkload.get("stream-append");
        assertThat(streamAppend.rows()).isEqualTo(ROWS);
        assertThat(streamAppend.detail("commits")).isGreaterThanOrEqualTo(1);
        assertThat(streamAppend.ratio())
                .isCloseTo(
                        streamAppend.rowsPerSecond()
                                / byWorkload.get("append-parquet").rowsPerSecond(),
                        org.assertj.core.data.Offset.offset(0.001));
        for (ResultLine line : lines) {
            assertThat(line.run()).isEqualTo(1);
            assertThat(line.seconds()).as(line.workload()).isPositive();
            assertThat(line.files()).as(line.workload()).isPositive();
            assertThat(line.bytes()).as(line.workload()).isPositive();
            assertThat(line.peakRssMb()).as(line.workload()).isPositive();
        }
        // a ratio where the reference ran in the same round, none where it did not
        assertThat(byWorkload.get("upsert").reference()).isEqualTo("append-parquet");
        assertThat(byWorkload.get("upsert").ratio())
                .isCloseTo(
                        byWorkload.get("upsert").rowsPerSecond()
                                / byWorkload.get("append-parquet").rowsPerSecond(),
                        org.assertj.core.data.Offset.offset(0.001));
        assertThat(byWorkload.get("append-parquet").ratio()).isNaN();
        // every child warmed up on a tenth of the rows first, in a warehouse it then deleted
        for (String workload : byWorkload.keySet()) {
            if (workload.startsWith(Workload.CONNECTOR_REFERENCE_PREFIX)) {
                continue; // below
            }
            assertThat(Files.readString(work.resolve("run/logs/" + workload + "-r1.log")))
                    .contains(
                            "warm-up of "
                                    + workload
                                    + ": "
                                    // the upserts count the quarter of the rows they rewrite
                                    + byWorkload.get(workload).rows() / 10
                                    + " rows in");
        }
        try (java.util.stream.Stream<Path> left = Files.list(work.resolve("run"))) {
            assertThat(left.map(path -> path.getFileName().toString()))
                    .noneMatch(name -> name.contains("-warmup-"));
        }
        assertThat(byWorkload.get("scan-parquet").ratio()).isNaN();

        String markdown = Files.readString(docs.resolve(BenchmarkReport.MARKDOWN));
        ConnectorComparison comparison =
                ConnectorComparison.of(lines, Workload.APPEND_PARQUET).orElseThrow();
        assertThat(comparison.cpuRatios()).hasSize(1);
        assertThat(comparison.cpuRatios()[0])
                .isCloseTo(
                        (ROWS / byWorkload.get("append-parquet").cpuSeconds())
                                / (ROWS / theirs.cpuSeconds()),
                        org.assertj.core.data.Offset.offset(0.001));
        assertThat(markdown)
                .contains("## Against Iceberg's own Flink connector")
                .contains(comparison.markdownRow())
                .contains(theirs.format());
        assertThat(Files.readString(work.resolve("run/logs/reference-append-parquet-r1.log")))
                .contains("warm-up of reference-append-parquet: " + ROWS / 10 + " rows in");
        assertThat(markdown)
                .contains("The writer spends its time in X.")
                .doesNotContain("old results")
                .contains("| append-parquet | 1 | 20,000 |")
                .contains("## Streaming workloads")
                .contains("| stream-append | 20,000 |")
                .contains(lines.get(0).format());
        assertThat(Files.readString(docs.resolve(BenchmarkReport.CHART)))
                .startsWith("<svg")
                .contains(">append-parquet<")
                .contains("Iceberg's connector per CPU s")
                .endsWith("</svg>\n");
    }
}
