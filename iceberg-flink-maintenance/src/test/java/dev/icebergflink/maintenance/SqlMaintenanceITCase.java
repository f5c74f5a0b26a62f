package dev.icebergflink.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Maintenance after a SQL {@code INSERT}'s commits, switched on and tuned by hints with the keys
 * Iceberg's connector documents ({@code compaction-enabled}, {@code flink-maintenance.*}).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SqlMaintenanceITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    private static final int ROWS = 2000;

    @TempDir Path dir;

    private StreamTableEnvironment sql() {
        StreamExecutionEnvironment env = StreamingAppends.env(0);
        env.setParallelism(1);
        StreamTableEnvironment tables = StreamTableEnvironment.create(env);
        tables.executeSql(
                "CREATE CATALOG ice WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                        + " 'warehouse'='"
                        + dir.toUri()
                        + "')");
        tables.executeSql("CREATE DATABASE ice.db");
        tables.executeSql("CREATE TABLE ice.db.t (id BIGINT, data STRING)");
        tables.executeSql(
                "CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector'='datagen',"
                        + " 'fields.id.kind'='sequence', 'fields.id.start'='1',"
                        + " 'fields.id.end'='"
                        + ROWS
                        + "', 'rows-per-second'='100')");
        return tables;
    }

    @Test
    void hintsSwitchOnCompactionAfterTheInsertsCommits() throws Exception {
        StreamTableEnvironment tables = sql();
        TableResult insert =
                tables.executeSql(
                        "INSERT INTO ice.db.t /*+ OPTIONS('compaction-enabled'='true',"
                                + " 'flink-maintenance.rewrite.schedule.commit-count'='3',"
                                + " 'flink-maintenance.rewrite.schedule.interval-second'='1',"
                                + " 'flink-maintenance.rewrite.min-input-files'='2',"
                                + " 'flink-maintenance.rate-limit-seconds'='1',"
                                + " 'flink-maintenance.lock-check-delay-seconds'='1') */"
                                + " SELECT id, CAST(id AS STRING) FROM gen");
        JobClient job = insert.getJobClient().orElseThrow();
        Table table = table();
        try {
            Conditions.await(
                    "every row committed and a compaction",
                    Duration.ofSeconds(150),
                    () -> {
                        table.refresh();
                        return StreamingAppends.committedRows(table) == ROWS
                                && StreamingAppends.rewrites(table) > 0;
                    });
        } finally {
            Conditions.stop(job);
        }

        List<String> expected = new ArrayList<>();
        for (long i = 1; i <= ROWS; i++) {
            expected.add(i + ":" + i);
        }
        expected.sort(null);
        assertThat(rows(table)).isEqualTo(expected);
    }

    @Test
    void aMisspeltMaintenanceHintIsRejected() {
        StreamTableEnvironment tables = sql();
        assertThatThrownBy(
                        () ->
                                tables.executeSql(
                                        "INSERT INTO ice.db.t /*+ OPTIONS("
                                                + "'compaction-enabled'='true',"
                                                + " 'flink-maintenance.rewrite.min-inpt-files'='2')"
                                                + " */ SELECT id, CAST(id AS STRING) FROM gen"))
                .hasStackTraceContaining("'flink-maintenance.rewrite.min-inpt-files'")
                .hasStackTraceContaining(
                        "did you mean 'flink-maintenance.rewrite.min-input-files'");
    }

    private Table table() {
        HadoopCatalog catalog =
                new HadoopCatalog(
                        new org.apache.hadoop.conf.Configuration(), dir.toUri().toString());
        return catalog.loadTable(TableIdentifier.of("db", "t"));
    }

    private static List<String> rows(Table table) {
        table.refresh();
        List<String> rows = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            records.forEach(r -> rows.add(r.getField("id") + ":" + r.getField("data")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        rows.sort(null);
        return rows;
    }
}
