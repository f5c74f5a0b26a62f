package dev.icebergflink.table.connector;

import static dev.icebergflink.table.testing.TableData.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.table.testing.SqlTestBase;
import dev.icebergflink.table.testing.TableData;
import dev.icebergflink.testing.servers.RestCatalogServerExtension;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CREATE TABLE ... WITH ('connector'='iceberg', ...)} tables in Flink's in-memory catalog,
 * backed by a Hadoop catalog and by a real REST catalog server.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConnectorTableITCase extends SqlTestBase {

    @RegisterExtension
    static final RestCatalogServerExtension REST = new RestCatalogServerExtension();

    @TempDir static Path warehouse;

    private static Catalog hadoop;

    @BeforeAll
    static void openCatalog() {
        hadoop =
                CatalogLoader.hadoop(
                                "hadoop_prod",
                                new Configuration(),
                                Map.of("warehouse", warehouse.toUri().toString()))
                        .loadCatalog();
    }

    private static String hadoopOptions() {
        return String.format(
                "'connector'='iceberg', 'catalog-name'='hadoop_prod', 'catalog-type'='hadoop',"
                        + " 'warehouse'='%s'",
                warehouse.toUri());
    }

    @Test
    void documentedHadoopTableIsCreatedOnFirstUseAndRead() throws Exception {
        TableEnvironment batch = batchEnv();
        exec(
                batch,
                "CREATE TABLE flink_table (\n    id   BIGINT,\n    data STRING\n) WITH (\n"
                        + "    'connector'='iceberg',\n    'catalog-name'='hadoop_prod',\n"
                        + "    'catalog-type'='hadoop',\n    'warehouse'='%s'\n)",
                warehouse.toUri());
        TableIdentifier backing = TableIdentifier.of("default_database", "flink_table");
        assertThat(hadoop.tableExists(backing)).isFalse();
        assertThat(rows(batch, "SELECT * FROM flink_table")).isEmpty();
        assertThat(hadoop.tableExists(backing)).isTrue();
        Table table = hadoop.loadTable(backing);
        assertThat(table.schema().asStruct())
                .isEqualTo(
                        new Schema(
                                        Types.NestedField.optional(1, "id", Types.LongType.get()),
                                        Types.NestedField.optional(
                                                2, "data", Types.StringType.get()))
                                .asStruct());

        TableData.append(table, List.of(row(1L, "AAA"), row(2L, "BBB"), row(3L, "CCC")));
        sqlClient(batch, "SET execution.result-mode=tableau;");
        assertThat(rows(batch, "SELECT * FROM flink_table"))
                .containsExactlyInAnyOrder(Row.of(1L, "AAA"), Row.of(2L, "BBB"), Row.of(3L, "CCC"));

        // The same table read as a stream, with a hint.
        TableEnvironment streaming = streamingEnv();
        exec(
                streaming,
                "CREATE TABLE flink_table (id BIGINT, data STRING) WITH (%s)",
                hadoopOptions());
        try (CloseableIterator<Row> rows =
                streaming
                        .executeSql(
                                "SELECT id FROM flink_table /*+ OPTIONS('streaming'='true',"
                                        + " 'monitor-interval'='500ms') */ WHERE id > 1")
                        .collect()) {
            assertThat(take(rows, 2)).containsExactlyInAnyOrder(Row.of(2L), Row.of(3L));
            TableData.append(table, List.of(row(0L, "x"), row(4L, "DDD")));
            assertThat(take(rows, 1)).containsExactly(Row.of(4L));
        }
    }

    @Test
    void mapsToAnotherDatabaseAndTableWithReadOptionsAndPartitions() {
        TableEnvironment batch = batchEnv();
        exec(
                batch,
                "CREATE TABLE events (id BIGINT, kind STRING) PARTITIONED BY (kind) WITH (%s,"
                        + " 'catalog-database'='hive_db', 'catalog-table'='hive_iceberg_table',"
                        + " 'write.format.default'='orc', 'format-version'='2')",
                hadoopOptions());
        assertThat(rows(batch, "SELECT * FROM events")).isEmpty();
        Table table = hadoop.loadTable(TableIdentifier.of("hive_db", "hive_iceberg_table"));
        assertThat(table.spec().fields()).hasSize(1);
        assertThat(table.spec().fields().get(0).name()).isEqualTo("kind");
        assertThat(table.properties())
                .containsEntry("write.format.default", "orc")
                .doesNotContainKey("warehouse")
                .doesNotContainKey("catalog-name");
        long first = TableData.append(table, List.of(row(1L, "click"), row(2L, "view")));
        TableData.append(table, List.of(row(3L, "click")));

        assertThat(rows(batch, "SELECT id FROM events WHERE kind = 'click'"))
                .containsExactlyInAnyOrder(Row.of(1L), Row.of(3L));
        assertThat(rows(batch, "SELECT id FROM events /*+ OPTIONS('snapshot-id'='%d') */", first))
                .containsExactlyInAnyOrder(Row.of(1L), Row.of(2L));

        // A read option in WITH applies to every query of the table.
        exec(
                batch,
                "CREATE TABLE first_events (id BIGINT, kind STRING) WITH (%s,"
                        + " 'catalog-database'='hive_db', 'catalog-table'='hive_iceberg_table',"
                        + " 'snapshot-id'='%d')",
                hadoopOptions(),
                first);
        assertThat(rows(batch, "SELECT id FROM first_events"))
                .containsExactlyInAnyOrder(Row.of(1L), Row.of(2L));
    }

    @Test
    void declaredTypesNarrowerThanIcebergAndSourceWatermarks() {
        Schema schema =
                new Schema(
                        Types.NestedField.required(1, "code", Types.IntegerType.get()),
                        Types.NestedField.optional(2, "ts", Types.TimestampType.withoutZone()),
                        Types.NestedField.optional(3, "amount", Types.DecimalType.of(10, 2)));
        ((SupportsNamespaces) hadoop).createNamespace(Namespace.of("typed"));
        Table table =
                hadoop.createTable(
                        TableIdentifier.of("typed", "readings"),
                        schema,
                        PartitionSpec.unpartitioned());
        LocalDateTime t0 = LocalDateTime.of(2024, 1, 1, 10, 0);
        TableData.append(
                table,
                List.of(
                        row(1, t0, new java.math.BigDecimal("1.50")),
                        row(-7, t0.plusMinutes(1), new java.math.BigDecimal("2.25"))));
        TableData.append(table, List.of(row(120, t0.plusMinutes(11), null)));

        TableEnvironment streaming = streamingEnv();
        exec(
                streaming,
                "CREATE TABLE readings (code TINYINT, ts TIMESTAMP(3), amount DECIMAL(10, 2),"
                        + " WATERMARK FOR ts AS SOURCE_WATERMARK()) WITH (%s,"
                        + " 'catalog-database'='typed')",
                hadoopOptions());
        assertThat(rows(streaming, "SELECT code, amount FROM readings"))
                .containsExactlyInAnyOrder(
                        Row.of((byte) 1, new java.math.BigDecimal("1.50")),
                        Row.of((byte) -7, new java.math.BigDecimal("2.25")),
                        Row.of((byte) 120, null));
        assertThat(
                        rows(
                                streaming,
                                "SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE readings,"
                                        + " DESCRIPTOR(ts), INTERVAL '10' MINUTES)) GROUP BY"
                                        + " window_start, window_end"))
                .containsExactlyInAnyOrder(Row.of(t0, 2L), Row.of(t0.plusMinutes(10), 1L));

        TableEnvironment batch = batchEnv();
        exec(
                batch,
                "CREATE TABLE wrong (code TINYINT, amount DECIMAL(5, 1)) WITH (%s,"
                        + " 'catalog-database'='typed', 'catalog-table'='readings')",
                hadoopOptions());
        assertThatThrownBy(() -> rows(batch, "SELECT * FROM wrong"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("declares column 'amount' as DECIMAL(5, 1)")
                                        .contains("DECIMAL(10, 2)"));
    }

    @Test
    void multisetColumnsRoundTripThroughTheMapTheyAreStoredAs() {
        TableEnvironment batch = batchEnv();
        exec(
                batch,
                "CREATE TABLE bags (id INT, tags MULTISET<STRING>) WITH (%s,"
                        + " 'catalog-table'='bags')",
                hadoopOptions());
        exec(
                batch,
                "INSERT INTO bags SELECT id, COLLECT(tag) FROM (VALUES (1, 'a'), (1, 'a'),"
                        + " (1, 'b'), (2, 'c')) AS t(id, tag) GROUP BY id");
        Table table = hadoop.loadTable(TableIdentifier.of("default_database", "bags"));
        assertThat(table.schema().findType("tags"))
                .isEqualTo(
                        Types.MapType.ofRequired(
                                3, 4, Types.StringType.get(), Types.IntegerType.get()));

        assertThat(rows(batch, "SELECT id, tags FROM bags"))
                .containsExactlyInAnyOrder(
                        Row.of(1, Map.of("a", 2, "b", 1)), Row.of(2, Map.of("c", 1)));
    }

    @Test
    void invalidOptionsAreNamedWithTheValidKeys() {
        TableEnvironment batch = batchEnv();
        exec(
                batch,
                "CREATE TABLE no_name (id BIGINT) WITH ('connector'='iceberg',"
                        + " 'catalog-type'='hadoop', 'warehouse'='%s')",
                warehouse.toUri());
        assertThatThrownBy(() -> rows(batch, "SELECT * FROM no_name"))
                .satisfies(
                        e -> assertThat(messages(e)).contains("option 'catalog-name' is required"));

        exec(
                batch,
                "CREATE TABLE misspelt (id BIGINT) WITH (%s, 'streamng'='true',"
                        + " 'catalog-tabel'='x')",
                hadoopOptions());
        assertThatThrownBy(() -> rows(batch, "SELECT * FROM misspelt"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("'streamng' (did you mean 'streaming'?)")
                                        .contains("'catalog-tabel' (did you mean 'catalog-table'?)")
                                        .contains("catalog-database")
                                        .contains("monitor-interval"));
        exec(
                batch,
                "CREATE TABLE bad_value (id BIGINT) WITH (%s, 'limit'='many')",
                hadoopOptions());
        assertThatThrownBy(() -> rows(batch, "SELECT * FROM bad_value"))
                .satisfies(e -> assertThat(messages(e)).contains("'limit'", "many"));
        // Unknown keys without a reserved prefix pass through to the catalog.
        exec(
                batch,
                "CREATE TABLE passthrough (id BIGINT) WITH (%s, 'my-additional-catalog-config'="
                        + "'my-value')",
                hadoopOptions());
        assertThat(rows(batch, "SELECT * FROM passthrough")).isEmpty();
    }

    @Test
    void restCatalogConnectorTable() {
        TableEnvironment batch = batchEnv();
        exec(
                batch,
                "CREATE TABLE rest_table (id BIGINT, data STRING) WITH ('connector'='iceberg',"
                        + " 'catalog-name'='rest_prod', 'catalog-type'='rest', 'uri'='%s',"
                        + " 'catalog-database'='sales')",
                REST.uri());
        assertThat(rows(batch, "SELECT * FROM rest_table")).isEmpty();
        Table table = REST.backend().loadTable(TableIdentifier.of("sales", "rest_table"));
        TableData.append(table, List.of(row(7L, "seven")));
        assertThat(rows(batch, "SELECT data FROM rest_table WHERE id = 7"))
                .containsExactly(Row.of("seven"));
    }
}
