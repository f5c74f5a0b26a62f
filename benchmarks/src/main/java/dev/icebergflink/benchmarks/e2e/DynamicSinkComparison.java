package dev.icebergflink.benchmarks.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A {@code dynamic-*} workload (one stream spread by {@code DynamicIcebergSink} over many tables)
 * next to its reference, the single-table Parquet append of the same rows: rows/s with the median
 * of the rounds' ratios, and rows per CPU second with their ratio. The suite prints it after its
 * summary and the report gives it a table of its own, because rows per CPU second is the fairer
 * comparison on a shared machine and the point of these workloads is the cost of many tables
 * against one.
 *
 * @param reference the summary of the reference ({@code append-parquet})
 * @param dynamic the summary of the dynamic sink's workload
 */
record DynamicSinkComparison(WorkloadSummary reference, WorkloadSummary dynamic) {

    /** One comparison per dynamic workload whose reference ran too, in suite order. */
    static List<DynamicSinkComparison> of(List<WorkloadSummary> summaries) {
        List<DynamicSinkComparison> comparisons = new ArrayList<>();
        for (WorkloadSummary dynamic : summaries) {
            if (dynamic.workload().kind() != Workload.Kind.DYNAMIC_APPEND) {
                continue;
            }
            for (WorkloadSummary reference : summaries) {
                if (reference.workload().id().equals(dynamic.workload().reference())) {
                    comparisons.add(new DynamicSinkComparison(reference, dynamic));
                }
            }
        }
        return comparisons;
    }

    /** Dynamic/reference in rows/s: the median of the ratios of the rounds. */
    double ratio() {
        return dynamic.medianRatio();
    }

    /** Dynamic/reference in rows per CPU second (of the medians). */
    double cpuRatio() {
        double referenceRate = reference.rowsPerCpuSecond();
        return referenceRate > 0 ? dynamic.rowsPerCpuSecond() / referenceRate : Double.NaN;
    }

    /** The header of the report's table, ending with its separator line. */
    static String markdownHeader() {
        return "| workload | tables | rows | files | median rows/s | rows per CPU s | ratio (rows/s)"
                + " | ratio (rows per CPU s) |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|\n";
    }

    /** The reference as the first row of the report's table. */
    String referenceRow() {
        return row(reference, "1.00x", "1.00x");
    }

    /** The comparison as a row of the report's table. */
    String markdownRow() {
        return row(dynamic, times(ratio()), times(cpuRatio()));
    }

    private static String row(WorkloadSummary summary, String ratio, String cpuRatio) {
        return String.format(
                Locale.ROOT,
                "| %s | %d | %,d | %d | %,.0f | %,.0f | %s | %s |%n",
                summary.workload().id(),
                summary.workload().tables(),
                summary.rows(),
                summary.files(),
                summary.medianRowsPerSecond(),
                summary.rowsPerCpuSecond(),
                ratio,
                cpuRatio);
    }

    /** The comparison as one line of the suite's console output. */
    String consoleLine() {
        return String.format(
                Locale.ROOT,
                "%s (%d tables, %d files): %,.0f rows/s (%s of %s), %,.0f rows per CPU s (%s)%n",
                dynamic.workload().id(),
                dynamic.workload().tables(),
                dynamic.files(),
                dynamic.medianRowsPerSecond(),
                times(ratio()),
                reference.workload().id(),
                dynamic.rowsPerCpuSecond(),
                times(cpuRatio()));
    }

    private static String times(double ratio) {
        return Double.isNaN(ratio) ? "–" : String.format(Locale.ROOT, "%.2fx", ratio);
    }
}
