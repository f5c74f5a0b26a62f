package dev.icebergflink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.table.testing.SqlTestBase;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.types.variant.Variant;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code VARIANT} columns through SQL (Flink 2.1 or later, so this class lives in the Flink 2 test
 * folder): {@code CREATE TABLE} in an Iceberg catalog makes an Iceberg {@code variant} column of a
 * format-v3 table, {@code INSERT} with {@code PARSE_JSON} writes it (Parquet and Avro files) and
 * {@code SELECT} reads the same values back; without format version 3 the DDL says what to set.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class VariantSqlITCase extends SqlTestBase {

    @TempDir Path warehouse;

    @Test
    void variantColumnsRoundTripThroughSql() {
        TableEnvironment env = batchEnv();
        exec(
                env,
                "CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                        + " 'warehouse'='%s')",
                warehouse.toUri());
        exec(env, "USE CATALOG lake");
        exec(
                env,
                "CREATE TABLE events (id INT, payload VARIANT, tags ARRAY<VARIANT>)"
                        + " WITH ('format-version'='3')");
        exec(
                env,
                "CREATE TABLE events_avro (id INT, payload VARIANT, tags ARRAY<VARIANT>)"
                        + " WITH ('format-version'='3', 'write.format.default'='avro')");
        // JSON texts in VALUES, parsed in the projection: the planner cannot unify VARIANT
        // values of several VALUES rows
        String select =
                "SELECT id, PARSE_JSON(p), ARRAY[PARSE_JSON(t1), PARSE_JSON(t2)] FROM (VALUES"
                        + " (1, '{\"name\":\"a\",\"n\":1,\"nested\":{\"xs\":[true,null,2.5]}}',"
                        + " '1', '\"two\"'),"
                        + " (2, '42', 'null', '{}'),"
                        + " (3, CAST(NULL AS STRING), '[1,\"x\",{}]', 'false')"
                        + ") AS v(id, p, t1, t2)";
        exec(
                env,
                "EXECUTE STATEMENT SET BEGIN INSERT INTO events %s; INSERT INTO events_avro %s; END",
                select,
                select);

        Table table =
                CatalogLoader.hadoop(
                                "lake",
                                new Configuration(),
                                Map.of("warehouse", warehouse.toUri().toString()))
                        .loadCatalog()
                        .loadTable(TableIdentifier.of("default", "events"));
        assertThat(table.schema().findType("payload")).isEqualTo(Types.VariantType.get());

        Map<Integer, List<String>> expected = new TreeMap<>();
        expected.put(
                1,
                List.of(
                        "{\"n\":1,\"name\":\"a\",\"nested\":{\"xs\":[true,null,2.5]}}",
                        "[1, \"two\"]"));
        expected.put(2, List.of("42", "[null, {}]"));
        expected.put(3, java.util.Arrays.asList(null, "[[1,\"x\",{}], false]"));
        assertThat(json(rows(env, "SELECT id, payload, tags FROM events"))).isEqualTo(expected);
        assertThat(json(rows(env, "SELECT id, payload, tags FROM events_avro")))
                .isEqualTo(expected);
        // the SQL type of the column is VARIANT
        assertThat(rows(env, "DESCRIBE events").toString()).contains("VARIANT");

        assertThatThrownBy(() -> exec(env, "CREATE TABLE v2 (id INT, payload VARIANT)"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("'payload'")
                                        .contains("'format-version'='3'"));
    }

    /** Per id: the payload's JSON and the tags' JSON ({@code [a, b]}), null for NULLs. */
    private static Map<Integer, List<String>> json(List<Row> rows) {
        Map<Integer, List<String>> byId = new TreeMap<>();
        for (Row row : rows) {
            Variant payload = (Variant) row.getField(1);
            Object[] tags = (Object[]) row.getField(2);
            String tagsJson = null;
            if (tags != null) {
                StringBuilder out = new StringBuilder("[");
                for (int i = 0; i < tags.length; i++) {
                    out.append(i == 0 ? "" : ", ").append(((Variant) tags[i]).toJson());
                }
                tagsJson = out.append(']').toString();
            }
            byId.put(
                    (Integer) row.getField(0),
                    java.util.Arrays.asList(payload == null ? null : payload.toJson(), tagsJson));
        }
        return byId;
    }
}
