package dev.icebergflink.table.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.table.testing.SqlTestBase;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Changelog reads in SQL ({@code 'changelog-mode'='all'} as a hint): an aggregation over an upsert
 * table follows its upserts, deletes and overwrites, and a mirror job copies the table's changes
 * into a second upsert table that holds the same rows after every round.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ChangelogReadSqlITCase extends SqlTestBase {

    private static final Duration DEADLINE = Duration.ofMinutes(2);

    private static final String CHANGELOG_HINT =
            "/*+ OPTIONS('streaming'='true', 'changelog-mode'='all',"
                    + " 'monitor-interval'='100ms') */";

    @TempDir Path warehouse;

    private TableEnvironment batch;
    private StreamExecutionEnvironment streamEnv;
    private StreamTableEnvironment streaming;

    @BeforeEach
    void createTables() {
        batch = batchEnv();
        streamEnv = StreamExecutionEnvironment.getExecutionEnvironment();
        streamEnv.setParallelism(2);
        streamEnv.enableCheckpointing(500);
        streaming = StreamTableEnvironment.create(streamEnv, EnvironmentSettings.inStreamingMode());
        for (TableEnvironment env : List.of(batch, streaming)) {
            exec(
                    env,
                    "CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                            + " 'warehouse'='%s')",
                    warehouse.toUri());
            exec(env, "USE CATALOG lake");
        }
        for (String table : List.of("items", "mirror")) {
            exec(
                    batch,
                    "CREATE TABLE %s (id INT NOT NULL, data STRING, PRIMARY KEY (id) NOT ENFORCED)"
                            + " WITH ('format-version'='2', 'write.upsert.enabled'='true')",
                    table);
        }
        exec(batch, "INSERT INTO items VALUES (1, 'a'), (2, 'a'), (3, 'b'), (4, 'c')");
    }

    @Test
    void anAggregationFollowsUpsertsDeletesAndOverwrites() throws Exception {
        TableResult counts =
                streaming.executeSql(
                        "SELECT data, COUNT(*) AS n FROM items "
                                + CHANGELOG_HINT
                                + " GROUP BY data");
        try (CloseableIterator<Row> rows = counts.collect()) {
            Map<String, Long> view = new HashMap<>();
            awaitView(rows, view, Map.of("a", 2L, "b", 1L, "c", 1L));

            exec(batch, "INSERT INTO items VALUES (2, 'b'), (5, 'c')");
            awaitView(rows, view, Map.of("a", 1L, "b", 2L, "c", 2L));

            deleteIds(3);
            awaitView(rows, view, Map.of("a", 1L, "b", 1L, "c", 2L));

            exec(
                    batch,
                    "INSERT OVERWRITE items /*+ OPTIONS('upsert-enabled'='false') */ VALUES (1, 'c'), (6, 'd')");
            awaitView(rows, view, Map.of("c", 1L, "d", 1L));
        } finally {
            counts.getJobClient().ifPresent(JobClient::cancel);
        }
    }

    @Test
    void aMirrorJobKeepsASecondTableEqualAfterEveryRound() throws Exception {
        TableResult mirror =
                streaming.executeSql("INSERT INTO mirror SELECT * FROM items " + CHANGELOG_HINT);
        try {
            awaitEqual();
            exec(batch, "INSERT INTO items VALUES (2, 'b'), (5, 'e'), (1, 'aa')");
            awaitEqual();
            deleteIds(2, 4);
            awaitEqual();
            exec(
                    batch,
                    "INSERT OVERWRITE items /*+ OPTIONS('upsert-enabled'='false') */ VALUES (1, 'x'), (7, 'y')");
            awaitEqual();
            assertThat(contents("mirror")).isEqualTo(Set.of("1 x", "7 y"));
        } finally {
            mirror.getJobClient().ifPresent(JobClient::cancel);
        }
    }

    @Test
    void metadataColumnsNameTheSnapshotOfEachChange() throws Exception {
        exec(
                streaming,
                "CREATE TABLE default_catalog.default_database.item_changes (id INT NOT NULL,"
                        + " data STRING, snapshot_id BIGINT METADATA VIRTUAL,"
                        + " committed TIMESTAMP_LTZ(3) METADATA FROM 'commit_time' VIRTUAL,"
                        + " PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('connector'='iceberg', 'catalog-name'='lake_c',"
                        + " 'catalog-type'='hadoop', 'warehouse'='%s',"
                        + " 'catalog-database'='default', 'catalog-table'='items')",
                warehouse.toUri());
        TableResult changes =
                streaming.executeSql(
                        "SELECT id, data, snapshot_id, committed FROM"
                                + " default_catalog.default_database.item_changes "
                                + CHANGELOG_HINT);
        try (CloseableIterator<Row> rows = changes.collect()) {
            // the initial table scan is the table's state, not the change of one snapshot
            assertThat(take(rows, 4))
                    .allSatisfy(
                            row -> {
                                assertThat(row.getKind()).isEqualTo(RowKind.INSERT);
                                assertThat(row.getField(2)).isNull();
                                assertThat(row.getField(3)).isNull();
                            });

            exec(batch, "INSERT INTO items VALUES (2, 'b')");
            Snapshot upsert = items().currentSnapshot();
            Instant upsertTime = Instant.ofEpochMilli(upsert.timestampMillis());
            assertThat(take(rows, 2))
                    .containsExactly(
                            Row.ofKind(
                                    RowKind.UPDATE_BEFORE, 2, "a", upsert.snapshotId(), upsertTime),
                            Row.ofKind(
                                    RowKind.UPDATE_AFTER, 2, "b", upsert.snapshotId(), upsertTime));

            deleteIds(3);
            Snapshot delete = items().currentSnapshot();
            assertThat(take(rows, 1))
                    .containsExactly(
                            Row.ofKind(
                                    RowKind.DELETE,
                                    3,
                                    "b",
                                    delete.snapshotId(),
                                    Instant.ofEpochMilli(delete.timestampMillis())));
        } finally {
            changes.getJobClient().ifPresent(JobClient::cancel);
        }
    }

    @Test
    void aConnectorTableWithoutPrimaryKeyIsReadAsAChangelogToo() throws Exception {
        exec(
                streaming,
                "CREATE TABLE default_catalog.default_database.item_log (id INT NOT NULL,"
                        + " data STRING) WITH ('connector'='iceberg', 'catalog-name'='lake_c',"
                        + " 'catalog-type'='hadoop', 'warehouse'='%s',"
                        + " 'catalog-database'='default', 'catalog-table'='items')",
                warehouse.toUri());
        TableResult changes =
                streaming.executeSql(
                        "SELECT * FROM default_catalog.default_database.item_log "
                                + CHANGELOG_HINT);
        try (CloseableIterator<Row> rows = changes.collect()) {
            assertThat(take(rows, 4)).hasSize(4);
            exec(batch, "INSERT INTO items VALUES (2, 'b')");
            // rows are partitioned by their columns: the two halves may take two channels
            assertThat(take(rows, 2))
                    .containsExactlyInAnyOrder(
                            Row.ofKind(RowKind.UPDATE_BEFORE, 2, "a"),
                            Row.ofKind(RowKind.UPDATE_AFTER, 2, "b"));
        } finally {
            changes.getJobClient().ifPresent(JobClient::cancel);
        }
    }

    @Test
    void anInsertOnlyReadHasNoSnapshotOfAChange() {
        exec(
                batch,
                "CREATE TABLE default_catalog.default_database.item_rows (id INT NOT NULL,"
                        + " data STRING, snapshot_id BIGINT METADATA VIRTUAL)"
                        + " WITH ('connector'='iceberg', 'catalog-name'='lake_c',"
                        + " 'catalog-type'='hadoop', 'warehouse'='%s',"
                        + " 'catalog-database'='default', 'catalog-table'='items')",
                warehouse.toUri());
        assertThat(
                        rows(
                                batch,
                                "SELECT id, snapshot_id FROM default_catalog.default_database.item_rows"))
                .containsExactlyInAnyOrder(
                        Row.of(1, null), Row.of(2, null), Row.of(3, null), Row.of(4, null));
    }

    /** The source table as it is now. */
    private Table items() {
        return CatalogLoader.hadoop(
                        "verify",
                        new Configuration(),
                        Map.of("warehouse", warehouse.toUri().toString()))
                .loadCatalog()
                .loadTable(TableIdentifier.of("default", "items"));
    }

    /** Deletes rows by id through a changelog of deletes written into the upsert table. */
    private void deleteIds(int... ids) {
        List<Row> deletes =
                java.util.Arrays.stream(ids)
                        .mapToObj(id -> Row.ofKind(RowKind.DELETE, id, null))
                        .toList();
        String view = "deletes_" + System.nanoTime();
        changelogView(streaming, streamEnv, view, deletes, true);
        exec(
                streaming,
                "INSERT INTO items SELECT * FROM default_catalog.default_database.%s",
                view);
    }

    /** Applies the aggregation's changes until the view shows {@code expected}. */
    private static void awaitView(
            CloseableIterator<Row> rows, Map<String, Long> view, Map<String, Long> expected) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!view.equals(expected)) {
            assertThat(System.nanoTime())
                    .as("counts %s reach %s before the deadline", view, expected)
                    .isLessThan(deadline);
            Row row = rows.next();
            String key = (String) row.getField(0);
            switch (row.getKind()) {
                case INSERT, UPDATE_AFTER -> view.put(key, (Long) row.getField(1));
                case UPDATE_BEFORE, DELETE -> view.remove(key);
            }
        }
    }

    /** Waits until the mirror holds the rows of the source table. */
    private void awaitEqual() throws InterruptedException {
        Supplier<Set<String>> source = () -> contents("items");
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!contents("mirror").equals(source.get())) {
            assertThat(System.nanoTime())
                    .as("mirror %s equals items %s", contents("mirror"), source.get())
                    .isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    private Set<String> contents(String table) {
        return rows(batch, "SELECT id, data FROM %s", table).stream()
                .map(row -> row.getField(0) + " " + row.getField(1))
                .collect(Collectors.toSet());
    }
}
