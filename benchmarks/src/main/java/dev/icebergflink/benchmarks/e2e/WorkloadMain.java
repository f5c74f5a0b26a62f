package dev.icebergflink.benchmarks.e2e;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;

/**
 * The entry point of a child JVM: runs one workload once and prints its result line.
 *
 * <p>Arguments: {@code --workload ID --run N --rows N --warmup-rows N --seed N --warehouse DIR}.
 * Before the measured run, the workload runs once untimed on {@code --warmup-rows} rows in a
 * warehouse of its own (deleted afterwards), so that class loading and JIT compilation weigh on
 * neither the connector's jobs nor the generic limits; 0 skips the warm-up. Exits with 0 and one
 * {@link ResultLine} on stdout when the workload gave the right answer, and with 1 (after the error
 * on stderr) when it failed or gave a wrong answer.
 */
public final class WorkloadMain {

    private WorkloadMain() {}

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
            ResultLine line = runOnce(workload, run, rows, seed, warehouse);
            System.out.println(line.format());
            System.out.flush();
            status = 0;
        } catch (Throwable t) {
            System.err.println("Workload failed: " + t);
            t.printStackTrace(System.err);
        }
        // Flink and Hadoop leave non-daemon threads behind: end the JVM explicitly.
        System.exit(status);
    }

    /**
     * Runs the workload untimed on {@code rows} rows in a warehouse next to {@code warehouse}, and
     * deletes that warehouse; a wrong answer fails here as in a measured run.
     */
    static void warmUp(Workload workload, long rows, long seed, Path warehouse) throws Exception {
        Path warmupWarehouse =
                warehouse.resolveSibling(warehouse.getFileName() + "-warmup-" + workload.id());
        try {
            Measurement warmup =
                    new WorkloadRunner(
                                    new BenchmarkTables(warmupWarehouse),
                                    new BenchmarkRows(seed),
                                    rows)
                            .run(workload, 0);
            // to the child's log: the suite reads only stdout
            System.err.printf(
                    java.util.Locale.ROOT,
                    "warm-up of %s: %d rows in %.3f s (untimed)%n",
                    workload.id(),
                    warmup.rows(),
                    warmup.seconds());
        } finally {
            BenchmarkSuite.deleteRecursively(warmupWarehouse);
        }
    }

    /** Runs a workload once in this JVM and returns its line (without a ratio). */
    static ResultLine runOnce(Workload workload, int run, long rows, long seed, Path warehouse)
            throws Exception {
        WorkloadRunner runner =
                new WorkloadRunner(new BenchmarkTables(warehouse), new BenchmarkRows(seed), rows);
        Measurement measurement = runner.run(workload, run);
        return new ResultLine(
                workload.id(),
                run,
                measurement.rows(),
                measurement.seconds(),
                measurement.files(),
                measurement.bytes(),
                measurement.span().cpuSeconds(),
                measurement.span().peakRssMb(),
                Double.NaN,
                workload.reference() == null ? "-" : workload.reference());
    }
}
