package dev.icebergflink.benchmarks.planning;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import dev.icebergflink.benchmarks.jmh.BenchmarkTable;
import dev.icebergflink.source.FlinkReadOptions;
import dev.icebergflink.source.config.ScanContext;
import dev.icebergflink.source.enumerator.IcebergEnumeratorState;
import dev.icebergflink.source.enumerator.IcebergEnumeratorStateSerializer;
import dev.icebergflink.source.planning.PlanningResult;
import dev.icebergflink.source.planning.ScanCursor;
import dev.icebergflink.source.planning.SplitPage;
import dev.icebergflink.source.planning.SplitPager;
import dev.icebergflink.source.planning.SplitPlanner;
import dev.icebergflink.source.split.IcebergSourceSplit;
import dev.icebergflink.source.split.IcebergSourceSplitSerializer;
import dev.icebergflink.tasks.codec.TableMetadataLookup;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;

/**
 * Measures how long the source takes to plan the splits of a table of many small data files, and
 * how large the enumerator's checkpointed state gets per pending split (the targets: seconds for
 * 100,000 files, well under 1 KB per pending split).
 *
 * <p>The table holds metadata-only files ({@link SyntheticDataFiles}) appended in ten commits. Each
 * run plans the table twice with the source's own {@link SplitPlanner}: {@code planning-bounded}
 * plans every split at once (paging off), {@code planning-paged} pages through the same scan with
 * {@link SplitPager} at the default page size, as the enumerator does for full scans. The state
 * sizes come from {@link IcebergEnumeratorStateSerializer}: all splits pending for the bounded
 * plan, the first page pending plus the cursor for the paged one. A run whose splits miss a file or
 * hold one twice, or whose paged and bounded plans cover other files, fails. (The two plans may
 * pack files into splits differently: bounded planning reads manifests in parallel, paged planning
 * on one thread in a fixed order.)
 *
 * <p>Usage: {@code PlanningBenchmark [files (default 100000)] [runs (default 3)]}; prints one JSON
 * line per workload and run ({@link PlanningMeasurement}) and then a summary.
 */
public final class PlanningBenchmark {

    /** The files of the default table. */
    public static final int DEFAULT_FILES = 100_000;

    private static final int COMMITS = 10;

    private PlanningBenchmark() {}

    public static void main(String[] args) throws IOException {
        int files = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_FILES;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        List<PlanningMeasurement> results =
                run(
                        files,
                        runs,
                        FlinkReadOptions.SPLIT_PLANNING_PAGE_SIZE.defaultValue(),
                        System.out);
        printSummary(results, System.out);
    }

    /**
     * Creates the table, plans it {@code runs} times each way and prints each result as a JSON line
     * to {@code out}.
     *
     * @param pageSize the page size of paged planning (the source's default in {@link #main})
     * @throws IllegalStateException if a plan is wrong (a missing file, paged and bounded plans
     *     that differ)
     */
    public static List<PlanningMeasurement> run(int files, int runs, int pageSize, PrintStream out)
            throws IOException {
        if (runs < 1) {
            throw new IllegalArgumentException("runs must be at least 1, got " + runs);
        }
        List<PlanningMeasurement> results = new ArrayList<>();
        try (BenchmarkTable benchmarkTable =
                BenchmarkTable.create(
                        BenchmarkRows.SCHEMA, PartitionSpec.unpartitioned(), Map.of())) {
            Table table = benchmarkTable.table();
            long start = System.nanoTime();
            SyntheticDataFiles.append(table, files, COMMITS, 8L);
            table.refresh();
            out.printf(
                    Locale.ROOT,
                    "# appended %d metadata-only files in %d commits in %.1f s%n",
                    files,
                    COMMITS,
                    seconds(start));
            IcebergEnumeratorStateSerializer stateSerializer =
                    new IcebergEnumeratorStateSerializer(
                            new IcebergSourceSplitSerializer(TableMetadataLookup.of(table)));
            for (int run = 1; run <= runs; run++) {
                Set<String> boundedFiles = new HashSet<>();
                PlanningMeasurement bounded =
                        planBounded(table, files, run, stateSerializer, boundedFiles);
                out.println(bounded.toJson());
                results.add(bounded);
                PlanningMeasurement paged =
                        planPaged(table, files, run, pageSize, stateSerializer, boundedFiles);
                out.println(paged.toJson());
                results.add(paged);
            }
        }
        return results;
    }

    private static PlanningMeasurement planBounded(
            Table table,
            int files,
            int run,
            IcebergEnumeratorStateSerializer serializer,
            Set<String> plannedFiles)
            throws IOException {
        SplitPlanner planner = planner(table, -1);
        long start = System.nanoTime();
        PlanningResult result = planner.planBounded();
        double seconds = seconds(start);
        List<IcebergSourceSplit> splits = result.splits();
        checkFiles(splits, files);
        plannedFiles.addAll(fileLocations(splits));
        byte[] state =
                serializer.serialize(new IcebergEnumeratorState(result.toPosition(), null, splits));
        return measurement(
                "planning-bounded", run, files, splits.size(), seconds, seconds, splits, state);
    }

