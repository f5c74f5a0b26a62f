package dev.icebergflink.table.source;

import static dev.icebergflink.table.testing.TableData.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.icebergflink.CatalogLoader;
import dev.icebergflink.table.testing.SqlTestBase;
import dev.icebergflink.table.testing.TableData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQL reads of tables in an Iceberg (Hadoop) catalog: the user documentation's statements as
 * written, every read hint, push-downs, parallelism inference, the legacy switches and the errors.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IcebergTableSourceITCase extends SqlTestBase {

    private static final AtomicInteger TABLES = new AtomicInteger();

    @TempDir static Path warehouse;

    private TableEnvironment batch;
    private TableEnvironment streaming;
    private Catalog iceberg;
    private String name;

    @BeforeEach
    void createCatalog() {
        batch = batchEnv();
        streaming = streamingEnv();
        for (TableEnvironment env : List.of(batch, streaming)) {
            exec(
                    env,
                    "CREATE CATALOG hadoop_catalog WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                            + " 'warehouse'='%s', 'property-version'='1')",
                    warehouse.toUri());
            exec(env, "USE CATALOG hadoop_catalog");
        }
        iceberg =
                CatalogLoader.hadoop(
                                "verify",
                                new Configuration(),
                                Map.of("warehouse", warehouse.toUri().toString()))
                        .loadCatalog();
        name = "sample_" + TABLES.incrementAndGet();
    }

    @AfterEach
    void dropTable() {
        exec(batch, "DROP TABLE IF EXISTS `default`.%s", name);
    }

    private Table createSample() {
        exec(
                batch,
                "CREATE TABLE `hadoop_catalog`.`default`.`%s` (id BIGINT COMMENT 'unique id', data"
                        + " STRING)",
                name);
        return iceberg.loadTable(TableIdentifier.of("default", name));
    }

    @Test
    void batchReadAsDocumented() {
        Table table = createSample();
        TableData.append(table, List.of(row(1L, "a"), row(2L, "b")));
        TableData.append(table, List.of(row(3L, "c")));

        sqlClient(batch, "SET execution.runtime-mode = batch;");
        assertThat(rows(batch, "SELECT * FROM %s       ", name))
                .containsExactlyInAnyOrder(Row.of(1L, "a"), Row.of(2L, "b"), Row.of(3L, "c"));
        assertThat(rows(batch, "SELECT * FROM `hadoop_catalog`.`default`.`%s`", name)).hasSize(3);
    }

    @Test
    void unknownColumnsOfAFormatV3TableReadNull() {
        Schema schema =
                new Schema(
                        Types.NestedField.optional(1, "id", Types.LongType.get()),
                        Types.NestedField.optional(2, "later", Types.UnknownType.get()),
                        Types.NestedField.optional(3, "data", Types.StringType.get()));
        Table table =
                iceberg.createTable(
                        TableIdentifier.of("default", name),
                        schema,
                        PartitionSpec.unpartitioned(),
                        Map.of("format-version", "3"));
        TableData.append(table, List.of(row(1L, null, "a"), row(2L, null, "b")));

        assertThat(rows(batch, "SELECT id, later, data FROM %s", name))
                .containsExactlyInAnyOrder(Row.of(1L, null, "a"), Row.of(2L, null, "b"));
        assertThat(rows(batch, "SELECT id FROM %s WHERE later IS NULL AND data = 'b'", name))
                .containsExactly(Row.of(2L));
        // writes leave the column null: the value of a NULL literal is all SQL can give it
        exec(batch, "INSERT INTO %s VALUES (3, CAST(NULL AS STRING), 'c')", name);
        assertThat(rows(batch, "SELECT id, later FROM %s WHERE id = 3", name))
                .containsExactly(Row.of(3L, null));
    }

    @Test
    void streamingReadAsDocumented() throws Exception {
        Table table = createSample();
        long first = TableData.append(table, List.of(row(1L, "a"), row(2L, "b")));
        TableData.append(table, List.of(row(3L, "c")));

        sqlClient(streaming, "SET execution.runtime-mode = streaming;");
        sqlClient(streaming, "SET table.dynamic-table-options.enabled=true;");

        // The whole current table, then later appends.
        try (CloseableIterator<Row> rows =
                streaming
                        .executeSql(
                                String.format(
                                        "SELECT * FROM %s /*+ OPTIONS('streaming'='true',"
                                                + " 'monitor-interval'='1s')*/ ",
                                        name))
                        .collect()) {
            assertThat(take(rows, 3))
                    .containsExactlyInAnyOrder(Row.of(1L, "a"), Row.of(2L, "b"), Row.of(3L, "c"));
            TableData.append(table, List.of(row(4L, "d")));
            assertThat(take(rows, 1)).containsExactly(Row.of(4L, "d"));
        }

        // Appends after the start snapshot; its own rows are excluded.
        try (CloseableIterator<Row> rows =
                streaming
                        .executeSql(
                                String.format(
                                        "SELECT * FROM %s /*+ OPTIONS('streaming'='true',"
                                                + " 'monitor-interval'='1s',"
                                                + " 'start-snapshot-id'='%d')*/ ",
                                        name, first))
                        .collect()) {
            assertThat(take(rows, 2)).containsExactlyInAnyOrder(Row.of(3L, "c"), Row.of(4L, "d"));
            TableData.append(table, List.of(row(5L, "e")));
            assertThat(take(rows, 1)).containsExactly(Row.of(5L, "e"));
        }

        // A starting strategy as a hint.
        try (CloseableIterator<Row> rows =
                streaming
                        .executeSql(
                                String.format(
                                        "SELECT id FROM %s /*+ OPTIONS('streaming'='true',"
                                                + " 'monitor-interval'='500ms', 'starting-strategy'="
                                                + "'INCREMENTAL_FROM_LATEST_SNAPSHOT_EXCLUSIVE')*/",
                                        name))
                        .collect()) {
            TableData.append(table, List.of(row(6L, "f")));
            assertThat(take(rows, 1)).containsExactly(Row.of(6L));
        }
    }

    @Test
    void boundedReadInStreamingModeWithoutTheStreamingHint() {
        Table table = createSample();
        TableData.append(table, List.of(row(1L, "a")));
        assertThat(rows(streaming, "SELECT * FROM %s", name)).containsExactly(Row.of(1L, "a"));
    }

    @Test
    void readHints() {
        Table table = createSample();
        long s1 = TableData.append(table, List.of(row(1L, "a")));
        long timeOfS1 = table.snapshot(s1).timestampMillis();
        long s2 = TableData.append(table, List.of(row(2L, "b")));
        long s3 = TableData.append(table, List.of(row(3L, "c")));
        table.manageSnapshots().createTag("v1", s1).createBranch("audit", s2).commit();
        TableData.append(table, List.of(row(4L, "d")));

        assertThat(rows(batch, "SELECT id FROM %s /*+ OPTIONS('snapshot-id'='%d') */", name, s2))
                .containsExactlyInAnyOrder(Row.of(1L), Row.of(2L));
        assertThat(rows(batch, "SELECT id FROM %s /*+ OPTIONS('tag'='v1') */", name))
                .containsExactly(Row.of(1L));
        assertThat(rows(batch, "SELECT id FROM %s /*+ OPTIONS('branch'='audit') */", name))
                .containsExactlyInAnyOrder(Row.of(1L), Row.of(2L));
        assertThat(
                        rows(
                                batch,
                                "SELECT id FROM %s /*+ OPTIONS('as-of-timestamp'='%d') */",
                                name,
                                timeOfS1))
                .containsExactly(Row.of(1L));
        // Incremental batch range: start exclusive, end inclusive.
        assertThat(
                        rows(
                                batch,
                                "SELECT id FROM %s /*+ OPTIONS('start-snapshot-id'='%d',"
                                        + " 'end-snapshot-id'='%d') */",
                                name,
                                s1,
                                s3))
                .containsExactlyInAnyOrder(Row.of(2L), Row.of(3L));
        assertThat(rows(batch, "SELECT id FROM %s /*+ OPTIONS('start-tag'='v1') */", name))
                .containsExactlyInAnyOrder(Row.of(2L), Row.of(3L), Row.of(4L));
        assertThat(
                        rows(
                                batch,
                                "SELECT id FROM %s /*+ OPTIONS('split-size'='1048576',"
                                        + " 'split-lookback'='2', 'split-file-open-cost'='0',"
                                        + " 'case-sensitive'='true',"
                                        + " 'include-column-stats'='true') */",
                                name))
                .containsExactlyInAnyOrder(Row.of(1L), Row.of(2L), Row.of(3L), Row.of(4L));
        // The limit hint (one reader: the limit is per reader).
        assertThat(
                        rows(
                                batch,
                                "SELECT id FROM %s /*+ OPTIONS('limit'='2',"
                                        + " 'scan.parallelism'='1') */",
                                name))
                .hasSize(2);
    }

    @Test
    void filtersProjectionsAndLimitsArePushedDownAndResultsStayRight() {
        Table table = createSample();
        List<Row> all = new ArrayList<>();
        List<List<org.apache.flink.table.data.RowData>> files = new ArrayList<>();
        for (int file = 0; file < 3; file++) {
            List<org.apache.flink.table.data.RowData> rows = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                long id = file * 5L + i;
                String data = i == 4 ? null : (file == 0 ? "apple" : "berry") + id;
                rows.add(row(id, data));
                all.add(Row.of(id, data));
            }
            files.add(rows);
        }
        TableData.appendFiles(table, files);

        String explain =
                batch.explainSql(
                        String.format(
                                "SELECT data FROM %s WHERE id >= 3 AND data LIKE 'app%%'", name));
        assertThat(explain).contains("filter=[and(>=(id, 3), LIKE(data, _UTF-16LE'app%'))]");
        assertThat(
                        batch.explainSql(
                                String.format("SELECT data FROM %s WHERE data LIKE 'app%%'", name)))
                .contains("project=[data]")
                .contains("filter=[LIKE(data, _UTF-16LE'app%')]");
        assertThat(rows(batch, "SELECT data FROM %s WHERE id >= 3 AND data LIKE 'app%%'", name))
                .containsExactly(Row.of("apple3"));
        assertThat(batch.explainSql(String.format("SELECT * FROM %s LIMIT 2", name)))
                .contains("limit=[2]");
        assertThat(rows(batch, "SELECT * FROM %s LIMIT 2", name)).hasSize(2);

        // Every pushed operator, checked against the same predicate in Java.
        assertFilter("id = 7", all, r -> id(r) == 7);
        assertFilter("7 = id", all, r -> id(r) == 7);
        assertFilter("id <> 7", all, r -> id(r) != 7);
        assertFilter("id < 3", all, r -> id(r) < 3);
        assertFilter("3 > id", all, r -> id(r) < 3);
        assertFilter("id <= 3", all, r -> id(r) <= 3);
        assertFilter("id > 12", all, r -> id(r) > 12);
        assertFilter("id >= 12", all, r -> id(r) >= 12);
        assertFilter("id IN (1, 6, 11, 99)", all, r -> List.of(1L, 6L, 11L).contains(id(r)));
        assertFilter("data IS NULL", all, r -> r.getField(1) == null);
        assertFilter("data IS NOT NULL", all, r -> r.getField(1) != null);
        assertFilter("id < 2 OR id > 13", all, r -> id(r) < 2 || id(r) > 13);
        assertFilter("NOT (id < 10)", all, r -> !(id(r) < 10));
        assertFilter("data LIKE 'berry1%%'", all, r -> data(r).startsWith("berry1"));
        assertFilter("data LIKE '%%y1%%'", all, r -> data(r).contains("y1"));
        assertFilter("id BETWEEN 4 AND 6", all, r -> id(r) >= 4 && id(r) <= 6);
        assertFilter("UPPER(data) = 'APPLE1'", all, r -> "apple1".equals(r.getField(1)));
    }

    private void assertFilter(String where, List<Row> all, java.util.function.Predicate<Row> p) {
        List<Row> expected = all.stream().filter(p).toList();
        assertThat(rows(batch, "SELECT * FROM %s WHERE %s", name, where))
                .as(where)
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    private static long id(Row row) {
        return (Long) row.getField(0);
    }

    private static String data(Row row) {
        return row.getField(1) == null ? "" : (String) row.getField(1);
    }

    @Test
    void parallelismIsInferredFromSplitsInBatchMode() {
        Table table = createSample();
        TableData.appendFiles(
                table,
                List.of(List.of(row(1L, "a")), List.of(row(2L, "b")), List.of(row(3L, "c"))));
        String oneSplitPerFile = "/*+ OPTIONS('split-size'='1024') */";
        String query = "SELECT * FROM " + name + " " + oneSplitPerFile;

        assertThat(sourceParallelism(batch, query)).isEqualTo(3);
        assertThat(sourceParallelism(batch, query + " LIMIT 2")).isEqualTo(2);
        assertThat(
                        sourceParallelism(
                                batch,
                                "SELECT * FROM "
                                        + name
                                        + " /*+ OPTIONS('split-size'='1024',"
                                        + " 'scan.parallelism'='1') */"))
                .isEqualTo(1);
        // Iceberg packs the three small files into one split by default.
        assertThat(sourceParallelism(batch, "SELECT * FROM " + name)).isEqualTo(1);

        sqlClient(batch, "SET table.exec.iceberg.infer-source-parallelism.max = 2;");
        assertThat(sourceParallelism(batch, query)).isEqualTo(2);
        sqlClient(batch, "SET table.exec.iceberg.infer-source-parallelism = false;");
        sqlClient(batch, "SET table.exec.resource.default-parallelism = 4;");
        assertThat(sourceParallelism(batch, query)).isEqualTo(4);
        assertThat(rows(batch, query)).hasSize(3);
    }

    @Test
    void inferredParallelismCountsAdaptiveSplitsOfASmallTable() {
        Table table = createSample();
        // 64 MiB with a row group every 16 MiB; only its metadata exists (EXPLAIN never reads it)
        long mib = 1L << 20;
        table.newAppend()
                .appendFile(
                        DataFiles.builder(table.spec())
                                .withPath(table.location() + "/data/large.parquet")
                                .withFormat(FileFormat.PARQUET)
                                .withFileSizeInBytes(64 * mib)
                                .withRecordCount(1_000)
                                .withSplitOffsets(List.of(0L, 16 * mib, 32 * mib, 48 * mib))
                                .build())
                .commit();

        // one 128 MiB split by size, but four 16 MiB splits for the readers inference may use
        assertThat(sourceParallelism(batch, "SELECT * FROM " + name)).isEqualTo(4);
        assertThat(
                        sourceParallelism(
                                batch,
                                "SELECT * FROM "
                                        + name
                                        + " /*+ OPTIONS('adaptive-split-size-enabled'='false') */"))
                .isEqualTo(1);
        sqlClient(batch, "SET table.exec.iceberg.infer-source-parallelism.max = 2;");
        assertThat(sourceParallelism(batch, "SELECT * FROM " + name)).isEqualTo(2);
    }

    @Test
    void operatorsAfterAnInferredSourceRunChainedAtItsParallelism() throws Exception {
        Table table = createSample();
        TableData.appendFiles(
                table,
                List.of(List.of(row(1L, "a")), List.of(row(2L, "b")), List.of(row(3L, "c"))));
        String count = "SELECT COUNT(*) FROM " + name + " /*+ OPTIONS('split-size'='1024') */";

        // three splits, three readers; each counts its rows where it read them
        JsonNode afterInferred = operatorAfterSource(batch, count);
        assertThat(afterInferred.get("parallelism").asInt())
                .as(afterInferred.toString())
                .isEqualTo(3);
        assertThat(shipStrategy(afterInferred)).isEqualTo("FORWARD");
        assertThat(rows(batch, count)).containsExactly(Row.of(3L));

        // a parallelism the user chose keeps Flink's rule: the next operators run at the default
        String chosen =
                "SELECT COUNT(*) FROM "
                        + name
                        + " /*+ OPTIONS('split-size'='1024', 'scan.parallelism'='3') */";
        JsonNode afterChosen = operatorAfterSource(batch, chosen);
        assertThat(afterChosen.get("parallelism").asInt()).as(afterChosen.toString()).isEqualTo(2);
        assertThat(shipStrategy(afterChosen)).isEqualTo("REBALANCE");
        assertThat(rows(batch, chosen)).containsExactly(Row.of(3L));
    }

    /** The operator of the query's execution plan that reads the source's output. */
    private static JsonNode operatorAfterSource(TableEnvironment env, String query)
            throws Exception {
        String plan = env.explainSql(query, ExplainDetail.JSON_EXECUTION_PLAN);
        // the JSON plan follows the textual plans, which may hold braces of their own
        String json = plan.substring(plan.indexOf('{', plan.indexOf("Physical Execution Plan")));
        JsonNode nodes = new ObjectMapper().readTree(json).get("nodes");
        JsonNode source = null;
        for (JsonNode node : nodes) {
            if (node.get("type").asText().startsWith("Source: ")) {
                source = node;
            }
        }
        assertThat(source).as(plan).isNotNull();
        for (JsonNode node : nodes) {
            for (JsonNode input : node.path("predecessors")) {
                if (input.get("id").asInt() == source.get("id").asInt()) {
                    return node;
                }
            }
        }
        throw new AssertionError("No operator reads the source in " + plan);
    }

    private static String shipStrategy(JsonNode operator) {
        return operator.get("predecessors").get(0).get("ship_strategy").asText();
    }

    private static int sourceParallelism(TableEnvironment env, String query) {
        String plan = env.explainSql(query, ExplainDetail.JSON_EXECUTION_PLAN);
        Matcher matcher =
                Pattern.compile(
                                "\"type\"\\s*:\\s*\"Source: [^\"]*\",[\\s\\S]*?\"parallelism\"\\s*:\\s*(\\d+)")
                        .matcher(plan);
        assertThat(matcher.find()).as(plan).isTrue();
        return Integer.parseInt(matcher.group(1));
    }

    @Test
    void legacySourceAndSinkSwitchesAreAccepted() {
        Table table = createSample();
        TableData.append(table, List.of(row(1L, "a")));
        sqlClient(batch, "SET table.exec.iceberg.use-flip27-source = true;");
        assertThat(rows(batch, "SELECT * FROM %s", name)).containsExactly(Row.of(1L, "a"));
        sqlClient(batch, "SET table.exec.iceberg.use-flip27-source = false;");
        sqlClient(batch, "SET table.exec.iceberg.use-v2-sink = false;");
        assertThat(rows(batch, "SELECT * FROM %s", name)).containsExactly(Row.of(1L, "a"));
    }

    @Test
    void invalidHintsNameTheOption() {
        Table table = createSample();
        long snapshot = TableData.append(table, List.of(row(1L, "a")));

        assertThatThrownBy(
                        () ->
                                rows(
                                        batch,
                                        "SELECT * FROM %s /*+ OPTIONS('streamng'='true') */",
                                        name))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("'streamng' (did you mean 'streaming'?)")
                                        .contains("Valid options are:")
                                        .contains("monitor-interval"));
        assertThatThrownBy(
                        () ->
                                rows(
                                        batch,
                                        "SELECT * FROM %s /*+ OPTIONS('monitor-interval'='soon')"
                                                + " */",
                                        name))
                .satisfies(e -> assertThat(messages(e)).contains("monitor-interval", "soon"));
        assertThatThrownBy(
                        () ->
                                rows(
                                        streaming,
                                        "SELECT * FROM %s /*+ OPTIONS('streaming'='true',"
                                                + " 'snapshot-id'='%d') */",
                                        name,
                                        snapshot))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("snapshot-id")
                                        .contains("cannot be used with 'streaming' = true"));
        assertThatThrownBy(
                        () ->
                                rows(
                                        batch,
                                        "SELECT * FROM %s /*+ OPTIONS('streaming'='true') */",
                                        name))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("'streaming'='true'")
                                        .contains("'execution.runtime-mode'='batch'"));
        assertThatThrownBy(() -> rows(batch, "SELECT * FROM %s /*+ OPTIONS('tag'='nope') */", name))
                .satisfies(e -> assertThat(messages(e)).contains("Option 'tag' = 'nope'"));
    }
}
