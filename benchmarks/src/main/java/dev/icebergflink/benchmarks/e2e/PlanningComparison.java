package dev.icebergflink.benchmarks.e2e;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import dev.icebergflink.benchmarks.planning.PlanningLine;
import dev.icebergflink.benchmarks.planning.ScalePlanningMain;
import dev.icebergflink.benchmarks.planning.SyntheticDataFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopTables;

/**
 * Planning at scale, ours against Apache Iceberg's own Flink connector: for each table size (by
 * default 100,000 and 1,000,000 data files, metadata only: {@link SyntheticDataFiles} appended in
 * ten commits, no file written) it plans the same table in two child JVMs with the same heap and
 * collector, ours ({@link ScalePlanningMain}: our split planner all at once and page by page) and
 * the one on Iceberg's connector's class path ({@code ReferencePlanningMain} of the {@code
 * benchmarks-reference} module: its {@code FlinkSplitPlanner}), and reports the planning time and
 * the size of each connector's serialized enumerator state, with the heap each holds after GC and
 * its peak RSS. It prints the {@link PlanningLine}s and a markdown table, and writes the table to
 * {@code --markdown FILE} when given.
 *
 * <p>Options: {@code --files 100000,1000000 --runs 3 --heap 3g --child-timeout-minutes 15
 * --work-dir DIR --markdown FILE}; a child still planning after the timeout is ended and reported
 * as failed. The benchmarks module's README has the command.
 */
public final class PlanningComparison {

    private static final int COMMITS = 10;
    private static final long SEED = 8L;

    /**
     * How long a child may plan all its runs before the comparison ends it ({@code
     * --child-timeout-minutes}).
     */
    private static java.time.Duration childTimeout = java.time.Duration.ofMinutes(15);

    private PlanningComparison() {}

