package dev.icebergflink.benchmarks.lookup;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import dev.icebergflink.benchmarks.data.BenchmarkRows;
import dev.icebergflink.benchmarks.e2e.GenericLimits;
import dev.icebergflink.source.config.ScanContext;
import dev.icebergflink.table.lookup.FullCache;
import dev.icebergflink.table.lookup.LookupKeys;
import dev.icebergflink.table.lookup.LookupSettings;
import dev.icebergflink.table.lookup.LookupTableReader;
import dev.icebergflink.table.lookup.ScanLookupFunction;
import dev.icebergflink.table.source.DeclaredRowDataConverter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.apache.flink.table.connector.source.lookup.cache.DefaultLookupCache;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.LookupFunction;
import org.apache.flink.table.runtime.functions.table.lookup.CachingLookupFunction;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.hadoop.HadoopTables;

/**
 * Measures lookup joins against an Iceberg table: how long the FULL cache takes to load a table and
 * how much heap it takes, and how many lookups per second one join subtask answers in each mode.
 *
 * <p>The dimension table holds the benchmark rows with ids {@code [0, rows)} (Parquet with 1 MB row
 * groups, one file per core written by the generic writer, ids in order, so the files' and row
 * groups' statistics on {@code id} are tight); lookups project {@code id, name, price} and look up
 * random ids. Each measurement drives the connector's own lookup classes on one thread, as one
 * subtask of a join runs them (without the rest of a Flink job):
 *
 * <ul>
 *   <li>{@code lookup-full-load}: the FULL cache's first load of the whole table;
 *   <li>{@code lookup-full}: lookups answered by the loaded FULL cache;
 *   <li>{@code lookup-none}: lookups of random ids without a cache, each planning and reading the
 *       files that can hold its id ({@code 'lookup.cache'='NONE'}, a PARTIAL cache miss);
 *   <li>{@code lookup-partial}: {@code 'lookup.cache'='PARTIAL'}: Flink's own caching function (as
 *       its planner builds it) in front, ten lookups per distinct id (90% hits).
 * </ul>
 *
 * Every lookup must return exactly the row of its id, or the run fails.
 *
 * <p>Usage: {@code LookupBenchmark [rows (default 1000000)] [full lookups (default 1000000)] [file
 * lookups (default 200)] [runs (default 3)]}; prints one JSON line per workload and run ({@link
 * LookupMeasurement}) and then a summary.
 */
public final class LookupBenchmark {

    private static final Schema PROJECTION = BenchmarkRows.SCHEMA.select("id", "name", "price");

    /**
     * The Parquet row group size of the table: 1 MB (Iceberg's default is 128 MB), so that a
     * per-key lookup reads one small row group instead of a whole file, as a table meant for such
     * lookups would be written.
     */
    static final long ROW_GROUP_BYTES = 1L << 20;

    private LookupBenchmark() {}

    public static void main(String[] args) throws Exception {
        long rows = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        long fullLookups = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000;
        long fileLookups = args.length > 2 ? Long.parseLong(args[2]) : 200;
        int runs = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        printSummary(run(rows, fullLookups, fileLookups, runs, System.out), System.out);
    }

    /**
     * Writes the table into a temporary directory and measures every workload {@code runs} times,
     * printing each result as a JSON line to {@code out}.
     *
     * @throws IllegalStateException when a lookup returns anything but the row of its id
     */
    public static List<LookupMeasurement> run(
            long rows, long fullLookups, long fileLookups, int runs, PrintStream out)
            throws Exception {
        Path directory = Files.createTempDirectory("lookup-benchmark");
        Table table =
                new HadoopTables(new Configuration())
                        .create(
                                BenchmarkRows.SCHEMA,
                                org.apache.iceberg.PartitionSpec.unpartitioned(),
                                Map.of(
                                        TableProperties.DEFAULT_FILE_FORMAT,
                                        "parquet",
                                        TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES,
                                        String.valueOf(ROW_GROUP_BYTES)),
                                directory.toUri().toString());
        GenericLimits.write(table, new BenchmarkRows(42), rows);
        List<LookupMeasurement> results = new ArrayList<>();
        for (int run = 1; run <= runs; run++) {
            List<LookupMeasurement> round = new ArrayList<>(full(table, run, rows, fullLookups));
            round.add(fileLookups(table, run, rows, fileLookups, false));
            round.add(fileLookups(table, run, rows, fileLookups * 10, true));
            for (LookupMeasurement result : round) {
                out.println(result.toJson());
                results.add(result);
            }
        }
        return results;
    }

