package dev.icebergflink.benchmarks.planning;

import dev.icebergflink.benchmarks.e2e.KeyValueLine;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Locale;
import java.util.Map;

/**
 * One planning run of the planning comparison at scale, as one machine-readable line: {@code PLAN
 * connector=ours|iceberg workload=... files=N run=N splits=N seconds=S first_page_s=S
 * pending_splits=N state_bytes=N heap_mb=N peak_rss_mb=N}. Both children print it (ours and the one
 * on Iceberg's connector's class path, which compiles this class too), so it uses no class of
 * either connector.
 *
 * @param connector {@code ours} or {@code iceberg}
 * @param workload {@code planning-bounded} (every split at once), {@code planning-paged} (ours:
 *     page by page, as our enumerator plans full scans) or {@code planning} (Iceberg's connector's
 *     planning entry point, every split at once)
 * @param files data files in the table
 * @param run the run, from 1 (the first one includes the JIT's warm-up)
 * @param splits splits planned
 * @param seconds wall-clock seconds of the planning
 * @param firstPageSeconds seconds until the first page of splits (the whole plan when unpaged)
 * @param pendingSplits splits in the serialized enumerator state
 * @param stateBytes the size of that state, serialized by the connector's enumerator state
 *     serializer
 * @param heapMb heap in use after a full GC while the plan is held (-1: not measured)
 * @param peakRssMb the process's peak resident set over the run (-1: unknown)
 */
public record PlanningLine(
        String connector,
        String workload,
        int files,
        int run,
        int splits,
        double seconds,
        double firstPageSeconds,
        int pendingSplits,
        long stateBytes,
        long heapMb,
        long peakRssMb) {

    /** Every planning line starts with this. */
    public static final String PREFIX = "PLAN ";

    /** The line as printed. */
    public String format() {
        return PREFIX
                + String.format(
                        Locale.ROOT,
                        "connector=%s workload=%s files=%d run=%d splits=%d seconds=%.3f"
                                + " first_page_s=%.3f pending_splits=%d state_bytes=%d heap_mb=%d"
                                + " peak_rss_mb=%d",
                        connector,
                        workload,
                        files,
                        run,
                        splits,
                        seconds,
                        firstPageSeconds,
                        pendingSplits,
                        stateBytes,
                        heapMb,
                        peakRssMb);
    }

    /** The serialized state per data file of the pending splits' files (all files when unpaged). */
    public double bytesPerPendingSplit() {
        return pendingSplits == 0 ? 0 : (double) stateBytes / pendingSplits;
    }

    /** Whether a line of output is a planning line. */
    public static boolean isPlanningLine(String line) {
        return line.startsWith(PREFIX);
    }

    /**
     * Parses a line {@link #format()} printed.
     *
     * @throws IllegalArgumentException naming the line and the missing or malformed key
     */
    public static PlanningLine parse(String line) {
        Map<String, String> values = KeyValueLine.pairs(PREFIX, "planning line", line);
        try {
            return new PlanningLine(
                    required(values, "connector", line),
                    required(values, "workload", line),
                    Integer.parseInt(required(values, "files", line)),
                    Integer.parseInt(required(values, "run", line)),
                    Integer.parseInt(required(values, "splits", line)),
                    Double.parseDouble(required(values, "seconds", line)),
                    Double.parseDouble(required(values, "first_page_s", line)),
                    Integer.parseInt(required(values, "pending_splits", line)),
                    Long.parseLong(required(values, "state_bytes", line)),
                    Long.parseLong(required(values, "heap_mb", line)),
                    Long.parseLong(required(values, "peak_rss_mb", line)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Malformed number in planning line: " + line, e);
        }
    }

    private static String required(Map<String, String> values, String key, String line) {
        return KeyValueLine.required(values, key, "planning line", line);
    }

    /**
     * The heap in use after a full collection, in MiB: what the plan the caller still holds
     * occupies, plus the JVM's own baseline.
     */
    public static long heapAfterGcMb() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        memory.gc();
        return memory.getHeapMemoryUsage().getUsed() / (1024 * 1024);
    }
}
