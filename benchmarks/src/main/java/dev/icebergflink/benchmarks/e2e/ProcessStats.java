package dev.icebergflink.benchmarks.e2e;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * What the benchmark JVM has used: its process CPU time and its peak resident set size (VmHWM from
 * {@code /proc/self/status}, Linux only; -1 elsewhere).
 */
final class ProcessStats {

    private static final Path STATUS = Paths.get("/proc/self/status");

    private ProcessStats() {}

    /** The CPU time of this whole process (all threads) in nanoseconds. */
    static long cpuNanos() {
        java.lang.management.OperatingSystemMXBean os =
                ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
        }
        return -1;
    }

    /** The peak resident set size of this process in MiB, or -1 when the OS does not say. */
    static long peakRssMb() {
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
