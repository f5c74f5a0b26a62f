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
import org.apache.iceberg.DataFile;
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
    void readsIcebergMetadataColumnsAcrossSpecsWithDeletedRowsFlagged() {
        ((SupportsNamespaces) hadoop).createNamespace(Namespace.of("meta"));
        Table table =
                hadoop.createTable(
                        TableIdentifier.of("meta", "events"),
                        new Schema(
                                Types.NestedField.optional(1, "id", Types.LongType.get()),
                                Types.NestedField.optional(2, "kind", Types.StringType.get())),
                        PartitionSpec.builderFor(
                                        new Schema(
                                                Types.NestedField.optional(
                                                        1, "id", Types.LongType.get()),
                                                Types.NestedField.optional(
                                                        2, "kind", Types.StringType.get())))
                                .identity("kind")
                                .build(),
                        Map.of("format-version", "2"));
        // spec 0: one file per kind, rows in this order
        TableData.append(table, List.of(row(1L, "a"), row(2L, "a"), row(3L, "b")));
        Map<String, String> firstFiles = new java.util.HashMap<>();
        table.newScan()
                .planFiles()
                .forEach(
                        task ->
                                firstFiles.put(
                                        task.file().partition().get(0, String.class),
                                        task.file().location()));
        // spec 1: unpartitioned; _partition keeps the union type, with NULL for 'kind'
        table.updateSpec().removeField("kind").commit();
        TableData.append(table, List.of(row(4L, "c"), row(5L, "c")));
        table.refresh();
        String unpartitionedFile =
                java.util.stream.StreamSupport.stream(
                                table.newScan().planFiles().spliterator(), false)
                        .filter(task -> task.file().specId() == 1)
                        .findFirst()
                        .orElseThrow()
                        .file()
                        .location();
        // delete id 2 (position 1 of the 'a' file)
        DataFile aFile =
                java.util.stream.StreamSupport.stream(
                                table.newScan().planFiles().spliterator(), false)
                        .map(task -> task.file())
                        .filter(file -> file.location().equals(firstFiles.get("a")))
                        .findFirst()
                        .orElseThrow();
        TableData.deletePosition(table, aFile, 1L);

        TableEnvironment batch = batchEnv();
        exec(
                batch,
                "CREATE TABLE events_meta (id BIGINT, kind STRING,"
                        + " f STRING METADATA FROM '_file' VIRTUAL,"
                        + " pos BIGINT METADATA FROM '_pos' VIRTUAL,"
                        + " spec INT METADATA FROM '_spec_id' VIRTUAL,"
                        + " part ROW<kind STRING> METADATA FROM '_partition' VIRTUAL,"
                        + " deleted BOOLEAN METADATA FROM '_deleted' VIRTUAL)"
                        + " WITH (%s, 'catalog-database'='meta', 'catalog-table'='events')",
                hadoopOptions());
        String a = firstFiles.get("a");
        String b = firstFiles.get("b");
        // without _deleted the deleted row stays away; metadata columns in another order
        assertThat(rows(batch, "SELECT id, spec, f, part, pos FROM events_meta"))
                .containsExactlyInAnyOrder(
                        Row.of(1L, 0, a, Row.of("a"), 0L),
                        Row.of(3L, 0, b, Row.of("b"), 0L),
                        Row.of(4L, 1, unpartitionedFile, Row.of((String) null), 0L),
                        Row.of(5L, 1, unpartitionedFile, Row.of((String) null), 1L));
        // with _deleted, the deleted row comes back flagged
        assertThat(rows(batch, "SELECT id, deleted, pos FROM events_meta"))
                .containsExactlyInAnyOrder(
                        Row.of(1L, false, 0L),
                        Row.of(2L, true, 1L),
                        Row.of(3L, false, 0L),
                        Row.of(4L, false, 0L),
                        Row.of(5L, false, 1L));
        // filters on data columns are still pushed down next to metadata columns
        assertThat(rows(batch, "SELECT pos, deleted, kind FROM events_meta WHERE kind = 'a'"))
                .containsExactlyInAnyOrder(Row.of(0L, false, "a"), Row.of(1L, true, "a"));
        // a filter on a metadata column stays with Flink
        assertThat(rows(batch, "SELECT id FROM events_meta WHERE spec = 1 AND pos = 1"))
                .containsExactly(Row.of(5L));

        exec(
                batch,
                "CREATE TABLE events_bad (id BIGINT, x STRING METADATA FROM '_nope' VIRTUAL)"
                        + " WITH (%s, 'catalog-database'='meta', 'catalog-table'='events')",
                hadoopOptions());
        assertThatThrownBy(() -> rows(batch, "SELECT * FROM events_bad"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("_nope")
                                        .contains("_file")
                                        .contains("_last_updated_sequence_number"));
    }

    @Test
    void readsRowLineageOfAVersion3TableAsIcebergDoes() throws Exception {
        Table table =
                hadoop.createTable(
                        TableIdentifier.of("default_database", "lineage"),
                        new Schema(Types.NestedField.optional(1, "id", Types.LongType.get())),
                        PartitionSpec.unpartitioned(),
                        Map.of("format-version", "3"));
        TableData.append(table, List.of(row(10L), row(11L), row(12L)));
        TableData.append(table, List.of(row(20L), row(21L)));

        List<Row> expected = new java.util.ArrayList<>();
        Schema lineage =
                new Schema(
                        Types.NestedField.optional(1, "id", Types.LongType.get()),
                        org.apache.iceberg.MetadataColumns.ROW_ID,
                        org.apache.iceberg.MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER);
        try (org.apache.iceberg.io.CloseableIterable<org.apache.iceberg.data.Record> records =
                org.apache.iceberg.data.IcebergGenerics.read(table).project(lineage).build()) {
            for (org.apache.iceberg.data.Record record : records) {
                expected.add(Row.of(record.get(0), record.get(1), record.get(2)));
            }
        }
        // Iceberg's rules: the file's first row id plus the position, its data sequence number
        assertThat(expected)
                .containsExactlyInAnyOrder(
                        Row.of(10L, 0L, 1L),
                        Row.of(11L, 1L, 1L),
                        Row.of(12L, 2L, 1L),
                        Row.of(20L, 3L, 2L),
                        Row.of(21L, 4L, 2L));

        TableEnvironment batch = batchEnv();
        exec(
                batch,
                "CREATE TABLE lineage (id BIGINT,"
                        + " row_id BIGINT METADATA FROM '_row_id' VIRTUAL,"
                        + " seq BIGINT METADATA FROM '_last_updated_sequence_number' VIRTUAL)"
                        + " WITH (%s)",
                hadoopOptions());
        assertThat(rows(batch, "SELECT id, row_id, seq FROM lineage"))
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void likeOfACatalogTableAddsAWatermarkAndAComputedColumn() {
        TableEnvironment streaming = streamingEnv();
        exec(
                streaming,
                "CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                        + " 'warehouse'='%s', 's3.secret-access-key'='do-not-show')",
                warehouse.toUri());
        exec(streaming, "CREATE DATABASE lake.clicks");
        exec(
                streaming,
                "CREATE TABLE lake.clicks.events (id BIGINT, category STRING, ts TIMESTAMP(3))"
                        + " WITH ('write.format.default'='orc')");
        LocalDateTime t0 = LocalDateTime.of(2024, 1, 1, 10, 0, 0);
        Table table = hadoop.loadTable(TableIdentifier.of("clicks", "events"));
        // at most 5 s out of order, so no row is late for the watermark below
        TableData.append(
                table,
                List.of(
                        row(1L, "a", t0.plusSeconds(1)),
                        row(2L, "b", t0.plusSeconds(4)),
                        row(3L, "a", t0.plusSeconds(12)),
                        row(4L, "a", t0.plusSeconds(8)),
                        row(5L, "b", t0.plusSeconds(15)),
                        row(6L, "a", t0.plusSeconds(11)),
                        row(7L, "b", t0.plusSeconds(23))));

        // no connection options typed: the catalog reports them with the table; Iceberg
        // timestamps are TIMESTAMP(6) and Flink watermarks need a precision of at most 3
        exec(
                streaming,
                "CREATE TABLE default_catalog.default_database.events_wm ("
                        + " cat AS UPPER(category),"
                        + " ts3 AS CAST(ts AS TIMESTAMP(3)),"
                        + " WATERMARK FOR ts3 AS ts3 - INTERVAL '5' SECOND)"
                        + " LIKE lake.clicks.events");
        assertThat(
                        rows(
                                streaming,
                                "SELECT window_start, cat, COUNT(*) FROM TABLE(TUMBLE("
                                        + "TABLE default_catalog.default_database.events_wm,"
                                        + " DESCRIPTOR(ts3), INTERVAL '10' SECOND))"
                                        + " GROUP BY window_start, window_end, cat"))
                .containsExactlyInAnyOrder(
                        Row.of(t0, "A", 2L),
                        Row.of(t0, "B", 1L),
                        Row.of(t0.plusSeconds(10), "A", 2L),
                        Row.of(t0.plusSeconds(10), "B", 1L),
                        Row.of(t0.plusSeconds(20), "B", 1L));

        // the copy writes to the same Iceberg table
        exec(
                streaming,
                "INSERT INTO events_wm (id, category, ts) VALUES (8, 'c', TIMESTAMP '2024-01-01"
                        + " 10:00:30')");
        table.refresh();
        assertThat(table.currentSnapshot().summary()).containsEntry("added-records", "1");

        // the catalog table itself: reads, ALTER and SHOW CREATE TABLE as before, no secret shown
        assertThat(rows(streaming, "SELECT id FROM lake.clicks.events WHERE category <> 'a'"))
                .containsExactlyInAnyOrder(Row.of(2L), Row.of(5L), Row.of(7L), Row.of(8L));
        exec(streaming, "ALTER TABLE lake.clicks.events SET ('read.split.target-size'='1048576')");
        table.refresh();
        assertThat(table.properties())
                .containsEntry("read.split.target-size", "1048576")
                .containsEntry("write.format.default", "orc")
                .doesNotContainKeys("connector", "src-catalog");
        String shown =
                rows(streaming, "SHOW CREATE TABLE lake.clicks.events")
                        .get(0)
                        .getField(0)
                        .toString();
        assertThat(shown)
                .contains(
                        "'write.format.default' = 'orc'", "'connector' = 'iceberg'", "src-catalog")
                .doesNotContain("do-not-show");
        // LIKE inside the Iceberg catalog still makes an Iceberg table without those options
        exec(streaming, "CREATE TABLE lake.clicks.events_copy LIKE lake.clicks.events");
        assertThat(hadoop.loadTable(TableIdentifier.of("clicks", "events_copy")).properties())
                .containsEntry("write.format.default", "orc")
                .doesNotContainKeys("connector", "src-catalog");

        // once the catalog is gone, the copy needs the secret it could not copy
        exec(streaming, "DROP CATALOG lake");
        assertThatThrownBy(() -> rows(streaming, "SELECT id FROM events_wm"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("'s3.secret-access-key'")
                                        .contains("not open in this session")
                                        .doesNotContain("do-not-show"));
        exec(streaming, "ALTER TABLE events_wm SET ('s3.secret-access-key'='typed-again')");
        assertThat(rows(streaming, "SELECT id FROM events_wm WHERE cat = 'B'"))
                .containsExactlyInAnyOrder(Row.of(2L), Row.of(5L), Row.of(7L));
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
