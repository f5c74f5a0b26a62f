package dev.icebergflink.table.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.table.testing.SqlTestBase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hidden partitioning in SQL on a Hadoop catalog: the {@code partitioning} option and {@code
 * DISTRIBUTED BY} in {@code CREATE TABLE}, the spec shown by {@code SHOW CREATE TABLE} and copied
 * by {@code LIKE}, partition evolution with {@code ALTER TABLE ... SET}, reads and writes across
 * specs, connector tables created on first use, and the statements that fail leaving the catalog as
 * it was.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PartitioningITCase extends SqlTestBase {

    @TempDir Path warehouse;

    private TableEnvironment batch;
    private Catalog iceberg;

    @BeforeEach
    void setUp() {
        batch = batchEnv();
        exec(
                batch,
                "CREATE CATALOG lake WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                        + " 'warehouse'='%s')",
                warehouse.toUri());
        exec(batch, "USE CATALOG lake");
        iceberg =
                CatalogLoader.hadoop(
                                "verify",
                                new Configuration(),
                                Map.of("warehouse", warehouse.toUri().toString()))
                        .loadCatalog();
    }

    @Test
    void transformsAreCreatedShownCopiedAndEvolved() {
        exec(
                batch,
                "CREATE TABLE events (id BIGINT, ts TIMESTAMP(6), category STRING, name STRING)"
                        + " WITH ('partitioning'='days(ts), bucket(4, id), truncate(2, name)',"
                        + " 'format-version'='2')");
        Table events = table("events");
        assertThat(terms(events.spec()))
                .containsExactly("day(ts)", "bucket[4](id)", "truncate[2](name)");
        assertThat(events.properties()).doesNotContainKey("partitioning");
        String shown = showCreate("events");
        assertThat(shown)
                .contains("'partitioning' = 'days(ts), bucket(4, id), truncate(2, name)'")
                .doesNotContain("PARTITIONED BY");

        exec(
                batch,
                "INSERT INTO events VALUES (1, TIMESTAMP '2026-01-05 10:00:00', 'a', 'alpha'),"
                        + " (2, TIMESTAMP '2026-01-06 11:00:00', 'b', 'beta'),"
                        + " (3, TIMESTAMP '2026-02-07 12:00:00', 'a', 'gamma')");
        events.refresh();
        for (DataFile file : dataFiles(events)) {
            assertThat(file.specId()).isZero();
            assertThat(file.partition().size()).isEqualTo(3);
        }
        assertThat(dataFiles(events)).hasSize(3);

        exec(batch, "CREATE TABLE copy LIKE events");
        assertThat(terms(table("copy").spec()))
                .containsExactly("day(ts)", "bucket[4](id)", "truncate[2](name)");

        exec(batch, "ALTER TABLE events SET ('partitioning'='months(ts), category')");
        events.refresh();
        assertThat(events.spec().specId()).isEqualTo(1);
        assertThat(terms(events.spec())).containsExactly("month(ts)", "identity(category)");
        assertThat(events.properties()).doesNotContainKey("partitioning");
        assertThat(showCreate("events")).contains("'partitioning' = 'months(ts), category'");

        exec(batch, "INSERT INTO events VALUES (4, TIMESTAMP '2026-02-08 13:00:00', 'b', 'delta')");
        events.refresh();
        assertThat(dataFiles(events))
                .extracting(DataFile::specId)
                .containsExactlyInAnyOrder(0, 0, 0, 1);
        assertThat(rows(batch, "SELECT id, name FROM events"))
                .containsExactlyInAnyOrder(
                        Row.of(1L, "alpha"),
                        Row.of(2L, "beta"),
                        Row.of(3L, "gamma"),
                        Row.of(4L, "delta"));
        assertThat(
                        rows(
                                batch,
                                "SELECT id FROM events WHERE ts >= TIMESTAMP '2026-02-01 00:00:00'"
                                        + " AND category = 'a'"))
                .containsExactly(Row.of(3L));

        exec(batch, "ALTER TABLE events SET ('partitioning'='category')");
        assertThat(showCreate("events"))
                .contains("PARTITIONED BY (`category`)")
                .doesNotContain("'partitioning'");
        exec(batch, "ALTER TABLE events RESET ('partitioning')");
        assertThat(table("events").spec().isUnpartitioned()).isTrue();
        assertThat(rows(batch, "SELECT count(*) FROM events")).containsExactly(Row.of(4L));
    }

    @Test
    void distributedByBecomesABucketAfterTheIdentityKeys() {
        exec(
                batch,
                "CREATE TABLE orders (id BIGINT, category STRING) DISTRIBUTED BY HASH(id) INTO 4"
                        + " BUCKETS PARTITIONED BY (category)");
        assertThat(terms(table("orders").spec()))
                .containsExactly("identity(category)", "bucket[4](id)");
        assertThat(showCreate("orders")).contains("'partitioning' = 'category, bucket(4, id)'");
        exec(batch, "INSERT INTO orders VALUES (1, 'a'), (2, 'a'), (3, 'b')");
        assertThat(rows(batch, "SELECT * FROM orders"))
                .containsExactlyInAnyOrder(Row.of(1L, "a"), Row.of(2L, "a"), Row.of(3L, "b"));

        assertCreateRejected(
                "CREATE TABLE bad (id BIGINT, s STRING) DISTRIBUTED BY RANGE(id) INTO 4 BUCKETS",
                "DISTRIBUTED BY RANGE is not supported");
        assertCreateRejected(
                "CREATE TABLE bad (id BIGINT, s STRING) DISTRIBUTED BY HASH(id, s) INTO 4 BUCKETS",
                "names 2 bucket columns [id, s]");
    }

    @Test
    void connectorTablesCreatedOnFirstUseTakeThePartitioningAndDistribution() {
        exec(
                batch,
                "CREATE TABLE default_catalog.default_database.clicks (id BIGINT, ts"
                        + " TIMESTAMP(6), page STRING) DISTRIBUTED BY HASH(id) INTO 2 BUCKETS"
                        + " WITH ('connector'='iceberg', 'catalog-name'='lake',"
                        + " 'catalog-type'='hadoop', 'warehouse'='%s', 'catalog-database'='web',"
                        + " 'partitioning'='hours(ts)')",
                warehouse.toUri());
        exec(
                batch,
                "INSERT INTO default_catalog.default_database.clicks VALUES"
                        + " (1, TIMESTAMP '2026-03-01 10:15:00', '/a'),"
                        + " (2, TIMESTAMP '2026-03-01 11:15:00', '/b')");
        Table clicks = iceberg.loadTable(TableIdentifier.of("web", "clicks"));
        assertThat(terms(clicks.spec())).containsExactly("hour(ts)", "bucket[2](id)");
        assertThat(clicks.properties()).doesNotContainKey("partitioning");
        assertThat(rows(batch, "SELECT id, page FROM default_catalog.default_database.clicks"))
                .containsExactlyInAnyOrder(Row.of(1L, "/a"), Row.of(2L, "/b"));
    }

    @Test
    void badPartitioningFailsNamingTheTermAndChangesNothing() {
        assertCreateRejected(
                "CREATE TABLE bad (id BIGINT, s STRING) PARTITIONED BY (s) WITH"
                        + " ('partitioning'='bucket(4, id)')",
                "PARTITIONED BY [s] and option 'partitioning'='bucket(4, id)'");
        assertCreateRejected(
                "CREATE TABLE bad (id BIGINT, s STRING) WITH ('partitioning'='weeks(s)')",
                "unknown transform 'weeks'");
        assertCreateRejected(
                "CREATE TABLE bad (id BIGINT, s STRING) WITH ('partitioning'='days(s)')",
                "'days(s)'",
                "column 's' of type string");
        assertCreateRejected(
                "CREATE TABLE bad (id BIGINT, s STRING) WITH ('partitioning'='bucket(0, id)')",
                "positive whole number");

        exec(
                batch,
                "CREATE TABLE kept (id BIGINT, s STRING) WITH ('partitioning'='bucket(8, id)')");
        exec(batch, "INSERT INTO kept VALUES (1, 'x')");
        Table before = table("kept");
        assertThatThrownBy(
                        () ->
                                exec(
                                        batch,
                                        "ALTER TABLE kept SET ('partitioning'='truncate(2, nope)',"
                                                + " 'owner'='me')"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("Cannot alter table 'lake.default.kept'")
                                        .contains("'truncate(2, nope)'")
                                        .contains("does not exist"));
        Table after = table("kept");
        assertThat(after.specs()).hasSize(1);
        assertThat(after.properties()).isEqualTo(before.properties());
    }

    private void assertCreateRejected(String statement, String... fragments) {
        assertThatThrownBy(() -> exec(batch, statement))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("Cannot create 'lake.default.bad'")
                                        .contains(fragments));
        assertThat(iceberg.tableExists(TableIdentifier.of("default", "bad"))).isFalse();
    }

    private Table table(String name) {
        return iceberg.loadTable(TableIdentifier.of("default", name));
    }

    private String showCreate(String name) {
        return rows(batch, "SHOW CREATE TABLE %s", name).get(0).getField(0).toString();
    }

    private static List<String> terms(PartitionSpec spec) {
        List<String> terms = new ArrayList<>();
        for (PartitionField field : spec.fields()) {
            terms.add(
                    field.transform() + "(" + spec.schema().findColumnName(field.sourceId()) + ")");
        }
        return terms;
    }

    private static List<DataFile> dataFiles(Table table) {
        List<DataFile> files = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            tasks.forEach(task -> files.add(task.file()));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return files;
    }
}
