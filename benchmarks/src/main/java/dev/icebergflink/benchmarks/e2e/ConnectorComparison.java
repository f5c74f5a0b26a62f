package dev.icebergflink.benchmarks.e2e;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One workload against its run through Apache Iceberg's own Flink connector ({@code
 * reference-<workload>}, the second reference of the suite next to the generic limits). The
 * comparison is rows per CPU second: the rows a run handled over the CPU time of its child process
 * over the measured part, which a shared machine moves much less than wall time. Each round pairs
 * our run with the reference run right after it (ours, theirs, ours, theirs, ...); the ratio is the
 * median of the rounds' ratios, with their min–max.
 *
 * @param workload our workload
 * @param ours our runs, one per round
 * @param theirs the runs through Iceberg's connector, one per round
 * @param limits the runs of the workload's limit (its reference), one per round; empty when it did
 *     not run
 */
record ConnectorComparison(
        Workload workload,
        List<ResultLine> ours,
        List<ResultLine> theirs,
        List<ResultLine> limits) {

    /** One comparison per workload with both our and Iceberg's connector's runs, in suite order. */
    static List<ConnectorComparison> of(List<ResultLine> lines) {
        List<ConnectorComparison> comparisons = new ArrayList<>();
        for (Workload workload : Workload.values()) {
            List<ResultLine> theirs = linesOf(lines, workload.connectorReferenceId());
            List<ResultLine> ours = linesOf(lines, workload.id());
            if (theirs.isEmpty() || ours.isEmpty()) {
                continue;
            }
            List<ResultLine> limits =
                    workload.reference() == null ? List.of() : linesOf(lines, workload.reference());
            comparisons.add(new ConnectorComparison(workload, ours, theirs, limits));
        }
        return comparisons;
    }

    /** The comparison of one workload, if both sides ran. */
    static Optional<ConnectorComparison> of(List<ResultLine> lines, Workload workload) {
        return of(lines).stream().filter(c -> c.workload() == workload).findFirst();
    }

    private static List<ResultLine> linesOf(List<ResultLine> lines, String id) {
        return lines.stream().filter(line -> line.workload().equals(id)).toList();
    }

    /** Rows per CPU second of a run; NaN when it measured no CPU time. */
    static double rowsPerCpuSecond(ResultLine line) {
        return line.cpuSeconds() > 0 ? line.rows() / line.cpuSeconds() : Double.NaN;
    }

    /** Ours over Iceberg's connector in rows per CPU second, one per round both ran in. */
    double[] cpuRatios() {
        return pairedRatios(ours, theirs);
    }

    /** Ours over the limit in rows per CPU second, one per round both ran in. */
    double[] limitCpuRatios() {
        return pairedRatios(ours, limits);
    }

    /** Iceberg's connector over the limit in rows per CPU second, one per round both ran in. */
    double[] theirLimitCpuRatios() {
        return pairedRatios(theirs, limits);
    }

    private static double[] pairedRatios(List<ResultLine> top, List<ResultLine> bottom) {
        List<Double> ratios = new ArrayList<>();
        for (ResultLine a : top) {
            for (ResultLine b : bottom) {
                if (a.run() == b.run()) {
                    double ratio = rowsPerCpuSecond(a) / rowsPerCpuSecond(b);
                    if (!Double.isNaN(ratio) && !Double.isInfinite(ratio)) {
                        ratios.add(ratio);
                    }
                }
            }
        }
        return ratios.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** The median of ours over Iceberg's connector in rows per CPU second; NaN when unknown. */
    double medianCpuRatio() {
        return median(cpuRatios());
    }

    static double median(double[] values) {
        return values.length == 0 ? Double.NaN : WorkloadSummary.median(values);
    }

    /** The median of the runs' rows per CPU second. */
    static double medianRowsPerCpuSecond(List<ResultLine> runs) {
        return median(
                runs.stream()
                        .mapToDouble(ConnectorComparison::rowsPerCpuSecond)
                        .filter(v -> !Double.isNaN(v))
                        .toArray());
    }

    /** The median of the runs' rows per second. */
    static double medianRowsPerSecond(List<ResultLine> runs) {
        return median(runs.stream().mapToDouble(ResultLine::rowsPerSecond).toArray());
    }

    /** A ratio as "1.23x (1.10–1.31)", or "1.23x" for one round, or "–". */
    static String times(double[] ratios) {
        if (ratios.length == 0) {
            return "–";
        }
        double median = median(ratios);
        if (ratios.length == 1) {
            return String.format(Locale.ROOT, "%.2fx", median);
        }
        return String.format(
                Locale.ROOT,
                "%.2fx (%.2f–%.2f)",
                median,
                Arrays.stream(ratios).min().getAsDouble(),
                Arrays.stream(ratios).max().getAsDouble());
    }

    /** The header of the report's table, ending with its separator line. */
    static String markdownHeader() {
        return "| workload | Iceberg's connector runs | rows | ours rows per CPU s | Iceberg's"
                + " connector rows per CPU s | **ours / Iceberg's connector** (per CPU s) | ours /"
                + " limit (per CPU s) | Iceberg's connector / limit (per CPU s) | limit | ours"
                + " rows/s | Iceberg's connector rows/s | ours heap after GC MiB | Iceberg's"
                + " connector heap after GC MiB | ours / Iceberg's connector (heap after GC) |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|\n";
    }

    /** The comparison as a row of the report's table. */
    String markdownRow() {
        return String.format(
                Locale.ROOT,
                "| %s | %s | %,d | %,.0f | %,.0f | **%s** | %s | %s | %s | %,.0f | %,.0f | %s |"
                        + " %s | %s |%n",
                workload.id(),
                connectorPart(workload),
                theirs.get(theirs.size() - 1).rows(),
                medianRowsPerCpuSecond(ours),
                medianRowsPerCpuSecond(theirs),
                times(cpuRatios()),
                times(limitCpuRatios()),
                times(theirLimitCpuRatios()),
                workload.reference() == null ? "–" : workload.reference(),
                medianRowsPerSecond(ours),
                medianRowsPerSecond(theirs),
                BenchmarkReport.mib(maxHeapAfterGcMb(ours)),
                BenchmarkReport.mib(maxHeapAfterGcMb(theirs)),
                times(heapRatios(ours, theirs)));
    }

    /** The highest heap after a garbage collection of the runs in MiB; -1 when none reported. */
    static long maxHeapAfterGcMb(List<ResultLine> runs) {
        return runs.stream().mapToLong(ResultLine::heapAfterGcMb).max().orElse(-1);
    }

    /**
     * Ours over theirs in heap after a garbage collection, one per round both ran in and reported
     * one (below 1: ours keeps less heap).
     */
    static double[] heapRatios(List<ResultLine> ours, List<ResultLine> theirs) {
        List<Double> ratios = new ArrayList<>();
        for (ResultLine a : ours) {
            for (ResultLine b : theirs) {
                if (a.run() == b.run() && a.heapAfterGcMb() >= 0 && b.heapAfterGcMb() > 0) {
                    ratios.add((double) a.heapAfterGcMb() / b.heapAfterGcMb());
                }
            }
        }
        return ratios.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** The comparison as one line of the suite's console output. */
    String consoleLine() {
        return String.format(
                Locale.ROOT,
                "%-24s ours %,.0f rows per CPU s, Iceberg's connector %,.0f: ours / Iceberg's"
                        + " connector %s; ours / limit %s%n",
                workload.id(),
                medianRowsPerCpuSecond(ours),
                medianRowsPerCpuSecond(theirs),
                times(cpuRatios()),
                times(limitCpuRatios()));
    }

    /** What of Iceberg's connector the workload's reference run uses. */
    static String connectorPart(Workload workload) {
        switch (workload.kind()) {
            case APPEND:
                return "`IcebergSink`";
            case APPEND_PARTITIONED:
                return "`IcebergSink`, hash distribution";
            case UPSERT:
                return "`FlinkSink`, `upsert(true)`, `equalityFieldColumns(id)`";
            case SCAN:
                return "`IcebergSource`";
            case SCAN_PROJECTED_FILTERED:
                return "`IcebergSource`, `project`, `filters`";
            case SQL_INSERT:
            case SQL_COUNT:
            case SQL_FILTER:
                return "its SQL catalog, defaults";
            case STREAM_APPEND:
                return "`IcebergSink`, streaming, checkpoint every 1 s";
            case STREAM_UPSERT:
                return "`FlinkSink`, `upsert(true)`, streaming, checkpoint every 1 s";
            case STREAM_FRESHNESS:
                return "`IcebergSink` + `IcebergSource` `streaming(true)`, `monitorInterval` 1 s";
            default:
                return "–";
        }
    }
}
