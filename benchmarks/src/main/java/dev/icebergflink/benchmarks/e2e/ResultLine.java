package dev.icebergflink.benchmarks.e2e;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One run of one workload as one machine-readable line: {@code BENCH key=value ...} with the keys
 * {@code workload run rows seconds rows_per_s ratio reference files bytes cpu_s peak_rss_mb
 * heap_after_gc_mb}. The child JVM prints it without a ratio; the suite adds the ratio to the
 * reference measured in the same round and prints it again.
 *
 * @param workload the workload id
 * @param run the round, from 1
 * @param rows the rows the workload processed (written, or read from the table)
 * @param seconds the measured time
 * @param files the data and delete files written, or read
 * @param bytes the size of those files
 * @param cpuSeconds the CPU time of the child process over the measured part
 * @param peakRssMb the peak resident set size of the child process over the measured part in MiB
 * @param heapAfterGcMb the largest heap occupancy of the child right after a garbage collection
 *     during the measured part in MiB; -1 when no collection ran (or a line written before the key
 *     existed)
 * @param ratio rows/s divided by the reference's rows/s in the same round; NaN when unknown
 * @param reference the workload the ratio compares with, or "-"
 * @param details what a workload measures besides its rows and time, printed after the fixed keys
 *     in insertion order (the streaming workloads' commits, freshness percentiles and scan rates);
 *     empty for most workloads. Keys and values hold no spaces or {@code =}.
 */
public record ResultLine(
        String workload,
        int run,
        long rows,
        double seconds,
        long files,
        long bytes,
        double cpuSeconds,
        long peakRssMb,
        long heapAfterGcMb,
        double ratio,
        String reference,
        Map<String, String> details) {

    /** The line without details. */
    public ResultLine(
            String workload,
            int run,
            long rows,
            double seconds,
            long files,
            long bytes,
            double cpuSeconds,
            long peakRssMb,
            long heapAfterGcMb,
            double ratio,
            String reference) {
        this(
                workload,
                run,
                rows,
                seconds,
                files,
                bytes,
                cpuSeconds,
                peakRssMb,
                heapAfterGcMb,
                ratio,
                reference,
                Map.of());
    }

    /** Keeps the details in their order, unmodifiable. */
    public ResultLine {
        details = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }

    /** This line with one more detail (or a new value of one). */
    public ResultLine withDetail(String key, String value) {
        Map<String, String> more = new LinkedHashMap<>(details);
        more.put(key, value);
        return new ResultLine(
                workload,
                run,
                rows,
                seconds,
                files,
                bytes,
                cpuSeconds,
                peakRssMb,
                heapAfterGcMb,
                ratio,
                reference,
                more);
    }

    /** A detail as a number; NaN when the line has none of that key. */
    public double detail(String key) {
        String value = details.get(key);
        return value == null ? Double.NaN : Double.parseDouble(value);
    }

    /** Every result line starts with this, so it can be picked out of any output. */
    public static final String PREFIX = "BENCH ";

    /** Rows per second. */
    public double rowsPerSecond() {
        return seconds > 0 ? rows / seconds : 0;
    }

    /** This line with the ratio to a reference. */
    public ResultLine withRatio(double newRatio, String newReference) {
        return new ResultLine(
                workload,
                run,
                rows,
                seconds,
                files,
                bytes,
                cpuSeconds,
                peakRssMb,
                heapAfterGcMb,
                newRatio,
                newReference,
                details);
    }

    /** The line as printed. */
    public String format() {
        return PREFIX
                + String.format(
                        Locale.ROOT,
                        "workload=%s run=%d rows=%d seconds=%.3f rows_per_s=%.0f ratio=%s"
                                + " reference=%s files=%d bytes=%d cpu_s=%.2f peak_rss_mb=%d heap_after_gc_mb=%d",
                        workload,
                        run,
                        rows,
                        seconds,
                        rowsPerSecond(),
                        Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.3f", ratio),
                        reference == null ? "-" : reference,
                        files,
                        bytes,
                        cpuSeconds,
                        peakRssMb,
                        heapAfterGcMb)
                + details(details);
    }

    private static String details(Map<String, String> details) {
        StringBuilder text = new StringBuilder();
        details.forEach((key, value) -> text.append(' ').append(key).append('=').append(value));
        return text.toString();
    }

    /** The keys every line has, in their order; any other key of a line is a detail. */
    private static final java.util.List<String> FIXED_KEYS =
            java.util.List.of(
                    "workload",
                    "run",
                    "rows",
                    "seconds",
                    "rows_per_s",
                    "ratio",
                    "reference",
                    "files",
                    "bytes",
                    "cpu_s",
                    "peak_rss_mb",
                    "heap_after_gc_mb");

    /** Whether a line of output is a result line. */
    public static boolean isResultLine(String line) {
        return line.startsWith(PREFIX);
    }

    /**
     * Parses a line {@link #format()} printed.
     *
     * @throws IllegalArgumentException naming the line and the missing or malformed key
     */
    public static ResultLine parse(String line) {
        Map<String, String> values = KeyValueLine.pairs(PREFIX, "result line", line);
        try {
            String ratio = required(values, "ratio", line);
            Map<String, String> details = new LinkedHashMap<>(values);
            details.keySet().removeAll(FIXED_KEYS);
            return new ResultLine(
                    required(values, "workload", line),
                    Integer.parseInt(required(values, "run", line)),
                    Long.parseLong(required(values, "rows", line)),
                    Double.parseDouble(required(values, "seconds", line)),
                    Long.parseLong(required(values, "files", line)),
                    Long.parseLong(required(values, "bytes", line)),
                    Double.parseDouble(required(values, "cpu_s", line)),
                    Long.parseLong(required(values, "peak_rss_mb", line)),
                    Long.parseLong(values.getOrDefault("heap_after_gc_mb", "-1")),
                    ratio.equals("-") ? Double.NaN : Double.parseDouble(ratio),
                    required(values, "reference", line),
                    details);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Malformed number in result line: " + line, e);
        }
    }

    private static String required(Map<String, String> values, String key, String line) {
        return KeyValueLine.required(values, key, "result line", line);
    }
}
