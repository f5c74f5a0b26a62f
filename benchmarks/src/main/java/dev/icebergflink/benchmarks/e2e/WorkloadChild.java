package dev.icebergflink.benchmarks.e2e;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The life of a child JVM of the suite, whichever connector it runs a workload through: it parses
 * the arguments, warms up, runs the workload once and prints its {@link ResultLine}. Our {@link
 * WorkloadMain} and the reference launcher's entry point of Iceberg's own connector hand it their
 * runner, so both children warm up, measure and report alike. It uses no class of either connector.
 *
 * <p>Arguments: {@code --workload ID --run N --rows N --warmup-rows N --seed N --warehouse DIR}.
 * Before the measured run, the workload runs once untimed on {@code --warmup-rows} rows in a
 * warehouse of its own (deleted afterwards), so that class loading and JIT compilation weigh on
 * neither side of a comparison; 0 skips the warm-up. The JVM exits with 0 and one {@link
 * ResultLine} on stdout when the workload gave the right answer, and with 1 (after the error on
 * stderr) when it failed or gave a wrong answer.
 */
final class WorkloadChild {

    /** Runs a workload once on the tables of one warehouse. */
    @FunctionalInterface
    interface Runner {
        Measurement run(
                BenchmarkTables tables, BenchmarkRows data, long rows, Workload workload, int run)
                throws Exception;
    }

    private final Runner runner;
    private final boolean reference;

    /**
     * @param runner the connector's runner
     * @param reference whether it runs Iceberg's own connector: result lines then carry the id
     *     {@code reference-<workload>} and are compared with nothing
     */
    WorkloadChild(Runner runner, boolean reference) {
        this.runner = runner;
        this.reference = reference;
    }

    /** Runs the child as its arguments say and ends the JVM. */
    void main(String[] args) {
        int status = 1;
        try {
            Map<String, String> options = Arguments.parse(args);
            Workload workload = Workload.byId(Arguments.required(options, "workload"));
            int run = Integer.parseInt(Arguments.required(options, "run"));
            long rows = Long.parseLong(Arguments.required(options, "rows"));
            long warmupRows = Long.parseLong(options.getOrDefault("warmup-rows", "0"));
            long seed = Long.parseLong(Arguments.required(options, "seed"));
            Path warehouse = Paths.get(Arguments.required(options, "warehouse"));
            if (warmupRows > 0) {
                warmUp(workload, warmupRows, seed, warehouse);
            }
            System.out.println(runOnce(workload, run, rows, seed, warehouse).format());
            System.out.flush();
            status = 0;
        } catch (Throwable t) {
            System.err.println((reference ? "Reference workload" : "Workload") + " failed: " + t);
            t.printStackTrace(System.err);
        }
        // Flink and Hadoop leave non-daemon threads behind: end the JVM explicitly.
        System.exit(status);
    }

    /**
     * Runs the workload untimed on {@code rows} rows in a warehouse next to {@code warehouse}, and
     * deletes that warehouse; a wrong answer fails here as in a measured run.
     */
    void warmUp(Workload workload, long rows, long seed, Path warehouse) throws Exception {
        Path warmupWarehouse =
                warehouse.resolveSibling(warehouse.getFileName() + "-warmup-" + id(workload));
        try {
            Measurement warmup =
                    runner.run(
                            new BenchmarkTables(warmupWarehouse),
                            new BenchmarkRows(seed),
                            rows,
                            workload,
                            0);
            // to the child's log: the suite reads only stdout
            System.err.printf(
                    Locale.ROOT,
                    "warm-up of %s: %d rows in %.3f s (untimed)%n",
                    id(workload),
                    warmup.rows(),
                    warmup.seconds());
        } finally {
            deleteRecursively(warmupWarehouse);
        }
    }

    /** Runs a workload once in this JVM and returns its line (without a ratio). */
    ResultLine runOnce(Workload workload, int run, long rows, long seed, Path warehouse)
            throws Exception {
        Measurement measurement =
                runner.run(
                        new BenchmarkTables(warehouse),
                        new BenchmarkRows(seed),
                        rows,
                        workload,
                        run);
        String comparedWith =
                reference || workload.reference() == null ? "-" : workload.reference();
        return new ResultLine(
                id(workload),
                run,
                measurement.rows(),
                measurement.seconds(),
                measurement.files(),
                measurement.bytes(),
                measurement.span().cpuSeconds(),
                measurement.span().peakRssMb(),
                measurement.span().heapAfterGcMb(),
                Double.NaN,
                comparedWith,
                measurement.details());
    }

    private String id(Workload workload) {
        return reference ? workload.connectorReferenceId() : workload.id();
    }

    /** Deletes a directory tree; nothing when it does not exist. */
    static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(path);
            }
        }
    }
}
