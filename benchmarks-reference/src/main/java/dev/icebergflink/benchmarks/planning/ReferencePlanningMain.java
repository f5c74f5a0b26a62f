package dev.icebergflink.benchmarks.planning;

import dev.icebergflink.benchmarks.e2e.ProcessStats;
import java.lang.ref.Reference;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.source.FlinkSplitPlanner;
import org.apache.iceberg.flink.source.ScanContext;
import org.apache.iceberg.flink.source.enumerator.IcebergEnumeratorState;
import org.apache.iceberg.flink.source.enumerator.IcebergEnumeratorStateSerializer;
import org.apache.iceberg.flink.source.split.IcebergSourceSplit;
import org.apache.iceberg.flink.source.split.IcebergSourceSplitState;
import org.apache.iceberg.flink.source.split.IcebergSourceSplitStatus;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.util.ThreadPools;

/**
 * Iceberg's connector's side of the planning comparison at scale, in a child JVM on that
 * connector's class path: loads the same metadata-only table by its location and plans it {@code
 * runs} times through the connector's public planning entry point, {@code
 * FlinkSplitPlanner.planIcebergSourceSplits}, with the scan context its {@code IcebergSource}
 * resolves from the table and an empty Flink configuration, on a worker pool of the context's plan
 * parallelism (as its source does). Its source plans a bounded scan all at once, so the state
 * measured holds every split, unassigned, serialized by its {@code
 * IcebergEnumeratorStateSerializer}; the heap after GC is measured while the plan is held. Prints
 * one {@link PlanningLine} ({@code connector=iceberg workload=planning}) per run; a plan that
 * misses a file or holds one twice fails the JVM.
 *
 * <p>Arguments: {@code location files runs}.
 */
public final class ReferencePlanningMain {

    private ReferencePlanningMain() {}

    public static void main(String[] args) {
        int status = 1;
        try {
            run(args[0], Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            status = 0;
        } catch (Throwable t) {
            System.err.println("Reference planning failed: " + t);
            t.printStackTrace(System.err);
        }
        System.exit(status);
    }

    static void run(String location, int files, int runs) throws Exception {
        Table table = new HadoopTables(new Configuration()).load(location);
        ScanContext context =
                ScanContext.builder()
                        .resolveConfig(
                                table, Map.of(), new org.apache.flink.configuration.Configuration())
                        .build();
        IcebergEnumeratorStateSerializer serializer = new IcebergEnumeratorStateSerializer(true);
        ExecutorService pool =
                ThreadPools.newWorkerPool("reference-planning", context.planParallelism());
        try {
            for (int run = 1; run <= runs; run++) {
                ProcessStats.resetPeakRss();
                long start = System.nanoTime();
                List<IcebergSourceSplit> splits =
                        FlinkSplitPlanner.planIcebergSourceSplits(table, context, pool);
                double seconds = (System.nanoTime() - start) / 1e9;
                checkFiles(splits, files);
                byte[] state =
                        serializer.serialize(
                                new IcebergEnumeratorState(
                                        null,
                                        splits.stream()
                                                .map(
                                                        split ->
                                                                new IcebergSourceSplitState(
                                                                        split,
                                                                        IcebergSourceSplitStatus
                                                                                .UNASSIGNED))
                                                .toList()));
                long heapMb = PlanningLine.heapAfterGcMb();
                Reference.reachabilityFence(splits);
                System.out.println(
                        new PlanningLine(
                                        "iceberg",
                                        "planning",
                                        files,
                                        run,
                                        splits.size(),
                                        seconds,
                                        seconds,
                                        splits.size(),
                                        state.length,
                                        heapMb,
                                        ProcessStats.peakRssMb())
                                .format());
                System.out.flush();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static void checkFiles(List<IcebergSourceSplit> splits, int files) {
        long planned = 0;
        Set<String> locations = new HashSet<>();
        for (IcebergSourceSplit split : splits) {
            for (FileScanTask task : split.task().files()) {
                planned++;
                locations.add(task.file().location());
            }
        }
        if (planned != files || locations.size() != files) {
            throw new IllegalStateException(
                    String.format(
                            "Planning covered %d file ranges of %d files, the table has %d files",
                            planned, locations.size(), files));
        }
    }
}