    public static void main(String[] args) {
        try {
            Map<String, String> options = Arguments.parse(args);
            List<Integer> sizes =
                    Arrays.stream(options.getOrDefault("files", "100000,1000000").split(","))
                            .map(String::trim)
                            .map(Integer::parseInt)
                            .toList();
            int runs = Integer.parseInt(options.getOrDefault("runs", "3"));
            String heap = options.getOrDefault("heap", "3g");
            childTimeout =
                    java.time.Duration.ofMinutes(
                            Long.parseLong(options.getOrDefault("child-timeout-minutes", "15")));
            Path workDir =
                    options.containsKey("work-dir")
                            ? Paths.get(options.get("work-dir"))
                            : Files.createTempDirectory("iceberg-flink-planning");
            List<PlanningLine> lines = run(sizes, runs, heap, workDir, System.out);
            String table = markdown(lines, runs, heap);
            System.out.println();
            System.out.print(table);
            if (options.containsKey("markdown")) {
                Path file = Paths.get(options.get("markdown"));
                Files.writeString(file, table, StandardCharsets.UTF_8);
                System.out.println("Wrote " + file);
            }
            if (!options.containsKey("work-dir")) {
                WorkloadChild.deleteRecursively(workDir);
            }
        } catch (Exception e) {
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    /** Builds each table, plans it in both children and returns their lines. */
    static List<PlanningLine> run(
            List<Integer> sizes, int runs, String heap, Path workDir, PrintStream out)
            throws IOException, InterruptedException {
        List<PlanningLine> lines = new ArrayList<>();
        for (int files : sizes) {
            Path location = workDir.resolve("planning-" + files);
            WorkloadChild.deleteRecursively(location);
            long start = System.nanoTime();
            Table table =
                    new HadoopTables(new Configuration())
                            .create(
                                    BenchmarkRows.SCHEMA,
                                    PartitionSpec.unpartitioned(),
                                    Map.of(),
                                    location.toUri().toString());
            SyntheticDataFiles.append(table, files, COMMITS, SEED);
            out.printf(
                    Locale.ROOT,
                    "# %,d metadata-only files in %d commits appended in %.1f s%n",
                    files,
                    COMMITS,
                    (System.nanoTime() - start) / 1e9);
            String[] arguments = {
                location.toUri().toString(), String.valueOf(files), String.valueOf(runs)
            };
            lines.addAll(
                    child(
                            System.getProperty("java.class.path"),
                            ScalePlanningMain.class.getName(),
                            "ours",
                            files,
                            heap,
                            arguments,
                            workDir.resolve("ours-" + files + ".log"),
                            out));
            lines.addAll(
                    child(
                            ReferenceClasspath.resolve(),
                            ReferenceClasspath.PLANNING_MAIN,
                            "iceberg",
                            files,
                            heap,
                            arguments,
                            workDir.resolve("iceberg-" + files + ".log"),
                            out));
            WorkloadChild.deleteRecursively(location);
        }
        return lines;
    }

    /**
     * Runs one side's child and returns its lines. A child that fails (for example out of heap at a
     * million files) does not end the comparison: its failure is printed and becomes a {@link
     * PlanningLine} with {@code splits = -1}, which the table shows as failed with the log's last
     * error.
     */
    private static List<PlanningLine> child(
            String classPath,
            String mainClass,
            String connector,
            int files,
            String heap,
            String[] arguments,
            Path log,
            PrintStream out)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + heap);
        command.add("-XX:+UseParallelGC");
        command.addAll(ChildJvm.moduleFlags());
        command.add("-Dlog4j2.configurationFile=benchmarks-log4j2.properties");
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.addAll(Arrays.asList(arguments));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.redirectError(log.toFile());
        Process process = builder.start();
        // a child that thrashes in GC near its heap limit may never end on its own
        java.util.concurrent.atomic.AtomicBoolean timedOut =
                new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.ScheduledExecutorService watchdog =
                java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        watchdog.schedule(
                () -> {
                    if (process.isAlive()) {
                        timedOut.set(true);
                        process.destroyForcibly();
                    }
                },
                childTimeout.toSeconds(),
                java.util.concurrent.TimeUnit.SECONDS);
        List<PlanningLine> lines = new ArrayList<>();
        try (BufferedReader reader =
                new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (PlanningLine.isPlanningLine(line)) {
                    lines.add(PlanningLine.parse(line));
                    out.println(line);
                    out.flush();
                }
            }
        }
        int exit = process.waitFor();
        watchdog.shutdownNow();
        if (exit != 0) {
            String error =
                    timedOut.get()
                            ? "no result within "
                                    + childTimeout.toMinutes()
                                    + " min at -Xmx"
                                    + heap
                                    + " (ended by the comparison)"
                            : lastError(log);
            out.printf(
                    Locale.ROOT,
                    "# %s planning of %,d files failed with exit code %d: %s (log %s)%n",
                    connector,
                    files,
                    exit,
                    error,
                    log);
            FAILURES.put(connector + "/" + files, error);
            lines.add(
                    new PlanningLine(
                            connector, FAILED, files, lines.size() + 1, -1, 0, 0, 0, 0, -1, -1));
        }
        return lines;
    }

    /** The workload of the line that stands for a failed child. */
    static final String FAILED = "failed";

    /** The last error of each failed child, by {@code connector/files}, for the table. */
    static final Map<String, String> FAILURES = new java.util.concurrent.ConcurrentHashMap<>();

    private static String lastError(Path log) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            for (int i = all.size() - 1; i >= 0; i--) {
                String line = all.get(i);
                if (line.contains("Error") || line.contains("Exception")) {
                    return line.trim();
                }
            }
            return all.isEmpty() ? "(empty log)" : all.get(all.size() - 1).trim();
        } catch (IOException e) {
            return "(cannot read " + log + ")";
        }
    }

    private static List<PlanningLine> runsOf(
            List<PlanningLine> lines, int files, String connector, String workload) {
        return lines.stream()
                .filter(
                        l ->
                                l.files() == files
                                        && l.connector().equals(connector)
                                        && l.workload().equals(workload))
                .toList();
    }

    private static PlanningLine last(
            List<PlanningLine> lines, int files, String connector, String workload) {
        List<PlanningLine> runs = runsOf(lines, files, connector, workload);
        return runs.isEmpty() ? null : runs.get(runs.size() - 1);
    }

    private static double medianSeconds(
            List<PlanningLine> lines, int files, String connector, String workload) {
        return WorkloadSummary.median(
                runsOf(lines, files, connector, workload).stream()
                        .mapToDouble(PlanningLine::seconds)
                        .toArray());
    }

    /** The medians of the runs per table size, connector and workload, as a markdown table. */
    static String markdown(List<PlanningLine> lines, int runs, String heap) {
        StringBuilder md = new StringBuilder();
        md.append(
                String.format(
                        Locale.ROOT,
                        "| files | connector | planning | splits | seconds (median of %d, min–max) |"
                                + " first page s | pending splits in the state | state bytes |"
                                + " bytes per pending split | heap after GC MiB | peak RSS MiB |%n",
                        runs));
        md.append("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        List<Integer> sizes = lines.stream().map(PlanningLine::files).distinct().toList();
        for (int files : sizes) {
            for (String[] kind :
                    List.of(
                            new String[] {"ours", "planning-bounded", "all at once"},
                            new String[] {"ours", "planning-paged", "paged, as for full scans"},
                            new String[] {
                                "iceberg", "planning", "all at once (`FlinkSplitPlanner`)"
                            })) {
                List<PlanningLine> runsOf = runsOf(lines, files, kind[0], kind[1]);
                if (runsOf.isEmpty()) {
                    if (!kind[1].equals("planning-paged")
                            && !runsOf(lines, files, kind[0], FAILED).isEmpty()) {
                        md.append(
                                String.format(
                                        Locale.ROOT,
                                        "| %,d | %s | %s | failed: %s | | | | | | | |%n",
                                        files,
                                        kind[0].equals("ours") ? "ours" : "Iceberg's connector",
                                        kind[2],
                                        FAILURES.getOrDefault(
                                                        kind[0] + "/" + files,
                                                        "see the child's log")
                                                .replace("|", "/")));
                    }
                    continue;
                }
                double[] seconds =
                        runsOf.stream().mapToDouble(PlanningLine::seconds).sorted().toArray();
                PlanningLine last = runsOf.get(runsOf.size() - 1);
                md.append(
                        String.format(
                                Locale.ROOT,
                                "| %,d | %s | %s | %,d | %.2f (%.2f–%.2f) | %.2f | %,d | %,d |"
                                        + " %.0f | %s | %d |%n",
                                files,
                                kind[0].equals("ours") ? "ours" : "Iceberg's connector",
                                kind[2],
                                last.splits(),
                                WorkloadSummary.median(seconds),
                                seconds[0],
                                seconds[seconds.length - 1],
                                WorkloadSummary.median(
                                        runsOf.stream()
                                                .mapToDouble(PlanningLine::firstPageSeconds)
                                                .toArray()),
                                last.pendingSplits(),
                                last.stateBytes(),
                                last.bytesPerPendingSplit(),
                                last.heapMb() < 0 ? "–" : String.valueOf(last.heapMb()),
                                runsOf.stream()
                                        .mapToLong(PlanningLine::peakRssMb)
                                        .max()
                                        .orElse(-1)));
            }
        }
        md.append(
                "\n| files | Iceberg's connector / ours: planning s (all at once) | state bytes |"
                        + " heap after GC |\n|---:|---:|---:|---:|\n");
        for (int files : sizes) {
            PlanningLine ours = last(lines, files, "ours", "planning-bounded");
            PlanningLine theirs = last(lines, files, "iceberg", "planning");
            if (ours == null || theirs == null) {
                continue;
            }
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %,d | %.2fx | %.1fx | %.1fx |%n",
                            files,
                            medianSeconds(lines, files, "iceberg", "planning")
                                    / medianSeconds(lines, files, "ours", "planning-bounded"),
                            (double) theirs.stateBytes() / ours.stateBytes(),
                            (double) theirs.heapMb() / Math.max(1, ours.heapMb())));
        }
        md.append(
                String.format(
                        Locale.ROOT,
                        "%nEach connector plans in a child JVM of its own (`-Xmx%s`,"
                                + " `-XX:+UseParallelGC`); the first of the %d runs includes the"
                                + " JIT's warm-up. The state is the connector's enumerator state"
                                + " serialized by its own serializer: every split pending when"
                                + " planned all at once, the first page and the cursor when"
                                + " paged.%n",
                        heap,
                        runs));
        return md.toString();
    }
}
