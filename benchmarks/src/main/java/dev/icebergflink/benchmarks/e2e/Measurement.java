package dev.icebergflink.benchmarks.e2e;

import java.util.Map;

/**
 * What one workload run measured, before the suite relates it to a reference.
 *
 * @param rows the rows processed
 * @param span the time, CPU time and peak memory of the measured part
 * @param files the files written or read
 * @param bytes their size
 * @param details what the workload measured besides (see {@link ResultLine#details()})
 */
record Measurement(long rows, Span span, long files, long bytes, Map<String, String> details) {

    /** A measurement without details. */
    Measurement(long rows, Span span, long files, long bytes) {
        this(rows, span, files, bytes, Map.of());
    }

    /** The measured time: a Flink job's net runtime, or the wall time of a generic limit. */
    double seconds() {
        return span.seconds();
    }

    /**
     * Starts measuring wall time, process CPU time, the peak resident set size and the heap after
     * garbage collections now. The peaks are reset, so that the table preparation, the warm-up and
     * the answer check before and after the measured part do not count.
     */
    static Stopwatch start() {
        // first: its full collection may touch pages, which the peak RSS must not count
        HeapAfterGc.reset();
        ProcessStats.resetPeakRss();
        return new Stopwatch(System.nanoTime(), ProcessStats.cpuNanos());
    }

    /**
     * The measured part of a run.
     *
     * @param seconds the measured time
     * @param cpuSeconds the CPU time of the whole process over the measured part
     * @param peakRssMb the peak resident set size over the measured part in MiB (-1: unknown)
     * @param heapAfterGcMb the largest heap occupancy right after a garbage collection during the
     *     measured part in MiB ({@link HeapAfterGc}; -1: no collection ran)
     */
    record Span(double seconds, double cpuSeconds, long peakRssMb, long heapAfterGcMb) {}

    /** A started measurement; {@link #stop()} ends it. */
    record Stopwatch(long startNanos, long startCpuNanos) {
        /** Ends the measurement; its time is the wall time since the start. */
        Span stop() {
            return stop((System.nanoTime() - startNanos) / 1e9);
        }

        /** Ends the measurement with a time measured elsewhere (a Flink job's net runtime). */
        Span stop(double seconds) {
            return new Span(
                    seconds,
                    (ProcessStats.cpuNanos() - startCpuNanos) / 1e9,
                    ProcessStats.peakRssMb(),
                    HeapAfterGc.maxMb());
        }

        /** The wall time since the start, without ending the measurement. */
        double elapsedSeconds() {
            return (System.nanoTime() - startNanos) / 1e9;
        }
    }
}
