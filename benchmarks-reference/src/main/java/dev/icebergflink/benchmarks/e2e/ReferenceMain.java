package dev.icebergflink.benchmarks.e2e;

/**
 * The entry point of a reference child JVM: runs one of the suite's workloads once through Apache
 * Iceberg's own Flink connector ({@link ReferenceRunner}) and prints its result line, with the
 * workload id {@code reference-<workload>}. It takes the arguments of the suite's {@code
 * WorkloadMain} and warms up the same way ({@link WorkloadChild}). Exits with 0 after a right
 * answer, 1 otherwise.
 */
public final class ReferenceMain {

    private ReferenceMain() {}

    public static void main(String[] args) {
        new WorkloadChild(
                        (tables, data, rows, workload, run) ->
                                new ReferenceRunner(tables, data, rows).run(workload, run),
                        true)
                .main(args);
    }
}
