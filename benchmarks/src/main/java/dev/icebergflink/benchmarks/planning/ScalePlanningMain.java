package dev.icebergflink.benchmarks.planning;

import dev.icebergflink.benchmarks.e2e.ProcessStats;
import dev.icebergflink.source.FlinkReadOptions;
import dev.icebergflink.source.enumerator.IcebergEnumeratorState;
import dev.icebergflink.source.enumerator.IcebergEnumeratorStateSerializer;
import dev.icebergflink.source.planning.PlanningResult;
import dev.icebergflink.source.planning.SplitPlanner;
import dev.icebergflink.source.split.IcebergSourceSplit;
import dev.icebergflink.source.split.IcebergSourceSplitSerializer;
import dev.icebergflink.tasks.codec.TableMetadataLookup;
import java.lang.ref.Reference;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopTables;

/**
 * Our side of the planning comparison at scale, in a child JVM of its own: loads a metadata-only
 * table ({@link SyntheticDataFiles}) by its location and plans it {@code runs} times with our
 * source's {@link SplitPlanner}, every split at once ({@code planning-bounded}: the state holds all
 * of them, and the heap after GC is measured while the plan is held) and page by page ({@code
 * planning-paged}, as our enumerator plans full scans: the state holds the first page and the
 * cursor). Prints one {@link PlanningLine} per plan; a plan that misses a file or holds one twice
 * fails the JVM.
 *
 * <p>Arguments: {@code location files runs}.
 */
public final class ScalePlanningMain {

    private ScalePlanningMain() {}

    public static void main(String[] args) {
        int status = 1;
        try {
            run(args[0], Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            status = 0;
        } catch (Throwable t) {
            System.err.println("Planning failed: " + t);
            t.printStackTrace(System.err);
        }
        System.exit(status);
    }

    static void run(String location, int files, int runs) throws Exception {
        Table table = new HadoopTables(new Configuration()).load(location);
        IcebergEnumeratorStateSerializer serializer =
                new IcebergEnumeratorStateSerializer(
                        new IcebergSourceSplitSerializer(TableMetadataLookup.of(table)));
        int pageSize = FlinkReadOptions.SPLIT_PLANNING_PAGE_SIZE.defaultValue();
        for (int run = 1; run <= runs; run++) {
            ProcessStats.resetPeakRss();
            SplitPlanner planner = PlanningBenchmark.planner(table, -1);
            long start = System.nanoTime();
            PlanningResult result = planner.planBounded();
            double seconds = (System.nanoTime() - start) / 1e9;
            List<IcebergSourceSplit> splits = result.splits();
            PlanningBenchmark.checkFiles(splits, files);
            byte[] state =
                    serializer.serialize(
                            new IcebergEnumeratorState(result.toPosition(), null, splits));
            long heapMb = PlanningLine.heapAfterGcMb();
            Set<String> boundedFiles = new HashSet<>(PlanningBenchmark.fileLocations(splits));
            Reference.reachabilityFence(splits);
            print(
                    new PlanningLine(
                            "ours",
                            "planning-bounded",
                            files,
                            run,
                            splits.size(),
                            seconds,
                            seconds,
                            splits.size(),
                            state.length,
                            heapMb,
                            ProcessStats.peakRssMb()));
            splits = null;
            result = null;
            ProcessStats.resetPeakRss();
            PlanningMeasurement paged =
                    PlanningBenchmark.planPaged(
                            table, files, run, pageSize, serializer, boundedFiles);
            print(
                    new PlanningLine(
                            "ours",
                            "planning-paged",
                            files,
                            run,
                            paged.splits(),
                            paged.seconds(),
                            paged.firstPageSeconds(),
                            paged.pendingSplits(),
                            paged.stateBytes(),
                            -1,
                            ProcessStats.peakRssMb()));
        }
    }

    private static void print(PlanningLine line) {
        System.out.println(line.format());
        System.out.flush();
    }
}
