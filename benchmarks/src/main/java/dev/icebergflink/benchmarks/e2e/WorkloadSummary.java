package dev.icebergflink.benchmarks.e2e;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The runs of one workload reduced to what the summary table shows: medians and min–max of rows/s,
 * the median time and ratio, the last run's files and bytes, the median CPU seconds, the highest
 * peak RSS and the highest heap after a garbage collection.
 */
record WorkloadSummary(
        Workload workload,
        int runs,
        long rows,
        double medianRowsPerSecond,
        double minRowsPerSecond,
        double maxRowsPerSecond,
        double medianSeconds,
        double medianRatio,
        double minRatio,
        double maxRatio,
        long files,
        long bytes,
        double medianCpuSeconds,
        long peakRssMb,
        long heapAfterGcMb) {

    /** One summary per workload that has result lines, in the suite's workload order. */
    static List<WorkloadSummary> of(List<ResultLine> lines) {
        Map<Workload, List<ResultLine>> byWorkload = new LinkedHashMap<>();
        for (Workload workload : Workload.values()) {
            for (ResultLine line : lines) {
                if (line.workload().equals(workload.id())) {
                    byWorkload.computeIfAbsent(workload, w -> new ArrayList<>()).add(line);
                }
            }
        }
        List<WorkloadSummary> summaries = new ArrayList<>();
        byWorkload.forEach((workload, runs) -> summaries.add(of(workload, runs)));
        return summaries;
    }

    private static WorkloadSummary of(Workload workload, List<ResultLine> runs) {
        ResultLine last = runs.get(runs.size() - 1);
        double[] ratios =
                runs.stream()
                        .mapToDouble(ResultLine::ratio)
                        .filter(r -> !Double.isNaN(r))
                        .toArray();
        return new WorkloadSummary(
                workload,
                runs.size(),
                last.rows(),
                median(runs, ResultLine::rowsPerSecond),
                runs.stream().mapToDouble(ResultLine::rowsPerSecond).min().orElse(0),
                runs.stream().mapToDouble(ResultLine::rowsPerSecond).max().orElse(0),
                median(runs, ResultLine::seconds),
                ratios.length == 0 ? Double.NaN : median(ratios),
                ratios.length == 0 ? Double.NaN : Arrays.stream(ratios).min().getAsDouble(),
                ratios.length == 0 ? Double.NaN : Arrays.stream(ratios).max().getAsDouble(),
                last.files(),
                last.bytes(),
                median(runs, ResultLine::cpuSeconds),
                runs.stream().mapToLong(ResultLine::peakRssMb).max().orElse(-1),
                runs.stream().mapToLong(ResultLine::heapAfterGcMb).max().orElse(-1));
    }

    private static double median(List<ResultLine> runs, ToDoubleFunction<ResultLine> value) {
        return median(runs.stream().mapToDouble(value).toArray());
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /**
     * The rows one CPU second of the child process handled: the rows over the median CPU seconds of
     * the measured part; 0 when no CPU time was measured.
     */
    double rowsPerCpuSecond() {
        return medianCpuSeconds > 0 ? rows / medianCpuSeconds : 0;
    }

    /** Whether the workload has a target and its median ratio meets it. */
    boolean meetsTarget() {
        return workload.target() > 0
                && !Double.isNaN(medianRatio)
                && medianRatio >= workload.target();
    }
}
