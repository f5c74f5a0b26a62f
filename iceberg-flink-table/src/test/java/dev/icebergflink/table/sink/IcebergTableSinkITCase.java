package dev.icebergflink.table.sink;

import static dev.icebergflink.table.testing.SinkTestSupport.icebergRows;
import static dev.icebergflink.table.testing.SinkTestSupport.snapshotCount;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.table.testing.SqlTestBase;
import dev.icebergflink.testing.servers.RestCatalogServerExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SQL writes into Iceberg tables: the user documentation's {@code INSERT INTO}, {@code INSERT
 * OVERWRITE} and upsert statements as written (the catalog is a local Hadoop warehouse registered
 * under the documentation's name {@code hive_catalog}), changelog input from a streaming
 * aggregation, connector tables (Hadoop and a real REST catalog server) and declared types narrower
 * than the Iceberg columns. Results are read back with SQL and with Iceberg's generic reader.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IcebergTableSinkITCase extends SqlTestBase {

    @RegisterExtension
    static final RestCatalogServerExtension REST = new RestCatalogServerExtension();

    @TempDir Path warehouse;

    private Catalog iceberg;

    @BeforeEach
    void openCatalog() {
        iceberg =
                CatalogLoader.hadoop(
                                "verify",
                                new Configuration(),
                                Map.of("warehouse", warehouse.toUri().toString()))
                        .loadCatalog();
    }

    private TableEnvironment env(boolean streaming) {
        TableEnvironment env = streaming ? streamingEnv() : batchEnv();
        useCatalog(env);
        return env;
    }

    private void useCatalog(TableEnvironment env) {
        exec(
                env,
                "CREATE CATALOG hive_catalog WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                        + " 'warehouse'='%s')",
                warehouse.toUri());
        exec(env, "USE CATALOG hive_catalog");
    }

    private Table table(String name) {
        return iceberg.loadTable(TableIdentifier.of("default", name));
    }

    private static void createSample(TableEnvironment env) {
        exec(
                env,
                "CREATE TABLE `hive_catalog`.`default`.`sample` (\n"
                        + "    id BIGINT COMMENT 'unique id',\n"
                        + "    data STRING\n"
                        + ")");
    }

    @ParameterizedTest(name = "streaming={0}")
    @ValueSource(booleans = {false, true})
    void insertIntoAsDocumented(boolean streaming) {
        TableEnvironment env = env(streaming);
        createSample(env);
        exec(
                env,
                "CREATE TEMPORARY VIEW other_kafka_table AS SELECT * FROM (VALUES (CAST(2 AS"
                        + " BIGINT), 'b'), (CAST(3 AS BIGINT), 'c')) AS t(id, data)");

        sqlClient(env, "INSERT INTO `hive_catalog`.`default`.`sample` VALUES (1, 'a');");
        sqlClient(
                env,
                "INSERT INTO `hive_catalog`.`default`.`sample` SELECT id, data from"
                        + " other_kafka_table;");

        List<Row> expected = List.of(Row.of(1L, "a"), Row.of(2L, "b"), Row.of(3L, "c"));
        assertThat(icebergRows(table("sample"))).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(rows(env(false), "SELECT * FROM sample"))
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(snapshotCount(table("sample"))).as("one snapshot per statement").isEqualTo(2);
    }

    /**
     * An insert-only query into a table with a primary key (upsert off) takes the plain append
     * path: no de-duplication (both rows of key 1, written in one checkpoint, are kept; the key is
     * NOT ENFORCED) and 'append' snapshots. Changelog queries keep the changelog path
     * (changelogRowKindsIntoKeyedV2Table, streamingAggregationIntoUpsertAndChangelogTables).
     */
    @ParameterizedTest(name = "streaming={0}")
    @ValueSource(booleans = {false, true})
    void insertOnlyQueryIntoKeyedTableAppendsEveryRow(boolean streaming) {
        TableEnvironment env = env(streaming);
        exec(
                env,
                "CREATE TABLE keyed_append (id INT NOT NULL, data STRING,"
                        + " PRIMARY KEY (id) NOT ENFORCED) WITH ('format-version'='2')");
        exec(env, "INSERT INTO keyed_append VALUES (1, 'a'), (2, 'b'), (1, 'a-again')");

        assertThat(icebergRows(table("keyed_append")))
                .containsExactlyInAnyOrder(Row.of(1, "a"), Row.of(2, "b"), Row.of(1, "a-again"));
        table("keyed_append")
                .snapshots()
                .forEach(snapshot -> assertThat(snapshot.operation()).isEqualTo("append"));
    }

    @Test
    void insertOverwriteAsDocumented() {
        TableEnvironment batch = env(false);
        sqlClient(batch, "SET execution.runtime-mode = batch;");

        // Unpartitioned: the whole table is replaced.
        createSample(batch);
        exec(batch, "INSERT INTO sample VALUES (1, 'x'), (2, 'y')");
        sqlClient(batch, "INSERT OVERWRITE sample VALUES (1, 'a');");
        assertThat(icebergRows(table("sample"))).containsExactly(Row.of(1L, "a"));

        // Partitioned: static partition, dynamic partitions, and an empty static result.
        exec(batch, "DROP TABLE sample");
        exec(batch, "CREATE TABLE sample (id BIGINT, data STRING) PARTITIONED BY (data)");
        exec(batch, "INSERT INTO sample VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'a')");
        sqlClient(
                batch,
                "INSERT OVERWRITE `hive_catalog`.`default`.`sample` PARTITION(data='a') SELECT 6;");
        assertThat(icebergRows(table("sample")))
                .containsExactlyInAnyOrder(Row.of(6L, "a"), Row.of(2L, "b"), Row.of(3L, "c"));

        sqlClient(batch, "INSERT OVERWRITE sample VALUES (7, 'b');");
        assertThat(icebergRows(table("sample")))
                .as("only partition b is replaced")
                .containsExactlyInAnyOrder(Row.of(6L, "a"), Row.of(7L, "b"), Row.of(3L, "c"));

        int before = snapshotCount(table("sample"));
        exec(
                batch,
                "INSERT OVERWRITE sample PARTITION (data='c') SELECT id FROM sample WHERE id > 100");
        assertThat(icebergRows(table("sample")))
                .as("an empty static overwrite empties the partition")
                .containsExactlyInAnyOrder(Row.of(6L, "a"), Row.of(7L, "b"));
        assertThat(snapshotCount(table("sample"))).isEqualTo(before + 1);
        assertThat(rows(batch, "SELECT * FROM sample"))
                .containsExactlyInAnyOrder(Row.of(6L, "a"), Row.of(7L, "b"));
    }

    @Test
    void insertOverwriteWithPartialStaticPartitionReplacesTheWrittenPartitions() {
        TableEnvironment batch = env(false);
        exec(
                batch,
                "CREATE TABLE events (id BIGINT, region STRING, dt STRING)"
                        + " PARTITIONED BY (region, dt)");
        exec(
                batch,
                "INSERT INTO events VALUES (1, 'eu', 'mon'), (2, 'eu', 'tue'), (3, 'us', 'mon')");
        exec(batch, "INSERT OVERWRITE events PARTITION (region='eu') SELECT 9, 'mon'");
        assertThat(icebergRows(table("events")))
                .containsExactlyInAnyOrder(
                        Row.of(9L, "eu", "mon"), Row.of(2L, "eu", "tue"), Row.of(3L, "us", "mon"));
    }

    @ParameterizedTest(name = "streaming={0}")
    @ValueSource(booleans = {false, true})
    void upsertViaTablePropertyAsDocumented(boolean streaming) {
        TableEnvironment env = env(streaming);
        String documented =
                "CREATE TABLE `hive_catalog`.`default`.`sample` (\n"
                        + "  `id`  INT UNIQUE COMMENT 'unique id',\n"
                        + "  `data` STRING NOT NULL,\n"
                        + " PRIMARY KEY(`id`) NOT ENFORCED\n"
                        + ") with ('format-version'='2', 'write.upsert.enabled'='true')";
        // Flink's SQL parser (not the catalog) rejects column UNIQUE constraints; the statement
        // runs once the constraint, which the primary key already implies, is left out.
        assertThatThrownBy(() -> exec(env, documented))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("UNIQUE constraint is not supported yet"));
        exec(env, documented.replace(" UNIQUE", ""));
        exec(env, "INSERT INTO sample VALUES (1, 'a'), (2, 'b')");
        exec(env, "INSERT INTO sample VALUES (1, 'aa'), (3, 'c'), (3, 'cc')");

        List<Row> expected = List.of(Row.of(1, "aa"), Row.of(2, "b"), Row.of(3, "cc"));
        assertThat(icebergRows(table("sample"))).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(rows(env(false), "SELECT * FROM sample"))
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void upsertViaHintAsDocumented() {
        TableEnvironment batch = env(false);
        exec(
                batch,
                "CREATE TABLE tableName (id INT, data STRING NOT NULL, PRIMARY KEY (id) NOT"
                        + " ENFORCED) WITH ('format-version'='2')");
        exec(batch, "INSERT INTO tableName VALUES (1, 'a'), (2, 'b')");
        // Without upsert, rows of an existing key are added.
        exec(batch, "INSERT INTO tableName VALUES (1, 'dup')");
        assertThat(icebergRows(table("tableName")))
                .containsExactlyInAnyOrder(Row.of(1, "a"), Row.of(1, "dup"), Row.of(2, "b"));

        sqlClient(
                batch,
                "INSERT INTO tableName /*+ OPTIONS('upsert-enabled'='true') */\n"
                        + "VALUES (1, 'one'), (3, 'c'), (3, 'three')");
        assertThat(icebergRows(table("tableName")))
                .containsExactlyInAnyOrder(Row.of(1, "one"), Row.of(2, "b"), Row.of(3, "three"));
    }

    /** INSERT, UPDATE_AFTER and DELETE rows of a changelog stream, in an upsert table. */
    @ParameterizedTest(name = "upsert property={0}")
    @ValueSource(booleans = {true, false})
    void changelogRowKindsIntoKeyedV2Table(boolean upsert) {
        StreamExecutionEnvironment streamEnv = StreamExecutionEnvironment.getExecutionEnvironment();
        streamEnv.setParallelism(2);
        StreamTableEnvironment env =
                StreamTableEnvironment.create(streamEnv, EnvironmentSettings.inStreamingMode());
        useCatalog(env);
        exec(
                env,
                "CREATE TABLE keyed (id INT NOT NULL, data STRING, PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('format-version'='2', 'write.upsert.enabled'='%s')",
                upsert);
        exec(env, "INSERT INTO keyed VALUES (4, 'd'), (5, 'e')");

        List<Row> changes =
                List.of(
                        Row.ofKind(RowKind.INSERT, 1, "a"),
                        Row.ofKind(RowKind.INSERT, 2, "b"),
                        Row.ofKind(RowKind.UPDATE_BEFORE, 1, "a"),
                        Row.ofKind(RowKind.UPDATE_AFTER, 1, "aa"),
                        Row.ofKind(RowKind.DELETE, 2, "b"),
                        Row.ofKind(RowKind.INSERT, 3, "c"),
                        Row.ofKind(RowKind.DELETE, 4, "d"),
                        Row.ofKind(RowKind.UPDATE_BEFORE, 5, "e"),
                        Row.ofKind(RowKind.UPDATE_AFTER, 5, "ee"));
        // the changes are keyed like the table: without the key Flink would add a materializer
        // that drops retractions of rows it did not see (those of earlier jobs)
        changelogView(env, streamEnv, "changes", changes, true);
        exec(env, "INSERT INTO keyed SELECT * FROM default_catalog.default_database.changes");

        assertThat(icebergRows(table("keyed")))
                .containsExactlyInAnyOrder(Row.of(1, "aa"), Row.of(3, "c"), Row.of(5, "ee"));
    }

    /**
     * A changelog without a key (or keyed otherwise than the table) into an upsert table: Flink 2.3
     * (FLIP-558) asks the statement how to resolve rows of different query keys that meet on one
     * table key, so the statement needs {@code ON CONFLICT DO DEDUPLICATE} there (the behaviour of
     * older lines, where the same statement runs without the clause).
     */
    @Test
    void changelogWithoutTheTablesKeyIntoAnUpsertTable() {
        StreamExecutionEnvironment streamEnv = StreamExecutionEnvironment.getExecutionEnvironment();
        streamEnv.setParallelism(1);
        StreamTableEnvironment env =
                StreamTableEnvironment.create(streamEnv, EnvironmentSettings.inStreamingMode());
        useCatalog(env);
        exec(
                env,
                "CREATE TABLE upserted (id INT NOT NULL, data STRING, PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('format-version'='2', 'write.upsert.enabled'='true')");
        List<Row> changes =
                List.of(
                        Row.ofKind(RowKind.INSERT, 1, "a"),
                        Row.ofKind(RowKind.INSERT, 2, "b"),
                        Row.ofKind(RowKind.UPDATE_BEFORE, 1, "a"),
                        Row.ofKind(RowKind.UPDATE_AFTER, 1, "aa"),
                        Row.ofKind(RowKind.DELETE, 2, "b"),
                        Row.ofKind(RowKind.INSERT, 3, "c"));
        changelogView(env, streamEnv, "unkeyed", changes, false);
        String insert =
                "INSERT INTO upserted SELECT * FROM default_catalog.default_database.unkeyed";

        if (flinkAtLeast(2, 3)) {
            assertThatThrownBy(() -> exec(env, insert))
                    .satisfies(e -> assertThat(messages(e)).contains("ON CONFLICT"));
            exec(env, insert + " ON CONFLICT DO DEDUPLICATE");
        } else {
            exec(env, insert);
        }
        assertThat(icebergRows(table("upserted")))
                .containsExactlyInAnyOrder(Row.of(1, "aa"), Row.of(3, "c"));
    }

    private static boolean flinkAtLeast(int major, int minor) {
        String[] version =
                org.apache.flink.runtime.util.EnvironmentInformation.getVersion().split("\\.");
        int actualMajor = Integer.parseInt(version[0]);
        return actualMajor > major
                || (actualMajor == major && Integer.parseInt(version[1]) >= minor);
    }

    /** A streaming aggregation (a changelog with retractions) over several checkpoints. */
    @Test
    void streamingAggregationIntoUpsertAndChangelogTables() {
        TableEnvironment env = env(true);
        env.getConfig().set("execution.checkpointing.interval", "100ms");
        exec(
                env,
                "CREATE TEMPORARY TABLE default_catalog.default_database.src (id BIGINT) WITH"
                        + " ('connector'='datagen', 'fields.id.kind'='sequence',"
                        + " 'fields.id.start'='1', 'fields.id.end'='600', 'rows-per-second'='600')");
        exec(
                env,
                "CREATE TABLE counts_upsert (k BIGINT, cnt BIGINT, total BIGINT,"
                        + " PRIMARY KEY (k) NOT ENFORCED)"
                        + " WITH ('format-version'='2', 'write.upsert.enabled'='true')");
        exec(
                env,
                "CREATE TABLE counts_changelog (k BIGINT, cnt BIGINT, total BIGINT,"
                        + " PRIMARY KEY (k) NOT ENFORCED) WITH ('format-version'='2')");
        StatementSet statements = env.createStatementSet();
        String query =
                "SELECT id %% 5, COUNT(*), SUM(id) FROM default_catalog.default_database.src"
                        + " GROUP BY id %% 5";
        statements.addInsertSql(String.format("INSERT INTO counts_upsert " + query));
        statements.addInsertSql(String.format("INSERT INTO counts_changelog " + query));
        try {
            statements.execute().await();
        } catch (Exception e) {
            throw new RuntimeException(e);
        }

        List<Row> expected = new ArrayList<>();
        for (long k = 0; k < 5; k++) {
            long total = 0;
            for (long id = 1; id <= 600; id++) {
                if (id % 5 == k) {
                    total += id;
                }
            }
            expected.add(Row.of(k, 120L, total));
        }
        assertThat(icebergRows(table("counts_upsert")))
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(icebergRows(table("counts_changelog")))
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(rows(env(false), "SELECT * FROM counts_upsert"))
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    @ParameterizedTest(name = "streaming={0}")
    @ValueSource(booleans = {false, true})
    void documentedConnectorTableIsWritable(boolean streaming) {
        TableEnvironment env = streaming ? streamingEnv() : batchEnv();
        exec(
                env,
                "CREATE TABLE flink_table (\n    id   BIGINT,\n    data STRING\n) WITH (\n"
                        + "    'connector'='iceberg',\n    'catalog-name'='hadoop_prod',\n"
                        + "    'catalog-type'='hadoop',\n    'warehouse'='%s'\n)",
                warehouse.toUri());
        sqlClient(env, "INSERT INTO flink_table VALUES (1, 'AAA'), (2, 'BBB'), (3, 'CCC');");

        Table backing = iceberg.loadTable(TableIdentifier.of("default_database", "flink_table"));
        List<Row> expected = List.of(Row.of(1L, "AAA"), Row.of(2L, "BBB"), Row.of(3L, "CCC"));
        assertThat(icebergRows(backing)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(rows(batchEnvWith(env), "SELECT * FROM flink_table"))
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    private TableEnvironment batchEnvWith(TableEnvironment source) {
        if (source.getConfig().get(org.apache.flink.configuration.ExecutionOptions.RUNTIME_MODE)
                == org.apache.flink.api.common.RuntimeExecutionMode.BATCH) {
            return source;
        }
        TableEnvironment batch = batchEnv();
        exec(
                batch,
                "CREATE TABLE flink_table (id BIGINT, data STRING) WITH ('connector'='iceberg',"
                        + " 'catalog-name'='hadoop_prod', 'catalog-type'='hadoop', 'warehouse'='%s')",
                warehouse.toUri());
        return batch;
    }

    @Test
    void narrowerDeclaredTypesAreWrittenAsTheIcebergColumns() {
        org.apache.iceberg.Schema schema =
                new org.apache.iceberg.Schema(
                        Types.NestedField.optional(1, "tiny", Types.IntegerType.get()),
                        Types.NestedField.optional(2, "small", Types.IntegerType.get()),
                        Types.NestedField.optional(3, "code", Types.StringType.get()),
                        Types.NestedField.optional(4, "name", Types.StringType.get()));
        iceberg.createTable(TableIdentifier.of("default_database", "narrow"), schema);
        TableEnvironment batch = batchEnv();
        exec(
                batch,
                "CREATE TABLE narrow (tiny TINYINT, small SMALLINT, code CHAR(3), name"
                        + " VARCHAR(10)) WITH ('connector'='iceberg', 'catalog-name'='hadoop_prod',"
                        + " 'catalog-type'='hadoop', 'warehouse'='%s')",
                warehouse.toUri());
        exec(
                batch,
                "INSERT INTO narrow VALUES (CAST(-7 AS TINYINT), CAST(300 AS SMALLINT), CAST('ab' AS CHAR(3)),"
                        + " 'eleven'), (CAST(NULL AS TINYINT), CAST(-2 AS SMALLINT), CAST('xyz' AS CHAR(3)), CAST(NULL AS VARCHAR(10)))");

        Table table = iceberg.loadTable(TableIdentifier.of("default_database", "narrow"));
        assertThat(icebergRows(table))
                .containsExactlyInAnyOrder(
                        Row.of(-7, 300, "ab ", "eleven"), Row.of(null, -2, "xyz", null));
        assertThat(rows(batch, "SELECT * FROM narrow"))
                .containsExactlyInAnyOrder(
                        Row.of((byte) -7, (short) 300, "ab ", "eleven"),
                        Row.of(null, (short) -2, "xyz", null));
    }

    @Test
    void upsertIntoRestCatalogConnectorTable() {
        TableEnvironment batch = batchEnv();
        exec(
                batch,
                "CREATE TABLE rest_upsert (id BIGINT, data STRING, PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('connector'='iceberg', 'catalog-name'='rest_prod',"
                        + " 'catalog-type'='rest', 'uri'='%s', 'catalog-database'='sinks',"
                        + " 'format-version'='2')",
                REST.uri());
        exec(batch, "INSERT INTO rest_upsert VALUES (1, 'a'), (2, 'b')");
        exec(
                batch,
                "INSERT INTO rest_upsert /*+ OPTIONS('upsert-enabled'='true') */ VALUES (2, 'bb'),"
                        + " (3, 'c')");

        Table table = REST.backend().loadTable(TableIdentifier.of("sinks", "rest_upsert"));
        List<Row> expected = List.of(Row.of(1L, "a"), Row.of(2L, "bb"), Row.of(3L, "c"));
        assertThat(icebergRows(table)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(rows(batch, "SELECT * FROM rest_upsert"))
                .containsExactlyInAnyOrderElementsOf(expected);
    }
}
