package dev.icebergflink.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import dev.icebergflink.source.planning.TableIdentity;
import dev.icebergflink.testing.Jobs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streaming read whose table is dropped and re-created under the same name on a Hadoop catalog
 * (same location, same metadata file names): the running job fails, without restarting, with the
 * message naming the table and both UUIDs, instead of stalling or reading the new table; so does a
 * job restored from a savepoint taken before the re-creation.
 */
class IcebergSourceRecreatedTableITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SourceITCaseSupport.miniCluster();

    private static final TableIdentifier ID = TableIdentifier.of("db", "t");
    private static final Duration DEADLINE = Duration.ofSeconds(90);

    @TempDir Path dir;

    /** Records the id of every row it sees. */
    private static final class RecordIds implements MapFunction<RowData, RowData> {
        static final Queue<Long> SEEN = new ConcurrentLinkedQueue<>();

        @Override
        public RowData map(RowData row) {
            SEEN.add(row.getLong(0));
            return row;
        }
    }

    private CatalogLoader catalogLoader;
    private Catalog catalog;
    private Table table;
    private String oldUuid;

    @BeforeEach
    void createTable() {
        catalogLoader =
                CatalogLoader.hadoop(
                        "hadoop",
                        new org.apache.hadoop.conf.Configuration(),
                        Map.of("warehouse", dir.resolve("warehouse").toUri().toString()));
        catalog = catalogLoader.loadCatalog();
        ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
        table = create();
        SourceTestTables.append(table, 0, 3);
        SourceTestTables.append(table, 3, 5);
        oldUuid = TableIdentity.uuidOf(table);
        RecordIds.SEEN.clear();
    }

    private Table create() {
        return catalog.createTable(
                ID,
                SourceTestTables.SCHEMA,
                PartitionSpec.unpartitioned(),
                Map.of(TableProperties.FORMAT_VERSION, "2"));
    }

    /** Drops the table and creates it again under the same name, with rows 100..102. */
    private String recreate() {
        assertThat(catalog.dropTable(ID, true)).isTrue();
        Table newTable = create();
        SourceTestTables.append(newTable, 100, 103);
        String newUuid = TableIdentity.uuidOf(newTable);
        assertThat(newUuid).isNotEqualTo(oldUuid);
        return newUuid;
    }

    /**
     * Starts a streaming read that may restart a thousand times and never fails by its count of
     * planning failures: only the source's own unrecoverable failure can end it.
     */
    private JobClient startRead(Configuration conf) throws Exception {
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 1000);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(SourceITCaseSupport.PARALLELISM);
        env.enableCheckpointing(200);
        IcebergSource<RowData> source =
                IcebergSource.forRowData()
                        .tableLoader(TableLoader.fromCatalog(catalogLoader, ID))
                        .streaming(true)
                        .monitorInterval(Duration.ofMillis(100))
                        .maxAllowedPlanningFailures(-1)
                        .build();
        env.fromSource(
                        source,
                        WatermarkStrategy.noWatermarks(),
                        "iceberg",
                        source.getProducedType())
                .uid("iceberg-source")
                .map(new RecordIds())
                .uid("record-ids")
                .returns(source.getProducedType())
                .sinkTo(new DiscardingSink<>())
                .uid("discard");
        return env.executeAsync("recreated-table");
    }

    /** Waits, with a deadline, for the job to fail, and checks it failed naming both tables. */
    private void assertFailsNamingTheReCreatedTable(JobClient job, String newUuid)
            throws Exception {
        Throwable failure;
        try {
            job.getJobExecutionResult().get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
            throw new AssertionError("The read of the re-created table did not fail");
        } catch (TimeoutException stalled) {
            JobStatus status = job.getJobStatus().get();
            Jobs.cancelAndWait(job);
            throw new AssertionError(
                    "The read did not fail within "
                            + DEADLINE
                            + " after the table was re-created (status "
                            + status
                            + ")",
                    stalled);
        } catch (ExecutionException e) {
            failure = e.getCause();
        }
        assertThat(job.getJobStatus().get(60, TimeUnit.SECONDS)).isEqualTo(JobStatus.FAILED);
        String expected = "Table hadoop.db.t was dropped and re-created";
        Throwable cause =
                ExceptionUtils.findThrowable(
                                failure,
                                t -> t.getMessage() != null && t.getMessage().contains(expected))
                        .orElseThrow(
                                () ->
                                        new AssertionError(
                                                "No failure names the re-created table", failure));
        assertThat(cause.getMessage())
                .contains("UUID " + oldUuid)
                .contains("now has UUID " + newUuid)
                .contains("without this read's state");
        // Nothing of the new table was read.
        assertThat(new ArrayList<>(RecordIds.SEEN))
                .containsAll(SourceTestTables.range(0, 5))
                .allMatch(id -> id < 5);
    }

    @Test
    @Timeout(180)
    void aReCreatedTableFailsTheReadWithItsUuidsInsteadOfStalling() throws Exception {
        JobClient job = startRead(new Configuration());
        waitForRows(5, job);
        String newUuid = recreate();
        assertFailsNamingTheReCreatedTable(job, newUuid);
    }

    @Test
    @Timeout(240)
    void aSavepointOfTheOldTableFailsWhenRestoredOnTheReCreatedOne() throws Exception {
        JobClient first = startRead(new Configuration());
        waitForRows(5, first);
        String savepoint =
                first.stopWithSavepoint(
                                false,
                                dir.resolve("savepoints").toUri().toString(),
                                SavepointFormatType.CANONICAL)
                        .get(60, TimeUnit.SECONDS);
        first.getJobExecutionResult().get(60, TimeUnit.SECONDS);

        String newUuid = recreate();
        Configuration restore = new Configuration();
        restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        assertFailsNamingTheReCreatedTable(startRead(restore), newUuid);
    }

    private static void waitForRows(int count, JobClient job) throws Exception {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (RecordIds.SEEN.size() < count) {
            if (System.nanoTime() > deadline || job.getJobStatus().get().isTerminalState()) {
                List<Long> seen = new ArrayList<>(RecordIds.SEEN);
                throw new AssertionError(
                        "Only rows " + seen + " arrived; job " + job.getJobStatus().get());
            }
            LockSupport.parkNanos(10_000_000L);
        }
    }
}
