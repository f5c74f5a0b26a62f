package dev.icebergflink.benchmarks.jmh;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import dev.icebergflink.benchmarks.planning.SyntheticDataFiles;
import dev.icebergflink.source.FlinkReadOptions;
import dev.icebergflink.source.config.ScanContext;
import dev.icebergflink.source.enumerator.IcebergEnumeratorState;
import dev.icebergflink.source.enumerator.IcebergEnumeratorStateSerializer;
import dev.icebergflink.source.planning.SnapshotPosition;
import dev.icebergflink.source.planning.SplitPlanner;
import dev.icebergflink.source.split.IcebergSourceSplit;
import dev.icebergflink.source.split.IcebergSourceSplitSerializer;
import dev.icebergflink.tasks.codec.TableMetadataLookup;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.BaseCombinedScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Serializes and deserializes source splits ({@link IcebergSourceSplitSerializer}: every split sent
 * to a reader and every reader checkpoint) and enumerator state ({@link
 * IcebergEnumeratorStateSerializer} with {@link #PENDING_SPLITS} pending splits: every enumerator
 * checkpoint).
 *
 * <p>The splits are planned by the source's {@link SplitPlanner} from a table of metadata-only
 * small files ({@link SyntheticDataFiles}): {@code combined} is a planned split (small files are
 * packed into one split up to the split size, 32 files here), {@code single} one file of it. Scores
 * are microseconds per operation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class SplitSerializerBenchmark {

    /** Pending splits in the benchmarked enumerator state. */
    public static final int PENDING_SPLITS = 100;

    /** {@code single}: a one-file split; {@code combined}: a planned split of small files. */
    @Param({"single", "combined"})
    public String split;

    private BenchmarkTable table;
    private IcebergSourceSplitSerializer splitSerializer;
    private IcebergEnumeratorStateSerializer stateSerializer;
    private IcebergSourceSplit oneSplit;
    private byte[] splitBytes;
    private IcebergEnumeratorState state;
    private byte[] stateBytes;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        table =
                BenchmarkTable.create(
                        BenchmarkRows.SCHEMA, PartitionSpec.unpartitioned(), Map.of());
        Table iceberg = table.table();
        SyntheticDataFiles.append(iceberg, 64 * 32, 1, 3L);
        iceberg.refresh();
        ScanContext context =
                ScanContext.resolve(
                        Map.of(FlinkReadOptions.SPLIT_PLANNING_PAGE_SIZE.key(), "-1"),
                        null,
                        iceberg,
                        null,
                        List.of());
        List<IcebergSourceSplit> planned =
                new SplitPlanner(iceberg, context, null).planBounded().splits();
        List<IcebergSourceSplit> splits = new ArrayList<>(PENDING_SPLITS);
        for (int i = 0; i < PENDING_SPLITS; i++) {
            IcebergSourceSplit combined = planned.get(i % planned.size());
            splits.add(
                    switch (split) {
                        case "combined" -> combined;
                        case "single" ->
                                IcebergSourceSplit.fromCombinedScanTask(
                                        new BaseCombinedScanTask(
                                                List.copyOf(combined.task().files())
                                                        .get(i % combined.task().files().size())));
                        default ->
                                throw new IllegalArgumentException(
                                        "Unknown split kind '"
                                                + split
                                                + "'; allowed values: single, combined");
                    });
        }
        splitSerializer = new IcebergSourceSplitSerializer(TableMetadataLookup.of(iceberg));
        stateSerializer = new IcebergEnumeratorStateSerializer(splitSerializer);
        oneSplit = splits.get(0);
        splitBytes = splitSerializer.serialize(oneSplit);
        state =
                new IcebergEnumeratorState(
                        SnapshotPosition.after(iceberg.currentSnapshot()), null, splits);
        stateBytes = stateSerializer.serialize(state);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        table.close();
    }

    /** The serialized size of one split, for reports. */
    public int splitBytes() {
        return splitBytes.length;
    }

    /** The serialized size of the enumerator state, for reports. */
    public int stateBytes() {
        return stateBytes.length;
    }

    @Benchmark
    public byte[] serializeSplit() throws IOException {
        return splitSerializer.serialize(oneSplit);
    }

    @Benchmark
    public IcebergSourceSplit deserializeSplit() throws IOException {
        return splitSerializer.deserialize(splitSerializer.getVersion(), splitBytes);
    }

    @Benchmark
    public byte[] serializeEnumeratorState() throws IOException {
        return stateSerializer.serialize(state);
    }

    @Benchmark
    public IcebergEnumeratorState deserializeEnumeratorState() throws IOException {
        return stateSerializer.deserialize(stateSerializer.getVersion(), stateBytes);
    }
}
