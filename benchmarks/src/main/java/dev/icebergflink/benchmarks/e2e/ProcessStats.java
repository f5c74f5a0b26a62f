package dev.icebergflink.benchmarks.e2e;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * What the benchmark JVM has used: its process CPU time and its peak resident set size (VmHWM from
 * {@code /proc/self/status}, Linux only; -1 elsewhere), which can be reset so that it covers the
 * measured part of a run only.
 */
public final class ProcessStats {

    private static final Path STATUS = Paths.get("/proc/self/status");
    private static final Path CLEAR_REFS = Paths.get("/proc/self/clear_refs");

    private ProcessStats() {}

    /** The CPU time of this whole process (all threads) in nanoseconds. */
    public static long cpuNanos() {
        java.lang.management.OperatingSystemMXBean os =
                ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
        }
        return -1;
    }

    /**
     * Resets the peak resident set size to the current one (Linux 4.0 and later: writing 5 to
     * {@code /proc/self/clear_refs}); does nothing where that is not possible.
     */
    public static void resetPeakRss() {
        try {
            Files.writeString(CLEAR_REFS, "5");
        } catch (IOException | RuntimeException e) {
            // not Linux, or not allowed: the peak then covers the whole process
        }
    }

    /**
     * The peak resident set size of this process in MiB (since the last {@link #resetPeakRss()}),
     * or -1 when the OS does not say.
     */
    public static long peakRssMb() {
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith("VmHWM:")) {
                    String[] parts = line.substring(6).trim().split("\\s+");
                    return Long.parseLong(parts[0]) / 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
