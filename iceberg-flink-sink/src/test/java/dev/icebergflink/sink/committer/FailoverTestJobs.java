package dev.icebergflink.sink.committer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.sink.IcebergSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Jobs and checks shared by the failover ITCases: a deterministic, checkpointed source of rows
 * {@code (id, "row-<id>")} throttled per checkpoint, an Iceberg sink, and a content check that the
 * table holds every expected row exactly once.
 */
final class FailoverTestJobs {

    static final PartitionSpec BUCKETS =
            PartitionSpec.builderFor(SinkTestTables.SCHEMA).bucket("id", 4).build();
    static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SinkTestTables.SCHEMA);
    static final TypeInformation<RowData> ROW_INFO = InternalTypeInfo.of(ROW_TYPE);
    static final Duration TIMEOUT = Duration.ofMinutes(2);

    /** The sink under test: the public IcebergSink for the settings' table and uid suffix. */
    static Sink<RowData> sink(CommitterSettings settings) {
        return IcebergSink.forRowData()
                .tableLoader(settings.tableLoader())
                .uidSuffix(settings.uidSuffix())
                .build();
    }

    private FailoverTestJobs() {}

    static Table createTable(Path dir) {
        return SinkTestTables.create(
                dir,
                BUCKETS,
                2,
                Map.of(
                        TableProperties.COMMIT_NUM_RETRIES, "50",
                        TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "10",
                        TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "200"));
    }

    /** Rows {@code first .. first + count - 1}. */
    static final class Rows implements GeneratorFunction<Long, RowData> {
        private static final long serialVersionUID = 1L;
        private final long first;

        Rows(long first) {
            this.first = first;
        }

        @Override
        public RowData map(Long index) {
            long id = first + index;
            return GenericRowData.of(id, StringData.fromString("row-" + id));
        }
    }

    /** Builds the job graph of one streaming writing job. */
    static JobGraph job(
            Table table,
            long first,
            long count,
            int rowsPerCheckpoint,
            String uidSuffix,
            MapFunction<RowData, RowData> inject) {
        return job(table, first, count, rowsPerCheckpoint, uidSuffix, inject, false, null);
    }

    /**
     * Builds the job graph of one writing job; in batch mode there are no checkpoints and no
     * throttling; {@code jobId} null means a random one.
     */
    static JobGraph job(
            Table table,
            long first,
            long count,
            int rowsPerCheckpoint,
            String uidSuffix,
            MapFunction<RowData, RowData> inject,
            boolean batch,
            JobID jobId) {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 20);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(50));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        if (batch) {
            env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        } else {
            env.enableCheckpointing(100);
        }
        DataStream<RowData> rows =
                env.fromSource(
                                new DataGeneratorSource<>(
                                        new Rows(first),
                                        count,
                                        batch
                                                ? RateLimiterStrategy.noOp()
                                                : RateLimiterStrategy.perCheckpoint(
                                                        rowsPerCheckpoint),
                                        ROW_INFO),
                                WatermarkStrategy.noWatermarks(),
                                "rows")
                        .uid("rows");
        if (inject != null) {
            rows = rows.map(inject).returns(ROW_INFO).uid("inject");
        }
        CommitterSettings settings =
                CommitterSettings.builder(SinkTestTables.loader(table))
                        .uidSuffix(uidSuffix)
                        .build();
        rows.sinkTo(sink(settings)).uid("iceberg-sink-" + uidSuffix);
        return jobId == null
                ? env.getStreamGraph().getJobGraph()
                : env.getStreamGraph()
                        .getJobGraph(Thread.currentThread().getContextClassLoader(), jobId);
    }

    static JobGraph restoredFrom(JobGraph job, String savepoint) {
        job.setSavepointRestoreSettings(SavepointRestoreSettings.forPath(savepoint, false));
        return job;
    }

    static JobID submit(MiniCluster cluster, JobGraph job) throws Exception {
        return cluster.submitJob(job).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).getJobID();
    }

    static void awaitSuccess(MiniCluster cluster, JobID job) throws Exception {
        JobResult result =
                cluster.requestJobResult(job).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(result.getSerializedThrowable()).as("job %s failed", job).isEmpty();
        assertThat(result.isSuccess()).isTrue();
    }

    /** Polls {@code condition} until it holds or the deadline passes (then fails). */
    static void waitUntil(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Timed out waiting until " + what);
            }
            Thread.sleep(20);
        }
    }

    static int snapshotCount(Table table) {
        table.refresh();
        return SinkTestTables.history(table, "main").size();
    }

    /** Every row id in the table, sorted, after checking each row's content. */
    static List<Long> ids(Table table) {
        table.refresh();
        List<Long> ids = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            for (Record record : records) {
                long id = (Long) record.getField("id");
                assertThat(record.getField("data")).isEqualTo("row-" + id);
                ids.add(id);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ids.sort(Long::compare);
        return ids;
    }

    static List<Long> range(long first, long count) {
        List<Long> ids = new ArrayList<>();
        for (long id = first; id < first + count; id++) {
            ids.add(id);
        }
        return ids;
    }

    /**
     * Checks the exactly-once bookkeeping: every snapshot the sink made carries the three keys, and
     * per job/operator pair the recorded checkpoint ids strictly increase along the history.
     */
    static void assertCheckpointIdsIncrease(Table table) {
        Map<String, Long> last = new HashMap<>();
        for (Snapshot snapshot : SinkTestTables.history(table, "main")) {
            Map<String, String> summary = snapshot.summary();
            String job = summary.get(CommitSummaryKeys.JOB_ID);
            assertThat(job).as("snapshot %s has no job id", snapshot.snapshotId()).isNotNull();
            String key = job + "/" + summary.get(CommitSummaryKeys.OPERATOR_ID);
            long max = Long.parseLong(summary.get(CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID));
            String end = summary.get(CommitSummaryKeys.END_OF_INPUT_CHECKPOINT_ID);
            long effective = end == null ? max : Long.parseLong(end);
            Long previous = last.put(key, effective);
            if (previous != null) {
                assertThat(effective)
                        .as("checkpoint ids of %s along the history", key)
                        .isGreaterThan(previous);
            }
            assertThat(max).isLessThan(Long.MAX_VALUE);
        }
    }
}
