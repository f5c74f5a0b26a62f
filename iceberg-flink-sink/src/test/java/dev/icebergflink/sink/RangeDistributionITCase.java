package dev.icebergflink.sink;

import static dev.icebergflink.sink.SinkTestTables.TYPE_INFO;
import static dev.icebergflink.sink.SinkTestTables.row;
import static dev.icebergflink.sink.SinkTestTables.rows;
import static dev.icebergflink.sink.SinkTestTables.snapshots;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.TableLoader;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Range distribution over 4 writers with skewed sort keys: 80% of the rows have keys in a narrow
 * range. The writers get balanced row counts (counted per writer subtask from the data files) and
 * each writer's files cover a narrow key range once the boundaries exist; the table holds exactly
 * the input.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RangeDistributionITCase extends SinkITCaseBase {

    private static final int N = 4000;
    private static final int WRITERS = 4;

    /** The sort key of row {@code id}: 80% in [0, 1000), 20% in [1000, 1_000_000); seeded. */
    static int key(long id) {
        SplittableRandom random = new SplittableRandom(id * 7919L + 13);
        return random.nextInt(10) < 8 ? random.nextInt(1000) : 1000 + random.nextInt(999_000);
    }

    static String data(long id) {
        return String.format("k%07d-%d", key(id), id);
    }

    @Test
    void skewedKeysAreBalancedOverTheWritersByKeyRanges() throws Exception {
        TableLoader loader = tables.create(PartitionSpec.unpartitioned(), 2);
        Table table = SinkTestTables.load(loader);
        table.replaceSortOrder().asc("data").commit();

        StreamExecutionEnvironment env = env();
        GeneratorFunction<Long, RowData> generator = i -> row(i, data(i), "p");
        env.fromSource(
                        new DataGeneratorSource<>(
                                generator, N, RateLimiterStrategy.perCheckpoint(400), TYPE_INFO),
                        WatermarkStrategy.noWatermarks(),
                        "generator")
                .setParallelism(1)
                .sinkTo(
                        IcebergSink.forRowData()
                                .tableLoader(loader)
                                .distributionMode(DistributionMode.RANGE)
                                .writeParallelism(WRITERS)
                                .build());
        env.execute("range");

        List<String> expected =
                IntStream.range(0, N)
                        .mapToObj(i -> i + ":" + data(i) + ":p")
                        .sorted()
                        .collect(Collectors.toList());
        assertThat(rows(loader)).isEqualTo(expected);

        // rows per writer subtask (data file names start with the writer's subtask index)
        Map<Integer, Long> perWriter = new HashMap<>();
        List<Snapshot> snapshots = snapshots(loader);
        for (Snapshot snapshot : snapshots) {
            for (DataFile file : addedFiles(loader, snapshot)) {
                perWriter.merge(writer(file), file.recordCount(), Long::sum);
            }
        }
        assertThat(perWriter).as("rows per writer").hasSize(WRITERS);
        // balanced within 30%: the boundaries come from samples of at least 1024 records (rounds of
        // checkpoints with fewer records are pooled, however the checkpoints fall on a loaded
        // machine), and rows before the first boundaries go round robin
        assertThat(perWriter.values()).allSatisfy(n -> assertThat(n).isBetween(700L, 1300L));

        // key ranges: with round robin every writer's file spans about the whole key space, so
        // the spans add up to about 4 times the union; by ranges they add up to about the union
        int ranged = 0;
        for (Snapshot snapshot : snapshots.subList(2, snapshots.size())) {
            List<DataFile> files = addedFiles(loader, snapshot);
            if (files.size() < WRITERS) {
                continue;
            }
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            long spans = 0;
            for (DataFile file : files) {
                long lower = bound(file.lowerBounds().get(2));
                long upper = bound(file.upperBounds().get(2));
                min = Math.min(min, lower);
                max = Math.max(max, upper);
                spans += upper - lower;
            }
            if (spans <= 1.5 * (max - min)) {
                ranged++;
            }
        }
        assertThat(ranged).as("snapshots whose writers wrote disjoint-ish key ranges").isPositive();
    }

    private static int writer(DataFile file) {
        String name = Path.of(file.location()).getFileName().toString();
        return Integer.parseInt(name.substring(0, name.indexOf('-')));
    }

    /** The key of a data bound ({@code k<7 digits>-...}; string bounds may be truncated). */
    private static long bound(java.nio.ByteBuffer buffer) {
        String value = Conversions.fromByteBuffer(Types.StringType.get(), buffer).toString();
        return Long.parseLong(value.substring(1, 8));
    }
}
