package dev.icebergflink.benchmarks.jmh;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import dev.icebergflink.data.row.RowDataPartitioner;
import dev.icebergflink.data.row.RowDataStructLike;
import dev.icebergflink.sink.distribution.PartitionKeySelector;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.util.StructLikeMap;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Computes the Iceberg partition of each benchmark row for an identity, a bucket and a day
 * transform, on generic and on binary rows: the sink writer's routing ({@link RowDataPartitioner}
 * keys looked up in a map of the partitions seen, as the task writers do), Iceberg's way (its
 * {@link PartitionKey} over a {@link RowDataStructLike} view, looked up in a {@link StructLikeMap};
 * the writer's path before) and the partition key alone, the hash distribution's key ({@link
 * PartitionKeySelector}), and, as the baseline, Iceberg's generic path ({@link
 * InternalRecordWrapper} over a {@link Record}).
 *
 * <p>Scores are rows per second ({@link #ROWS} rows per invocation).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class PartitionKeyBenchmark {

    /** Rows partitioned per invocation. */
    public static final int ROWS = 1024;

    /** {@code identity} of the category, {@code bucket} of the id (16), {@code day} of the ts. */
    @Param({"identity", "bucket", "day"})
    public String transform;

    /**
     * {@code generic}: the generator's {@code GenericRowData} (strings still Java strings), as a
     * writer chained to the source sees them; {@code binary}: {@code BinaryRowData}, as a writer
     * sees them after the hash distribution's network shuffle.
     */
    @Param({"generic", "binary"})
    public String layout;

    private List<RowData> rowData;
    private List<Record> records;
    private PartitionKey rowDataKey;
    private RowDataStructLike view;
    private PartitionKeySelector selector;
    private RowDataPartitioner partitioner;
    private Map<RowDataPartitioner.Key, Integer> routes;
    private StructLikeMap<Integer> icebergRoutes;
    private PartitionKey genericKey;
    private InternalRecordWrapper wrapper;

    @Setup(Level.Trial)
    public void setUp() {
        BenchmarkRows rows = new BenchmarkRows(7L);
        rowData = rows.rowData(ROWS);
        if (layout.equals("binary")) {
            RowDataSerializer serializer = new RowDataSerializer(BenchmarkRows.ROW_TYPE);
            rowData =
                    rowData.stream()
                            .map(row -> (RowData) serializer.toBinaryRow(row).copy())
                            .toList();
        } else if (!layout.equals("generic")) {
            throw new IllegalArgumentException(
                    "Unknown layout '" + layout + "'; allowed values: generic, binary");
        }
        records = rows.records(ROWS);
        PartitionSpec spec = spec(transform);
        rowDataKey = new PartitionKey(spec, BenchmarkRows.SCHEMA);
        view = new RowDataStructLike(BenchmarkRows.SCHEMA.asStruct(), BenchmarkRows.ROW_TYPE);
        selector = new PartitionKeySelector(BenchmarkRows.SCHEMA, spec, BenchmarkRows.ROW_TYPE);
        partitioner = new RowDataPartitioner(spec, BenchmarkRows.SCHEMA, BenchmarkRows.ROW_TYPE);
        routes = new HashMap<>();
        icebergRoutes = StructLikeMap.create(spec.partitionType());
        genericKey = new PartitionKey(spec, BenchmarkRows.SCHEMA);
        wrapper = new InternalRecordWrapper(BenchmarkRows.SCHEMA.asStruct());
    }

    /** The partition spec a transform name stands for. */
    public static PartitionSpec spec(String transform) {
        PartitionSpec.Builder builder = PartitionSpec.builderFor(BenchmarkRows.SCHEMA);
        return switch (transform) {
            case "identity" -> builder.identity("category").build();
            case "bucket" -> builder.bucket("id", 16).build();
            case "day" -> builder.day("ts").build();
            default ->
                    throw new IllegalArgumentException(
                            "Unknown transform '"
                                    + transform
                                    + "'; allowed values: identity, bucket, day");
        };
    }

    /**
     * The sink writer's routing: the row's partition key looked up among the partitions seen; a new
     * partition is added with Iceberg's partition (rare: once per partition).
     */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void writerRoute(Blackhole blackhole) {
        for (RowData row : rowData) {
            RowDataPartitioner.Key key = partitioner.key(row);
            Integer route = routes.get(key);
            if (route == null) {
                route = partitioner.detachedPartition(row).hashCode();
                routes.put(key.detach(), route);
            }
            blackhole.consume(route);
        }
    }

    /**
     * Iceberg's way to route a row, which the sink writer used before: the partition key over a
     * reused view of the RowData, looked up in a {@link StructLikeMap} of the partitions seen.
     */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void icebergRoute(Blackhole blackhole) {
        for (RowData row : rowData) {
            rowDataKey.partition(view.wrap(row));
            Integer route = icebergRoutes.get(rowDataKey);
            if (route == null) {
                route = rowDataKey.hashCode();
                icebergRoutes.put(rowDataKey.copy(), route);
            }
            blackhole.consume(route);
        }
    }

    /** How many partitions {@link #writerRoute} and {@link #icebergRoute} have seen (tests). */
    public int[] partitionsSeen() {
        return new int[] {routes.size(), icebergRoutes.size()};
    }

    /** Iceberg's partition key over a reused view of the RowData, without a lookup. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void rowDataPartitionKey(Blackhole blackhole) {
        for (RowData row : rowData) {
            rowDataKey.partition(view.wrap(row));
            blackhole.consume(rowDataKey.get(0, Object.class));
        }
    }

    /** The hash distribution's key selector: a hash of the partition. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void hashDistributionKey(Blackhole blackhole) {
        for (RowData row : rowData) {
            blackhole.consume(selector.getKey(row));
        }
    }

    /** The baseline: Iceberg's generic records wrapped for partitioning. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void genericPartitionKey(Blackhole blackhole) {
        for (Record record : records) {
            genericKey.partition(wrapper.wrap(record));
            blackhole.consume(genericKey.get(0, Object.class));
        }
    }
}
