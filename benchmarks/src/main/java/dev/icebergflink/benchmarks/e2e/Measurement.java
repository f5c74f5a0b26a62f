package dev.icebergflink.benchmarks.e2e;

/**
 * What one workload run measured, before the suite relates it to a reference.
 *
 * @param rows the rows processed
 * @param seconds the measured time: a Flink job's net runtime, or the wall time of a generic limit
 * @param cpuSeconds the process CPU time spent over the measured part
 * @param files the files written or read
 * @param bytes their size
 */
record Measurement(long rows, double seconds, double cpuSeconds, long files, long bytes) {

    /** Starts measuring wall time and process CPU time now. */
    static Stopwatch start() {
        return new Stopwatch(System.nanoTime(), ProcessStats.cpuNanos());
    }

    /** A started measurement; {@link #elapsedSeconds()} and {@link #cpuSeconds()} read it. */
    record Stopwatch(long startNanos, long startCpuNanos) {
        double elapsedSeconds() {
            return (System.nanoTime() - startNanos) / 1e9;
        }

        double cpuSeconds() {
            return (ProcessStats.cpuNanos() - startCpuNanos) / 1e9;
        }
    }
}