    static PlanningMeasurement planPaged(
            Table table,
            int files,
            int run,
            int pageSize,
            IcebergEnumeratorStateSerializer serializer,
            Set<String> boundedFiles)
            throws IOException {
        SplitPlanner planner = planner(table, pageSize);
        long start = System.nanoTime();
        PlanningResult result = planner.planBounded();
        ScanCursor cursor = result.pagedScan();
        if (cursor == null) {
            throw new IllegalStateException("Planning with a page size returned no paged scan");
        }
        List<IcebergSourceSplit> all = new ArrayList<>();
        List<IcebergSourceSplit> firstPage = null;
        ScanCursor afterFirstPage = null;
        double firstPageSeconds = 0;
        try (SplitPager pager = new SplitPager(planner)) {
            while (cursor != null) {
                SplitPage page = pager.nextPage(cursor, pageSize);
                if (firstPage == null) {
                    firstPageSeconds = seconds(start);
                    firstPage = page.splits();
                    afterFirstPage = page.next();
                }
                all.addAll(page.splits());
                cursor = page.next();
            }
        }
        double seconds = seconds(start);
        checkFiles(all, files);
        if (!fileLocations(all).equals(boundedFiles)) {
            throw new IllegalStateException(
                    "Paged planning covered other files than bounded planning");
        }
        byte[] state =
                serializer.serialize(
                        new IcebergEnumeratorState(result.toPosition(), afterFirstPage, firstPage));
        return measurement(
                "planning-paged",
                run,
                files,
                all.size(),
                seconds,
                firstPageSeconds,
                firstPage,
                state);
    }

    private static PlanningMeasurement measurement(
            String workload,
            int run,
            int files,
            int splits,
            double seconds,
            double firstPageSeconds,
            List<IcebergSourceSplit> pending,
            byte[] state) {
        int pendingFiles = pending.stream().mapToInt(split -> split.task().files().size()).sum();
        return new PlanningMeasurement(
                workload,
                run,
                files,
                splits,
                seconds,
                firstPageSeconds,
                pending.size(),
                state.length,
                pending.isEmpty() ? 0 : (double) state.length / pending.size(),
                pendingFiles == 0 ? 0 : (double) state.length / pendingFiles);
    }

    static SplitPlanner planner(Table table, int pageSize) {
        ScanContext context =
                ScanContext.resolve(
                        Map.of(
                                FlinkReadOptions.SPLIT_PLANNING_PAGE_SIZE.key(),
                                Integer.toString(pageSize)),
                        null,
                        table,
                        null,
                        List.of());
        return new SplitPlanner(table, context, null);
    }

    static void checkFiles(List<IcebergSourceSplit> splits, int files) {
        long planned = splits.stream().mapToLong(split -> split.task().files().size()).sum();
        if (planned != files || fileLocations(splits).size() != files) {
            throw new IllegalStateException(
                    String.format(
                            "Planning covered %d file ranges, the table has %d files",
                            planned, files));
        }
    }

    static Set<String> fileLocations(List<IcebergSourceSplit> splits) {
        Set<String> locations = new HashSet<>();
        for (IcebergSourceSplit split : splits) {
            for (FileScanTask file : split.task().files()) {
                locations.add(file.file().location());
            }
        }
        return locations;
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** Prints the median and min-max seconds and the state size per workload. */
    static void printSummary(List<PlanningMeasurement> results, PrintStream out) {
        out.println(
                "# workload          files   splits  seconds (median, min-max)  first page s"
                        + "  pending  bytes/split  bytes/file");
        for (String workload : List.of("planning-bounded", "planning-paged")) {
            List<PlanningMeasurement> runs =
                    results.stream().filter(r -> r.workload().equals(workload)).toList();
            if (runs.isEmpty()) {
                continue;
            }
            double[] seconds =
                    runs.stream().mapToDouble(PlanningMeasurement::seconds).sorted().toArray();
            double[] firstPage =
                    runs.stream()
                            .mapToDouble(PlanningMeasurement::firstPageSeconds)
                            .sorted()
                            .toArray();
            PlanningMeasurement last = runs.get(runs.size() - 1);
            out.printf(
                    Locale.ROOT,
                    "# %-16s %7d %8d  %6.2f (%.2f-%.2f)          %8.2f  %7d  %11.1f  %10.1f%n",
                    workload,
                    last.files(),
                    last.splits(),
                    median(seconds),
                    seconds[0],
                    seconds[seconds.length - 1],
                    median(firstPage),
                    last.pendingSplits(),
                    last.bytesPerSplit(),
                    last.bytesPerFile());
        }
    }

    private static double median(double[] sorted) {
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
