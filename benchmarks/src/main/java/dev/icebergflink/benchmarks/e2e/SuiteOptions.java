package dev.icebergflink.benchmarks.e2e;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;

/**
 * How to run the suite, from the command line of {@link BenchmarkSuite}.
 *
 * @param rows rows per workload ({@code --rows}, default 5,000,000)
 * @param warmupRows rows of the untimed warm-up run each child makes of its workload before the
 *     measured one ({@code --warmup-rows}, default a tenth of the rows, at most 500,000; 0: none)
 * @param runs rounds; each round runs every workload once ({@code --runs}, default 3)
 * @param seed the seed of the generated rows ({@code --seed}, default 42)
 * @param workloads the workloads ({@code --workloads a,b,c}, default all)
 * @param heap the child JVMs' fixed heap ({@code --heap}, default 3g)
 * @param workDir where the warehouse and child logs go ({@code --work-dir}, default a new temporary
 *     directory)
 * @param docsDir where {@code benchmarks.md} and the chart go ({@code --docs}; none: no docs)
 * @param jfrDir when set, every child records a JFR profile there ({@code --jfr DIR})
 * @param references the workloads that also run through Apache Iceberg's own Flink connector, each
 *     right after ours in every round ({@code --references all|none|a,b}, default all: every chosen
 *     workload that has such a run, {@link Workload#hasConnectorReference()})
 */
public record SuiteOptions(
        long rows,
        long warmupRows,
        int runs,
        long seed,
        List<Workload> workloads,
        String heap,
        Path workDir,
        Path docsDir,
        Path jfrDir,
        List<Workload> references) {

    /** Parses {@code --name value} options. */
    public static SuiteOptions parse(String[] args) {
        Map<String, String> options = Arguments.parse(args);
        for (String name : options.keySet()) {
            if (!List.of(
                            "rows",
                            "warmup-rows",
                            "runs",
                            "seed",
                            "workloads",
                            "heap",
                            "work-dir",
                            "docs",
                            "jfr",
                            "references")
                    .contains(name)) {
                throw new IllegalArgumentException(
                        "Unknown option --"
                                + name
                                + "; allowed: --rows --warmup-rows --runs --seed --workloads --heap"
                                + " --work-dir --docs --jfr --references");
            }
        }
        long rows = Long.parseLong(options.getOrDefault("rows", "5000000"));
        int runs = Integer.parseInt(options.getOrDefault("runs", "3"));
        if (rows < 4 || runs < 1) {
            throw new IllegalArgumentException(
                    "--rows must be at least 4 and --runs at least 1, got "
                            + rows
                            + " and "
                            + runs);
        }
        long warmupRows =
                Long.parseLong(
                        options.getOrDefault(
                                "warmup-rows", String.valueOf(defaultWarmupRows(rows))));
        if (warmupRows != 0 && (warmupRows < 4 || warmupRows > rows)) {
            throw new IllegalArgumentException(
                    "--warmup-rows must be 0 (no warm-up) or between 4 and --rows ("
                            + rows
                            + "), got "
                            + warmupRows);
        }
        List<Workload> workloads = Workload.parseList(options.get("workloads"));
        return new SuiteOptions(
                rows,
                warmupRows,
                runs,
                Long.parseLong(options.getOrDefault("seed", "42")),
                workloads,
                options.getOrDefault("heap", "3g"),
                path(options.get("work-dir")),
                path(options.get("docs")),
                path(options.get("jfr")),
                references(options.getOrDefault("references", "all"), workloads));
    }

    /**
     * The workloads of {@code --references}: {@code all} (every chosen workload that runs through
     * Iceberg's connector too), {@code none}, or a list of ids, each of which must have such a run
     * and be among the chosen workloads.
     */
    static List<Workload> references(String value, List<Workload> workloads) {
        String trimmed = value.trim();
        if (trimmed.equals("none")) {
            return List.of();
        }
        if (trimmed.isEmpty() || trimmed.equals("all")) {
            return workloads.stream().filter(Workload::hasConnectorReference).toList();
        }
        List<Workload> chosen = Workload.parseList(trimmed);
        for (Workload workload : chosen) {
            if (!workload.hasConnectorReference()) {
                throw new IllegalArgumentException(
                        "--references: workload '"
                                + workload.id()
                                + "' does not run through Iceberg's connector; those that do: "
                                + Workload.ids(Workload.withConnectorReference())
                                + " (or all, none)");
            }
            if (!workloads.contains(workload)) {
                throw new IllegalArgumentException(
                        "--references: workload '"
                                + workload.id()
                                + "' is not among --workloads ("
                                + Workload.ids(workloads)
                                + "); its reference runs next to it");
            }
        }
        return chosen;
    }

    /** A tenth of the rows, at most 500,000, at least 4 (or 0 when there are too few rows). */
    static long defaultWarmupRows(long rows) {
        long tenth = Math.min(rows / 10, 500_000L);
        return tenth < 4 ? 0 : tenth;
    }

    private static Path path(String value) {
        return value == null || value.isBlank() ? null : Paths.get(value).toAbsolutePath();
    }
}