    /** The FULL cache's load, then its lookups. */
    private static List<LookupMeasurement> full(Table table, int run, long rows, long lookups)
            throws IOException {
        RowType produced = FlinkSchemaUtil.convert(PROJECTION);
        LookupKeys keys = new LookupKeys(produced, PROJECTION, new int[] {0});
        try (LookupTableReader reader = reader(table)) {
            reader.open();
            FullCache cache = new FullCache(reader, keys, Long.MAX_VALUE);
            long start = System.nanoTime();
            cache.reload();
            double loadSeconds = (System.nanoTime() - start) / 1e9;
            expect(cache.rowCount() == rows, "the cache holds " + cache.rowCount() + " rows");
            LookupMeasurement load =
                    new LookupMeasurement(
                            "lookup-full-load",
                            run,
                            rows,
                            0,
                            cache.rowCount(),
                            loadSeconds,
                            cache.estimatedBytes());
            SplittableRandom random = new SplittableRandom(run);
            long matched = 0;
            start = System.nanoTime();
            for (long i = 0; i < lookups; i++) {
                long id = random.nextLong(rows);
                matched += check(id, cache.lookup(keys.ofLookup(GenericRowData.of(id))));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            return List.of(
                    load,
                    new LookupMeasurement(
                            "lookup-full",
                            run,
                            rows,
                            lookups,
                            matched,
                            seconds,
                            cache.estimatedBytes()));
        }
    }

    private static LookupMeasurement fileLookups(
            Table table, int run, long rows, long lookups, boolean partial) throws Exception {
        LookupSettings settings =
                LookupSettings.resolve(
                        "benchmark",
                        partial
                                ? Map.of(
                                        "lookup.cache", "PARTIAL",
                                        "lookup.partial-cache.max-rows", "100000")
                                : Map.of("lookup.cache", "NONE"));
        RowType produced = FlinkSchemaUtil.convert(PROJECTION);
        LookupKeys keys = new LookupKeys(produced, PROJECTION, new int[] {0});
        LookupFunction function = new ScanLookupFunction(reader(table), keys, settings);
        if (partial) {
            function =
                    new CachingLookupFunction(
                            DefaultLookupCache.newBuilder()
                                    .maximumSize(settings.partialMaxRows())
                                    .build(),
                            function);
        }
        function.open(new FunctionContext(null));
        try {
            long distinct = partial ? Math.max(1, lookups / 10) : lookups;
            List<Long> ids = new ArrayList<>();
            SplittableRandom random = new SplittableRandom(run);
            for (long i = 0; i < distinct; i++) {
                ids.add(random.nextLong(rows));
            }
            long matched = 0;
            long start = System.nanoTime();
            for (long i = 0; i < lookups; i++) {
                long id = ids.get((int) (partial ? random.nextLong(distinct) : i));
                matched += check(id, function.lookup(GenericRowData.of(id)));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            return new LookupMeasurement(
                    partial ? "lookup-partial" : "lookup-none",
                    run,
                    rows,
                    lookups,
                    matched,
                    seconds,
                    0);
        } finally {
            function.close();
        }
    }

    private static LookupTableReader reader(Table table) {
        ScanContext plan =
                ScanContext.resolve(Map.of(), null, table, null, List.of())
                        .withProjection(PROJECTION);
        RowType produced = FlinkSchemaUtil.convert(PROJECTION);
        return new LookupTableReader(
                "benchmark",
                TableLoader.fromHadoopTable(table.location()),
                plan,
                new DeclaredRowDataConverter("benchmark", produced, produced),
                produced);
    }

    private static int check(long id, Collection<RowData> found) {
        expect(
                found.size() == 1 && found.iterator().next().getLong(0) == id,
                "the lookup of id " + id + " returned " + found);
        return 1;
    }

    private static void expect(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException("Wrong lookup result: " + what);
        }
    }

    /** Prints the median and the range of each workload's rate. */
    public static void printSummary(List<LookupMeasurement> results, PrintStream out) {
        Map<String, List<LookupMeasurement>> byWorkload =
                results.stream()
                        .collect(
                                Collectors.groupingBy(
                                        LookupMeasurement::workload,
                                        java.util.LinkedHashMap::new,
                                        Collectors.toList()));
        byWorkload.forEach(
                (workload, runs) -> {
                    List<Double> rates =
                            runs.stream().map(LookupMeasurement::perSecond).sorted().toList();
                    List<Double> seconds =
                            runs.stream().map(LookupMeasurement::seconds).sorted().toList();
                    out.printf(
                            Locale.ROOT,
                            "# %s: median %.0f/s (%.0f-%.0f), median %.2f s, cache %d bytes%n",
                            workload,
                            rates.get(rates.size() / 2),
                            rates.get(0),
                            rates.get(rates.size() - 1),
                            seconds.get(seconds.size() / 2),
                            runs.get(0).cacheBytes());
                });
    }
}
