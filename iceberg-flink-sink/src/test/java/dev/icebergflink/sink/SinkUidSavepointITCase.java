package dev.icebergflink.sink;

import static dev.icebergflink.sink.SinkTestTables.BY_PART;
import static dev.icebergflink.sink.SinkTestTables.TYPE_INFO;
import static dev.icebergflink.sink.SinkTestTables.row;
import static dev.icebergflink.sink.SinkTestTables.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.TableLoader;
import dev.icebergflink.testing.SavepointFixtures;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.DistributionMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code uid-suffix} gives every operator of the sink topology a stable uid: a job stopped with a
 * savepoint restores into a freshly built job with the same suffix without dropping any state
 * (non-restored state is not allowed), and the table then holds exactly the input.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SinkUidSavepointITCase extends SinkITCaseBase {

    private static final int N = 1200;
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    @TempDir Path dir;

    /** The job: a throttled generator (own uid) into an upsert sink with the given suffix. */
    private static void pipeline(
            StreamExecutionEnvironment env,
            TableLoader loader,
            DistributionMode mode,
            boolean reshaped) {
        GeneratorFunction<Long, RowData> generator = i -> row(i, "v" + i, "p" + (i % 3));
        DataStream<RowData> input =
                env.fromSource(
                                new DataGeneratorSource<>(
                                        generator,
                                        N,
                                        RateLimiterStrategy.perCheckpoint(60),
                                        TYPE_INFO),
                                WatermarkStrategy.noWatermarks(),
                                "generator")
                        .uid("generator");
        if (reshaped) {
            // a changed job: an operator before the sink changes every generated operator id
            // downstream, so only explicit uids still match the savepoint
            input = input.filter(r -> true).uid("added-filter").name("added-filter");
        }
        // a plain sinkTo without .uid(...): the suffix alone makes the uids stable
        input.sinkTo(
                IcebergSink.forRowData()
                        .tableLoader(loader)
                        .upsert(true)
                        .equalityFieldColumns(List.of("id", "part"))
                        .distributionMode(mode)
                        .uidSuffix("orders")
                        .build());
    }

    @Test
    void aSuffixGivesEveryOperatorAStableUidWithAPlainSinkTo() {
        TableLoader loader = tables.create(BY_PART, 2);
        StreamExecutionEnvironment env = SavepointFixtures.environment(null);
        pipeline(env, loader, DistributionMode.HASH, false);
        List<String> uids =
                env.getStreamGraph().getStreamNodes().stream()
                        .map(StreamNode::getTransformationUID)
                        .sorted()
                        .collect(Collectors.toList());
        assertThat(uids)
                .containsExactly(
                        "Sink Committer: iceberg-writer-orders",
                        "generator",
                        "iceberg-writer-orders",
                        "iceberg-writer-orders: iceberg-aggregator-orders",
                        "iceberg-writer-orders: iceberg-dedup-orders");
    }

    @Test
    void withoutASuffixFlinkGeneratesTheIds() {
        TableLoader loader = tables.create(BY_PART, 2);
        StreamExecutionEnvironment env = SavepointFixtures.environment(null);
        input(env, List.of(row(1, "a", "x")))
                .sinkTo(IcebergSink.forRowData().tableLoader(loader).build());
        assertThat(env.getStreamGraph().getStreamNodes())
                .extracting(StreamNode::getTransformationUID)
                .containsOnlyNulls();
    }

    @Test
    void twoSinksWithTheSameSuffixAreRejected() {
        TableLoader first = tables.create(BY_PART, 2);
        TableLoader second = tables.create(BY_PART, 2);
        StreamExecutionEnvironment env = SavepointFixtures.environment(null);
        DataStream<RowData> input = input(env, List.of(row(1, "a", "x")));
        input.sinkTo(IcebergSink.forRowData().tableLoader(first).uidSuffix("same").build());
        input.sinkTo(IcebergSink.forRowData().tableLoader(second).uidSuffix("same").build());
        assertThatThrownBy(env::getStreamGraph)
                .hasStackTraceContaining("uid suffix 'same'")
                .hasStackTraceContaining("uid-suffix");
    }

    @ParameterizedTest
    @EnumSource(
            value = DistributionMode.class,
            names = {"HASH", "RANGE"})
    void aSavepointRestoresIntoANewJobWithTheSameSuffix(DistributionMode mode) throws Exception {
        TableLoader loader = tables.create(BY_PART, 2);
        StreamExecutionEnvironment first = SavepointFixtures.environment(null);
        pipeline(first, loader, mode, false);
        JobClient client = first.executeAsync("before the savepoint");
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (SinkTestTables.snapshots(loader).size() < 2) {
            assertThat(System.nanoTime())
                    .as("two commits before the deadline")
                    .isLessThan(deadline);
            Thread.sleep(20);
        }
        String savepoint =
                client.stopWithSavepoint(
                                false,
                                dir.resolve("savepoints").toUri().toString(),
                                SavepointFormatType.CANONICAL)
                        .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        List<String> before = rows(loader);
        assertThat(before).isNotEmpty().hasSizeLessThan(N);

        // a new, changed job with the same suffix: every operator's state (source
        // position, de-duplication, statistics, aggregation, committer) must find its operator,
        // or the submission fails (unclaimed state is not ignored)
        StreamExecutionEnvironment second = SavepointFixtures.environment(savepoint);
        pipeline(second, loader, mode, true);
        second.execute("after the savepoint");

        assertThat(rows(loader)).isEqualTo(expected(N, 3));
    }
}
