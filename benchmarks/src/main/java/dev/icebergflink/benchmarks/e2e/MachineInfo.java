package dev.icebergflink.benchmarks.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;

/**
 * The machine a suite ran on, for the docs: CPU model and cores from {@code /proc/cpuinfo}, memory
 * from {@code /proc/meminfo}, the OS from {@code /etc/os-release} and {@code /proc/version}, and
 * the JDK running the suite (the children use the same one).
 */
record MachineInfo(String cpu, int cores, String memory, String os, String kernel, String jdk) {

    static MachineInfo current() {
        List<String> cpuinfo = lines("/proc/cpuinfo");
        String model =
                cpuinfo.stream()
                        .filter(l -> l.startsWith("model name"))
                        .map(l -> l.substring(l.indexOf(':') + 1).trim())
                        .findFirst()
                        .orElse(System.getProperty("os.arch"));
        long processors = cpuinfo.stream().filter(l -> l.startsWith("processor")).count();
        int cores = processors > 0 ? (int) processors : Runtime.getRuntime().availableProcessors();
        String memory =
                lines("/proc/meminfo").stream()
                        .filter(l -> l.startsWith("MemTotal:"))
                        .map(l -> l.substring(9).trim().split("\\s+")[0])
                        .map(
                                kb ->
                                        String.format(
                                                Locale.ROOT,
                                                "%.1f GiB",
                                                Long.parseLong(kb) / 1048576.0))
                        .findFirst()
                        .orElse("unknown");
        String os =
                lines("/etc/os-release").stream()
                        .filter(l -> l.startsWith("PRETTY_NAME="))
                        .map(l -> l.substring(12).replace("\"", ""))
                        .findFirst()
                        .orElse(System.getProperty("os.name"));
        String kernel =
                lines("/proc/version").stream()
                        .findFirst()
                        .map(l -> l.split("\\s+"))
                        .map(parts -> parts.length > 2 ? parts[0] + " " + parts[2] : parts[0])
                        .orElse(System.getProperty("os.version"));
        String jdk =
                System.getProperty("java.vm.name")
                        + " "
                        + System.getProperty("java.runtime.version")
                        + " ("
                        + System.getProperty("java.vendor")
                        + ")";
        return new MachineInfo(model, cores, memory, os, kernel, jdk);
    }

    private static List<String> lines(String file) {
        Path path = Paths.get(file);
        try {
            return Files.isReadable(path) ? Files.readAllLines(path) : List.of();
        } catch (IOException e) {
            return List.of();
        }
    }
}
