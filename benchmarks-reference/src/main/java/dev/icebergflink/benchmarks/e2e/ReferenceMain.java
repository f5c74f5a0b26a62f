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
 * The entry point of a reference child JVM: runs one of the suite's workloads once through Apache
 * Iceberg's own Flink connector ({@link ReferenceRunner}) and prints its result line, with the
 * workload id {@code reference-<workload>}. It takes the arguments of the suite's {@code
 * WorkloadMain} and warms up the same way: one untimed run on {@code --warmup-rows} rows in a
 * warehouse of its own, deleted afterwards. Exits with 0 after a right answer, 1 otherwise.
 */
public final class ReferenceMain {

    private ReferenceMain() {}

    public static void main(String[] args) {
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
            Measurement measurement =
                    new ReferenceRunner(
                                    new ReferenceTables(warehouse), new BenchmarkRows(seed), rows)
                            .run(workload, run);
            ResultLine line =
                    new ResultLine(
                            workload.connectorReferenceId(),
                            run,
                            measurement.rows(),
                            measurement.seconds(),
                            measurement.files(),
                            measurement.bytes(),
                            measurement.span().cpuSeconds(),
                            measurement.span().peakRssMb(),
                            Double.NaN,
                            "-");
            System.out.println(line.format());
            System.out.flush();
            status = 0;
        } catch (Throwable t) {
            System.err.println("Reference workload failed: " + t);
            t.printStackTrace(System.err);
        }
        // Flink and Hadoop leave non-daemon threads behind: end the JVM explicitly.
        System.exit(status);
    }

    /**
     * The untimed warm-up in a warehouse of its own, deleted afterwards (as the suite's children
     * warm up); a wrong answer fails here as in the measured run.
     */
    private static void warmUp(Workload workload, long rows, long seed, Path warehouse)
            throws Exception {
        Path warmupWarehouse =
                warehouse.resolveSibling(
                        warehouse.getFileName() + "-warmup-" + workload.connectorReferenceId());
        try {
            Measurement warmup =
                    new ReferenceRunner(
                                    new ReferenceTables(warmupWarehouse),
                                    new BenchmarkRows(seed),
                                    rows)
                            .run(workload, 0);
            System.err.printf(
                    Locale.ROOT,
                    "warm-up of %s: %d rows in %.3f s (untimed)%n",
                    workload.connectorReferenceId(),
                    warmup.rows(),
                    warmup.seconds());
        } finally {
            deleteRecursively(warmupWarehouse);
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
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
