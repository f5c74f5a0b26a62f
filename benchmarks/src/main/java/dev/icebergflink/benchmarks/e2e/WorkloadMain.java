package dev.icebergflink.benchmarks.e2e;

/**
 * The entry point of a child JVM that runs one workload once through our connector (or a generic
 * limit) and prints its result line; the arguments and the warm-up are {@link WorkloadChild}'s.
 */
public final class WorkloadMain {

    private WorkloadMain() {}

    public static void main(String[] args) {
        new WorkloadChild(
                        (tables, data, rows, workload, run) ->
                                new WorkloadRunner(tables, data, rows).run(workload, run),
                        false)
                .main(args);
    }
}
