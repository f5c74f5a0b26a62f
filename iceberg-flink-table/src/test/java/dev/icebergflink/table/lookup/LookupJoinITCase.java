package dev.icebergflink.table.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.table.testing.SqlTestBase;
import dev.icebergflink.table.testing.TableData;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Lookup joins against an Iceberg table in each cache mode, in batch (probe rows from a {@code
 * VALUES} view with {@code PROCTIME()}) and in streaming execution (probe rows from an unbounded
 * streaming read of another Iceberg table, which the test feeds): inner and left joins, composite
 * keys, NULL keys, and a dimension that changes under a running join by appends, upserts (row-level
 * deletes) and an overwrite. The options work as hints on catalog tables and in the {@code WITH}
 * clause of {@code 'connector'='iceberg'} tables.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LookupJoinITCase extends SqlTestBase {

    private static final Duration DEADLINE = Duration.ofMinutes(2);

    /** The three lookup runtimes, with the options that make each follow the table quickly. */
    enum Mode {
        FULL("'lookup.cache'='FULL', 'lookup.full-cache.periodic-reload.interval'='100ms'"),
        PARTIAL(
                "'lookup.cache'='PARTIAL', 'lookup.partial-cache.max-rows'='100',"
                        + " 'lookup.partial-cache.expire-after-write'='100ms',"
                        + " 'lookup.full-cache.periodic-reload.interval'='100ms'"),
        NONE("'lookup.cache'='NONE', 'lookup.full-cache.periodic-reload.interval'='100ms'");

        private final String options;
        private final String hint;

        Mode(String options) {
            this.options = options;
            this.hint = "/*+ OPTIONS(" + options + ") */";
        }
    }

    @TempDir Path warehouse;

    private TableEnvironment env(TableEnvironment env) {
        exec(
                env,
                "CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                        + " 'warehouse'='%s')",
                warehouse.toUri());
        exec(env, "USE CATALOG lake");
        return env;
    }

    /**
     * A version 3 table (deletion vectors) whose rows went through the sink's upsert: key 1 was
     * written twice in one job (the sink deletes the first row by position) and key 4 replaced by a
     * second job (an equality delete). The join sees only the live rows, in every mode: one batch
     * job joins the probe rows in each mode five ways (tagged {@code 10 * mode + way}).
     */
    @Test
    void batchJoinsSeeTheLiveRowsByKeyInEveryMode() {
        TableEnvironment batch = env(batchEnv());
        exec(
                batch,
                "CREATE TABLE dim (id INT NOT NULL, k2 STRING, name STRING,"
                        + " PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('format-version'='3', 'write.upsert.enabled'='true')");
        exec(
                batch,
                "INSERT INTO dim VALUES (1, 'a', 'one-old'), (1, 'a', 'one'), (2, 'b', 'two'),"
                        + " (4, 'd', 'four'), (5, 'e', 'five')");
        exec(batch, "INSERT INTO dim VALUES (4, 'd', 'vier')");
        exec(
                batch,
                "CREATE TEMPORARY VIEW probe AS SELECT k, s, PROCTIME() AS pt FROM (VALUES"
                        + " (1, 'a'), (2, 'x'), (4, 'd'), (5, 'e'), (99, 'z'),"
                        + " (CAST(NULL AS INT), 'a')) AS t(k, s)");

        List<String> queries = new ArrayList<>();
        List<Row> expected = new ArrayList<>();
        for (Mode mode : Mode.values()) {
            int tag = 10 * (mode.ordinal() + 1);
            String dim = "dim " + mode.hint + " FOR SYSTEM_TIME AS OF p.pt AS d";
            // the same table as a 'connector'='iceberg' table, with the lookup options in WITH
            String connectorTable = "default_catalog.default_database.dim_" + mode.name();
            exec(
                    batch,
                    "CREATE TABLE %s (id INT NOT NULL, k2 STRING, name STRING)"
                            + " WITH ('connector'='iceberg', 'catalog-name'='lake_c',"
                            + " 'catalog-type'='hadoop', 'warehouse'='%s',"
                            + " 'catalog-database'='default', 'catalog-table'='dim', %s)",
                    connectorTable,
                    warehouse.toUri(),
                    mode.options);
            // inner join: no row for the missing key 99 nor for the NULL key
            queries.add(join(tag + 1, "JOIN " + dim, "p.k = d.id"));
            expected.addAll(
                    List.of(
                            Row.of(tag + 1, 1, "one"),
                            Row.of(tag + 1, 2, "two"),
                            Row.of(tag + 1, 4, "vier"),
                            Row.of(tag + 1, 5, "five")));
            // left join: the probe rows without a match keep NULLs
            queries.add(join(tag + 2, "LEFT JOIN " + dim, "p.k = d.id"));
            expected.addAll(
                    List.of(
                            Row.of(tag + 2, 1, "one"),
                            Row.of(tag + 2, 2, "two"),
                            Row.of(tag + 2, 4, "vier"),
                            Row.of(tag + 2, 5, "five"),
                            Row.of(tag + 2, 99, null),
                            Row.of(tag + 2, null, null)));
            // composite key (id, k2): (2, 'x') has no row
            queries.add(join(tag + 3, "JOIN " + dim, "p.k = d.id AND p.s = d.k2"));
            expected.addAll(
                    List.of(
                            Row.of(tag + 3, 1, "one"),
                            Row.of(tag + 3, 4, "vier"),
                            Row.of(tag + 3, 5, "five")));
            // a condition on the dimension's columns
            queries.add(join(tag + 4, "JOIN " + dim, "p.k = d.id AND d.name <> 'five'"));
            expected.addAll(
                    List.of(
                            Row.of(tag + 4, 1, "one"),
                            Row.of(tag + 4, 2, "two"),
                            Row.of(tag + 4, 4, "vier")));
            // the connector table
            queries.add(
                    join(
                            tag + 5,
                            "JOIN " + connectorTable + " FOR SYSTEM_TIME AS OF p.pt AS d",
                            "p.k = d.id"));
            expected.addAll(
                    List.of(
                            Row.of(tag + 5, 1, "one"),
                            Row.of(tag + 5, 2, "two"),
                            Row.of(tag + 5, 4, "vier"),
                            Row.of(tag + 5, 5, "five")));
        }

        assertThat(rows(batch, String.join(" UNION ALL ", queries)))
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    private static String join(int tag, String join, String condition) {
        return "SELECT " + tag + ", p.k, d.name FROM probe p " + join + " ON " + condition;
    }

    /**
     * A running streaming join follows its dimension table: an append (which the FULL cache adds
     * incrementally), an upsert (equality deletes: the cache reloads fully and the old row is gone)
     * and an overwrite (the old rows are gone, the new ones found). Probe rows arrive through an
     * unbounded streaming read of the table {@code probe}, written by the test.
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void aStreamingJoinFollowsAppendsDeletesAndOverwrites(Mode mode) throws Exception {
        TableEnvironment batch = env(batchEnv());
        TableEnvironment streaming = env(streamingEnv());
        exec(
                batch,
                "CREATE TABLE dim (id INT NOT NULL, name STRING, PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('format-version'='2', 'write.upsert.enabled'='true')");
        exec(batch, "CREATE TABLE probe (k INT)");
        Table dim = table("dim");
        Table probe = table("probe");
        TableData.append(dim, List.of(TableData.row(1, "one"), TableData.row(2, "two")));
        exec(
                streaming,
                "CREATE TEMPORARY VIEW probe_stream AS SELECT k, PROCTIME() AS pt FROM probe"
                        + " /*+ OPTIONS('streaming'='true', 'monitor-interval'='100ms') */");
        TableResult joined =
                streaming.executeSql(
                        "SELECT p.k, d.name FROM probe_stream p LEFT JOIN dim "
                                + mode.hint
                                + " FOR SYSTEM_TIME AS OF p.pt AS d ON p.k = d.id");
        try (CloseableIterator<Row> rows = joined.collect()) {
            TableData.append(probe, keys(1, 3, null));
            assertThat(take(rows, 3))
                    .containsExactlyInAnyOrder(
                            Row.of(1, "one"), Row.of(3, null), Row.of(null, null));

            // an append: key 3 appears within a reload interval
            TableData.append(dim, List.of(TableData.row(3, "three")));
            awaitLookup(rows, probe, 3, "three");

            // an upsert: key 1 is deleted (equality delete) and added again
            exec(batch, "INSERT INTO dim VALUES (1, 'uno')");
            awaitLookup(rows, probe, 1, "uno");

            // an overwrite replaces every row
            exec(
                    batch,
                    "INSERT OVERWRITE dim /*+ OPTIONS('upsert-enabled'='false') */"
                            + " VALUES (7, 'seven')");
            awaitLookup(rows, probe, 7, "seven");
            TableData.append(probe, keys(1, 2, 3));
            assertThat(take(rows, 3))
                    .containsExactlyInAnyOrder(Row.of(1, null), Row.of(2, null), Row.of(3, null));
        } finally {
            joined.getJobClient().ifPresent(JobClient::cancel);
        }
    }

    /** Option mistakes and joins that are not lookups fail while planning, with clear messages. */
    @Test
    void wrongOptionsAndNonEqualityConditionsFailWhilePlanning() {
        TableEnvironment batch = env(batchEnv());
        exec(batch, "CREATE TABLE dim (id INT, name STRING)");
        exec(
                batch,
                "CREATE TEMPORARY VIEW probe AS SELECT k, PROCTIME() AS pt FROM (VALUES (1))"
                        + " AS t(k)");
        String join =
                "SELECT p.k, d.name FROM probe p JOIN dim %s FOR SYSTEM_TIME AS OF p.pt AS d"
                        + " ON %s";

        assertThatThrownBy(
                        () ->
                                batch.explainSql(
                                        String.format(
                                                join,
                                                "/*+ OPTIONS('lookup.cache'='SOMETIMES') */",
                                                "p.k = d.id")))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("'lookup.cache'", "SOMETIMES")
                                        .contains("[NONE, PARTIAL, FULL]"));
        assertThatThrownBy(
                        () ->
                                batch.explainSql(
                                        String.format(
                                                join,
                                                "/*+ OPTIONS('lookup.cache'='PARTIAL') */",
                                                "p.k = d.id")))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "'lookup.partial-cache.max-rows'",
                                                "'lookup.partial-cache.expire-after-write'"));
        assertThatThrownBy(
                        () ->
                                batch.explainSql(
                                        String.format(
                                                join,
                                                "/*+ OPTIONS('lookup.cahce'='FULL') */",
                                                "p.k = d.id")))
                .satisfies(e -> assertThat(messages(e)).contains("did you mean 'lookup.cache'"));
        // Flink's own error: a lookup needs an equality on the dimension's columns
        assertThatThrownBy(() -> batch.explainSql(String.format(join, "", "p.k > d.id")))
                .satisfies(e -> assertThat(messages(e)).containsIgnoringCase("equi"));
    }

    /** Appends probe rows of these keys until the join answers {@code key} with {@code name}. */
    private static void awaitLookup(
            CloseableIterator<Row> rows, Table probe, int key, String name) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        Row expected = Row.of(key, name);
        while (System.nanoTime() < deadline) {
            TableData.append(probe, keys(key));
            Row row = rows.next();
            if (row.equals(expected)) {
                return;
            }
            assertThat(row.getField(0)).isEqualTo(key);
        }
        throw new AssertionError("The join did not answer " + expected + " in time");
    }

    private static List<RowData> keys(Integer... keys) {
        List<RowData> rows = new ArrayList<>();
        Arrays.stream(keys).forEach(k -> rows.add(TableData.row(k)));
        return rows;
    }

    private Table table(String name) {
        return CatalogLoader.hadoop(
                        "verify",
                        new Configuration(),
                        Map.of("warehouse", warehouse.toUri().toString()))
                .loadCatalog()
                .loadTable(TableIdentifier.of("default", name));
    }
}
