package dev.icebergflink.benchmarks.e2e;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The end-to-end benchmark suite: runs every workload in a fresh child JVM, round after round,
 * prints one {@link ResultLine} per run with its ratio to the reference measured in the same round,
 * runs the workloads that Apache Iceberg's own Flink connector can do through it too, each right
 * after ours ({@code reference-<workload>}, in a child JVM with that connector's class path only),
 * then prints a summary table and the comparison with Iceberg's connector, and regenerates {@code
 * docs/benchmarks.md} with its chart when {@code --docs} is given. Exits non-zero as soon as a
 * workload fails or gives a wrong answer.
 *
 * <p>Options: see {@link SuiteOptions}. The README of the benchmarks module has the command.
 */
public final class BenchmarkSuite {

    private BenchmarkSuite() {}

    public static void main(String[] args) {
        try {
            run(SuiteOptions.parse(args), System.out);
        } catch (ChildJvm.BenchmarkFailure | IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(1);
        } catch (Exception e) {
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    /**
     * Runs the suite and returns every result line (with ratios).
     *
     * @throws ChildJvm.BenchmarkFailure when a workload fails or gives a wrong answer
     */
    public static List<ResultLine> run(SuiteOptions options, PrintStream out)
            throws IOException, InterruptedException {
        boolean temporary = options.workDir() == null;
        Path workDir =
                temporary ? Files.createTempDirectory("iceberg-flink-bench") : options.workDir();
        Path warehouse = workDir.resolve("warehouse");
        Files.createDirectories(warehouse);
        Files.createDirectories(workDir.resolve("tmp"));
        if (options.jfrDir() != null) {
            Files.createDirectories(options.jfrDir());
        }
        ChildJvm children = new ChildJvm(options, warehouse, workDir.resolve("logs"));
        out.printf(
                Locale.ROOT,
                "Benchmark suite: %,d rows, %d run(s), workloads %s; work directory %s%n",
                options.rows(),
                options.runs(),
                Workload.ids(options.workloads()),
                workDir);
        List<ResultLine> lines = new ArrayList<>();
        try {
            for (int run = 1; run <= options.runs(); run++) {
                Map<String, ResultLine> round = new HashMap<>();
                for (Workload workload : options.workloads()) {
                    ResultLine line = withRatio(children.run(workload, run), workload, round);
                    round.put(workload.id(), line);
                    lines.add(line);
                    out.println(line.format());
                    out.flush();
                    if (options.references().contains(workload)) {
                        // right after ours, so both meet the machine in the same state
                        ResultLine theirs =
                                withRatio(children.runReference(workload, run), workload, round);
                        lines.add(theirs);
                        out.println(theirs.format());
                        out.flush();
                    }
                }
            }
        } finally {
            if (temporary) {
                WorkloadChild.deleteRecursively(workDir);
            }
        }
        List<WorkloadSummary> summaries = WorkloadSummary.of(lines);
        out.println();
        out.print(summaryTable(summaries));
        List<RewriteComparison> rewrites = RewriteComparison.of(summaries);
        if (!rewrites.isEmpty()) {
            out.println();
            out.println("Full scan before -> after RewriteEqualityDeletes (medians):");
            rewrites.forEach(comparison -> out.print(comparison.consoleLine()));
        }
        List<DynamicSinkComparison> dynamic = DynamicSinkComparison.of(summaries);
        if (!dynamic.isEmpty()) {
            out.println();
            out.println(
                    "DynamicIcebergSink into many tables against the one-table append (medians):");
            dynamic.forEach(comparison -> out.print(comparison.consoleLine()));
        }
        List<ConnectorComparison> connector = ConnectorComparison.of(lines);
        if (!connector.isEmpty()) {
            out.println();
            out.println(
                    "Against Iceberg's own Flink connector (rows per CPU second, medians of the"
                            + " rounds):");
            connector.forEach(comparison -> out.print(comparison.consoleLine()));
        }
        StreamingReport streaming = new StreamingReport(lines, summaries);
        String streamingLines = streaming.console();
        if (!streamingLines.isEmpty()) {
            out.println();
            out.println("Streaming workloads (medians; p99 the worst round):");
            out.print(streamingLines);
        }
        if (options.docsDir() != null) {
            BenchmarkReport.write(
                    options.docsDir(), options, MachineInfo.current(), summaries, lines);
            out.println(
                    "Wrote "
                            + options.docsDir().resolve(BenchmarkReport.MARKDOWN)
                            + " and "
                            + options.docsDir().resolve(BenchmarkReport.CHART));
        }
        return lines;
    }

    /** The line with its ratio to the reference's line of the same round, when that ran. */
    static ResultLine withRatio(ResultLine line, Workload workload, Map<String, ResultLine> round) {
        ResultLine reference =
                workload.reference() == null ? null : round.get(workload.reference());
        String referenceId = workload.reference() == null ? "-" : workload.reference();
        if (reference == null || reference.rowsPerSecond() <= 0) {
            return line.withRatio(Double.NaN, referenceId);
        }
        return line.withRatio(line.rowsPerSecond() / reference.rowsPerSecond(), referenceId);
    }

    static String summaryTable(List<WorkloadSummary> summaries) {
        StringBuilder table = new StringBuilder();
        String format = "%-24s %4s %14s %25s %9s %22s %-20s %8s %9s%n";
        table.append(
                String.format(
                        Locale.ROOT,
                        format,
                        "workload",
                        "runs",
                        "median rows/s",
                        "min-max rows/s",
                        "median s",
                        "ratio (min-max)",
                        "compared with",
                        "rss MiB",
                        "heap MiB"));
        for (WorkloadSummary s : summaries) {
            table.append(
                    String.format(
                            Locale.ROOT,
                            format,
                            s.workload().id(),
                            s.runs(),
                            String.format(Locale.ROOT, "%,.0f", s.medianRowsPerSecond()),
                            String.format(
                                    Locale.ROOT,
                                    "%,.0f-%,.0f",
                                    s.minRowsPerSecond(),
                                    s.maxRowsPerSecond()),
                            String.format(Locale.ROOT, "%.2f", s.medianSeconds()),
                            Double.isNaN(s.medianRatio())
                                    ? "-"
                                    : String.format(
                                            Locale.ROOT,
                                            "%.2f (%.2f-%.2f)",
                                            s.medianRatio(),
                                            s.minRatio(),
                                            s.maxRatio()),
                            s.workload().reference() == null ? "-" : s.workload().reference(),
                            s.peakRssMb(),
                            s.heapAfterGcMb()));
        }
        return table.toString();
    }
}
