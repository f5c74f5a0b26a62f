package dev.icebergflink.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.maintenance.api.JdbcLockFactory;
import dev.icebergflink.maintenance.api.RewriteDataFiles;
import dev.icebergflink.maintenance.api.TableMaintenance;
import dev.icebergflink.maintenance.api.TriggerLockFactory;
import dev.icebergflink.maintenance.task.TaskFailures;
import dev.icebergflink.testing.Jobs;
import dev.icebergflink.testing.servers.PostgresServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A maintenance run that dies in flight (right after planning, or right before its commit) while a
 * streaming writer commits: the maintenance region restarts, the lock the run held is released (the
 * job's own lock, or a JDBC lock on a real PostgreSQL), maintenance goes on, the writer never
 * fails, and the table holds every written row exactly once.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class MaintenanceFailoverITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @RegisterExtension
    static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

    private static final int ROWS = 2500;
    private static final Duration WAIT = Duration.ofSeconds(150);

    @TempDir Path dir;

    @AfterEach
    void clearHooks() {
        TaskFailures.clear();
    }

    @ParameterizedTest(name = "dies {0}, {1} lock")
    @CsvSource({"after planning, job", "before commit, job", "after planning, jdbc"})
    void aRunThatDiesInFlightReleasesItsLockAndMaintenanceGoesOn(String where, String lock)
            throws Exception {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        AtomicInteger failures = new AtomicInteger();
        AtomicLong failedAt = new AtomicLong(Long.MAX_VALUE);
        Consumer<Long> failOnce =
                timestamp -> {
                    if (failures.compareAndSet(0, 1)) {
                        failedAt.set(System.currentTimeMillis());
                        throw new IllegalStateException("injected failure of run " + timestamp);
                    }
                };
        if (where.equals("after planning")) {
            TaskFailures.afterPlanning(failOnce);
        } else {
            TaskFailures.beforeFinishing(failOnce);
        }
        String lockId = "failover-" + UUID.randomUUID();
        TriggerLockFactory lockFactory = lock.equals("jdbc") ? jdbcLocks(lockId) : null;

        StreamExecutionEnvironment env = StreamingAppends.env(5);
        StreamingAppends.append(env, table, ROWS);
        TableMaintenance.forTable(env, StreamingAppends.loader(table), lockFactory)
                .rateLimit(Duration.ofMillis(300))
                .lockCheckDelay(Duration.ofMillis(200))
                .parallelism(2)
                .add(RewriteDataFiles.builder().scheduleOnCommitCount(3).minInputFiles(2))
                .append();

        JobClient job = env.executeAsync("maintenance failover");
        try {
            Conditions.await(
                    "the injected failure, a rewrite after it, and every row committed",
                    WAIT,
                    () -> {
                        table.refresh();
                        return failures.get() == 1
                                && StreamingAppends.rewritesAfter(table, failedAt.get()) > 0
                                && StreamingAppends.committedRows(table) == ROWS;
                    });
            if (lockFactory != null) {
                Conditions.await(
                        "the JDBC lock is released between runs",
                        WAIT,
                        () -> !jdbcLock(lockId).isHeld());
            }
        } finally {
            Jobs.cancelAndWait(job);
        }

        assertThat(MaintenanceTables.rows(table)).isEqualTo(StreamingAppends.expectedRows(ROWS));
        assertThat(MaintenanceTables.dataFiles(table).size())
                .as("files after the compactions that followed the failure")
                .isLessThan(StreamingAppends.uncompactedFiles(table));
        if (lockFactory != null) {
            Conditions.await(
                    "no JDBC lock left behind by the cancelled job",
                    Duration.ofSeconds(30),
                    () -> !jdbcLock(lockId).isHeld());
        }
    }

    private static JdbcLockFactory jdbcLocks(String lockId) {
        return new JdbcLockFactory(
                POSTGRES.jdbcUrl(),
                lockId,
                Map.of(
                        JdbcLockFactory.USER_PROPERTY, POSTGRES.user(),
                        JdbcLockFactory.PASSWORD_PROPERTY, POSTGRES.password()));
    }

    private static TriggerLockFactory.Lock jdbcLock(String lockId) {
        JdbcLockFactory factory = jdbcLocks(lockId);
        factory.open();
        return factory.createLock();
    }
}
