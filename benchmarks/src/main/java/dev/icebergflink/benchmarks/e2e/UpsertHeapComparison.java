package dev.icebergflink.benchmarks.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The heap an upsert workload keeps against the same upsert through Apache Iceberg's own Flink
 * connector ({@code reference-upsert}): the largest heap occupancy right after a garbage collection
 * in the measured part, ours over theirs round by round. Both upsert workloads are compared with
 * the one reference run, since {@code upsert-unique-keys} does the same update and Iceberg's
 * connector has no counterpart of its promise. The target is {@link #TARGET}.
 *
 * @param workload our upsert workload
 * @param ours its runs, one per round
 * @param theirs the runs of {@code reference-upsert}, one per round
 */
record UpsertHeapComparison(Workload workload, List<ResultLine> ours, List<ResultLine> theirs) {

    /** The batch upsert's heap after GC is at most this share of Iceberg's connector's. */
    static final double TARGET = 0.25;

    /** One comparison per upsert workload that ran next to {@code reference-upsert}. */
    static List<UpsertHeapComparison> of(List<ResultLine> lines) {
        List<ResultLine> theirs = linesOf(lines, Workload.UPSERT.connectorReferenceId());
        List<UpsertHeapComparison> comparisons = new ArrayList<>();
        if (theirs.isEmpty()) {
            return comparisons;
        }
        for (Workload workload : Workload.values()) {
            if (workload.kind() != Workload.Kind.UPSERT) {
                continue;
            }
            List<ResultLine> ours = linesOf(lines, workload.id());
            if (!ours.isEmpty()) {
                comparisons.add(new UpsertHeapComparison(workload, ours, theirs));
            }
        }
        return comparisons;
    }

    private static List<ResultLine> linesOf(List<ResultLine> lines, String id) {
        return lines.stream().filter(line -> line.workload().equals(id)).toList();
    }

    /** Ours over theirs in heap after GC, one per round both ran in. */
    double[] ratios() {
        return ConnectorComparison.heapRatios(ours, theirs);
    }

    /** The header of the report's table, ending with its separator line. */
    static String markdownHeader() {
        return "| workload | ours heap after GC MiB | Iceberg's connector heap after GC MiB |"
                + " **ours / Iceberg's connector** | target | met | ours peak RSS MiB | Iceberg's"
                + " connector peak RSS MiB |\n"
                + "|---|---:|---:|---:|---:|---|---:|---:|\n";
    }

    /** The comparison as a row of the report's table. */
    String markdownRow() {
        double[] ratios = ratios();
        double median = ConnectorComparison.median(ratios);
        return String.format(
                Locale.ROOT,
                "| %s | %s | %s | **%s** | ≤ %.2fx | %s | %s | %s |%n",
                workload.id(),
                BenchmarkReport.mib(ConnectorComparison.maxHeapAfterGcMb(ours)),
                BenchmarkReport.mib(ConnectorComparison.maxHeapAfterGcMb(theirs)),
                ConnectorComparison.times(ratios),
                TARGET,
                Double.isNaN(median) ? "not measured" : median <= TARGET ? "yes" : "**no**",
                BenchmarkReport.mib(
                        ours.stream().mapToLong(ResultLine::peakRssMb).max().orElse(-1)),
                BenchmarkReport.mib(
                        theirs.stream().mapToLong(ResultLine::peakRssMb).max().orElse(-1)));
    }
}
