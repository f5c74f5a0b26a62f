package dev.icebergflink.sink;

import static dev.icebergflink.sink.SinkTestTables.TYPE_INFO;
import static dev.icebergflink.sink.SinkTestTables.row;

import dev.icebergflink.TableLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The job of the sink's savepoint fixture, shared by its generator ({@link
 * SinkSavepointFixtureGeneratorITCase}) and the restore test ({@code
 * SinkSavepointCompatibilityITCase}): a throttled generator of {@link #ROWS} rows {@code (i, "v" +
 * i, "p" + i % 3)} (one subtask, so that the rows committed up to any checkpoint are ids {@code
 * 0..n - 1}) into an append {@link IcebergSink} (hash distribution by partition, parallelism 2, uid
 * suffix {@link #UID_SUFFIX}) of the Hadoop-catalog table {@code db.orders} in {@code
 * <fixture>/tables}, partitioned by {@code part}.
 *
 * <p>Change nothing here that changes the job's operators or their uids: the fixtures of earlier
 * releases must keep restoring into it.
 */
final class SinkSavepointFixtureJob {

    /** The fixture's name: its fixed directory and its folder under {@code savepoints/<line>}. */
    static final String NAME = "iceberg-sink";

    static final int ROWS = 300;
    static final int PARTITIONS = 3;
    static final String GENERATOR_UID = "fixture-generator";
    static final String UID_SUFFIX = "fixture";
    static final TableIdentifier TABLE = TableIdentifier.of("db", "orders");

    private SinkSavepointFixtureJob() {}

    static SinkTestTables tables(Path fixtureDir) {
        return new SinkTestTables(fixtureDir.resolve("tables"));
    }

    /** Creates the (empty) table in the fixture directory; the generator's first step. */
    static TableLoader createTable(Path fixtureDir) {
        SinkTestTables tables = tables(fixtureDir);
        tables.catalog()
                .createTable(
                        TABLE,
                        SinkTestTables.SCHEMA,
                        SinkTestTables.BY_PART,
                        Map.of(TableProperties.FORMAT_VERSION, "2"));
        return tables.loader(TABLE);
    }

    static TableLoader loader(Path fixtureDir) {
        return tables(fixtureDir).loader(TABLE);
    }

    /** Adds the job to {@code env}: {@code rowsPerCheckpoint} generated rows per checkpoint. */
    static void pipeline(
            StreamExecutionEnvironment env, TableLoader loader, int rowsPerCheckpoint) {
        GeneratorFunction<Long, RowData> generator = i -> row(i, "v" + i, "p" + (i % PARTITIONS));
        env.fromSource(
                        new DataGeneratorSource<>(
                                generator,
                                ROWS,
                                RateLimiterStrategy.perCheckpoint(rowsPerCheckpoint),
                                TYPE_INFO),
                        WatermarkStrategy.noWatermarks(),
                        "generator")
                .uid(GENERATOR_UID)
                .setParallelism(1)
                .sinkTo(
                        IcebergSink.forRowData()
                                .tableLoader(loader)
                                .distributionMode(DistributionMode.HASH)
                                .uidSuffix(UID_SUFFIX)
                                .build());
    }

    /** The rows of the table after the whole input, as {@link SinkTestTables#rows} lists them. */
    static List<String> expected(int from, int to) {
        return IntStream.range(from, to)
                .mapToObj(i -> i + ":v" + i + ":p" + (i % PARTITIONS))
                .sorted()
                .collect(Collectors.toList());
    }
}
