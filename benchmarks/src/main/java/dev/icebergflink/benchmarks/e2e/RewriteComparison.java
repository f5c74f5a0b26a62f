package dev.icebergflink.benchmarks.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The read of an upserted table before and after {@code RewriteEqualityDeletes}, side by side: the
 * summaries of an {@code eqdelete-scan-*} workload and of its {@code eqdelete-rewritten-scan-*}
 * workload, with the speed-up in rows/s (the median of the per-round ratios) and in rows per CPU
 * second. The suite prints it after its summary and the report gives it a table of its own, since
 * the point of these workloads is the pair, not either read alone.
 *
 * @param before the read with the equality deletes live
 * @param after the read after the conversion
 */
record RewriteComparison(WorkloadSummary before, WorkloadSummary after) {

    /** One comparison per rewritten-scan workload whose before-workload ran too, in suite order. */
    static List<RewriteComparison> of(List<WorkloadSummary> summaries) {
        List<RewriteComparison> comparisons = new ArrayList<>();
        for (WorkloadSummary after : summaries) {
            if (after.workload().kind() != Workload.Kind.EQDELETE_REWRITTEN_SCAN) {
                continue;
            }
            for (WorkloadSummary before : summaries) {
                if (before.workload().id().equals(after.workload().reference())) {
                    comparisons.add(new RewriteComparison(before, after));
                }
            }
        }
        return comparisons;
    }

    /** The table's format version. */
    int formatVersion() {
        return after.workload().formatVersion();
    }

    /** After/before in rows/s: the median of the ratios of the rounds. */
    double speedUp() {
        return after.medianRatio();
    }

    /** The rows one CPU second of the child process read: the median rows over the median CPU s. */
    static double rowsPerCpuSecond(WorkloadSummary summary) {
        return summary.rowsPerCpuSecond();
    }

    /** After/before in rows per CPU second. */
    double cpuSpeedUp() {
        double beforeRate = rowsPerCpuSecond(before);
        return beforeRate > 0 ? rowsPerCpuSecond(after) / beforeRate : Double.NaN;
    }

    /** The comparison as a row of the report's table. */
    String markdownRow() {
        return String.format(
                Locale.ROOT,
                "| v%d | %,d | %,.0f | %,.0f | %s | %,.0f | %,.0f | %s |%n",
                formatVersion(),
                after.rows(),
                before.medianRowsPerSecond(),
                after.medianRowsPerSecond(),
                times(speedUp()),
                rowsPerCpuSecond(before),
                rowsPerCpuSecond(after),
                times(cpuSpeedUp()));
    }

    /** The comparison as one line of the suite's console output. */
    String consoleLine() {
        return String.format(
                Locale.ROOT,
                "format v%d: %,.0f -> %,.0f rows/s (%s), %,.0f -> %,.0f rows per CPU s (%s)%n",
                formatVersion(),
                before.medianRowsPerSecond(),
                after.medianRowsPerSecond(),
                times(speedUp()),
                rowsPerCpuSecond(before),
                rowsPerCpuSecond(after),
                times(cpuSpeedUp()));
    }

    private static String times(double ratio) {
        return Double.isNaN(ratio) ? "–" : String.format(Locale.ROOT, "%.2fx", ratio);
    }
}
