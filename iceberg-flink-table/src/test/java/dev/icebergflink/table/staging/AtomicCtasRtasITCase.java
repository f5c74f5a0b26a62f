package dev.icebergflink.table.staging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.table.testing.SqlTestBase;
import dev.icebergflink.testing.servers.RestCatalogServerExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Atomic {@code CREATE TABLE ... AS SELECT} and {@code [CREATE OR] REPLACE TABLE ... AS SELECT}
 * with {@code table.rtas-ctas.atomicity-enabled} on a Hadoop catalog, in batch mode: the table
 * appears, or is replaced, with its rows in one snapshot when the job finishes; a job that fails
 * leaves no table and no file (CTAS) or the old table exactly as it was (RTAS).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class AtomicCtasRtasITCase extends SqlTestBase {

    private static final String ATOMIC = "table.rtas-ctas.atomicity-enabled";

    /** Three rows whose last one fails {@code CAST(s AS INT)} at run time. */
    private static final String FAILING_QUERY = "SELECT id, CAST(s AS INT) AS n FROM src";

    @RegisterExtension
    static final RestCatalogServerExtension REST = new RestCatalogServerExtension();

    @TempDir Path warehouse;

    private Catalog iceberg;
    private TableEnvironment env;

    @BeforeEach
    void setUp() {
        iceberg =
                CatalogLoader.hadoop(
                                "verify",
                                new Configuration(),
                                Map.of("warehouse", warehouse.toUri().toString()))
                        .loadCatalog();
        env = batchEnv();
        env.getConfig().set("restart-strategy.type", "none");
        env.getConfig().set(ATOMIC, "true");
        exec(
                env,
                "CREATE CATALOG ice WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                        + " 'warehouse'='%s')",
                warehouse.toUri());
        exec(env, "USE CATALOG ice");
        // a file per row, so that two readers and writers run: one may finish while the other fails
        exec(env, "CREATE TABLE src (id INT, s STRING) PARTITIONED BY (id)");
        exec(env, "INSERT INTO src VALUES (1, '10'), (2, '20'), (3, 'not a number')");
    }

    @Test
    void ctasCreatesTheTableWithItsRowsInOneSnapshot() {
        exec(
                env,
                // 'partitioning', not PARTITIONED BY: Flink 1.20 takes no PARTITIONED BY in a CTAS
                "CREATE TABLE t WITH ('partitioning'='region', 'write.format.default'='orc',"
                        + " 'owner'='ops') AS SELECT id, region, name FROM (VALUES (1, 'eu', 'a'),"
                        + " (2, 'us', 'b'), (3, 'eu', 'c')) AS v(id, region, name)");

        Table table = table("t");
        assertThat(table.schema().columns())
                .extracting(Types.NestedField::name)
                .containsExactly("id", "region", "name");
        assertThat(table.spec().fields()).hasSize(1);
        assertThat(table.spec().fields().get(0).name()).isEqualTo("region");
        assertThat(table.properties())
                .containsEntry("write.format.default", "orc")
                .containsEntry("owner", "ops")
                .doesNotContainKey("partitioning")
                .doesNotContainKey(StagedTableCopy.MANIFESTS_LOCATION);
        assertThat(table.snapshots()).hasSize(1);
        assertThat(table.currentSnapshot().summary())
                .containsKey(IcebergStagedTable.STAGING_ID_PROPERTY)
                .containsEntry("added-data-files", "2");
        assertThat(rows(env, "SELECT * FROM t"))
                .containsExactlyInAnyOrder(
                        Row.of(1, "eu", "a"), Row.of(2, "us", "b"), Row.of(3, "eu", "c"));
        // the data files carry the staging id, by which an abort finds unrecorded ones
        String stagingId =
                table.currentSnapshot().summary().get(IcebergStagedTable.STAGING_ID_PROPERTY);
        assertThat(table.currentSnapshot().addedDataFiles(table.io()))
                .hasSize(2)
                .allSatisfy(
                        file ->
                                assertThat(
                                                StagedLocationProvider.isStaged(
                                                        file.location(), stagingId))
                                        .isTrue());
        assertThat(stagingDirectories("t")).as("the staging directory is deleted").isEmpty();

        // CTAS of a table that exists fails before the job runs and leaves the table as it is
        assertThatThrownBy(() -> exec(env, "CREATE TABLE t AS SELECT 1 AS x"))
                .satisfies(
                        error ->
                                assertThat(messages(error))
                                        .contains("already exists")
                                        .contains("CREATE OR REPLACE TABLE"));
        // IF NOT EXISTS keeps it too
        exec(env, "CREATE TABLE IF NOT EXISTS t AS SELECT 7 AS x");
        Table after = table("t");
        assertThat(after.snapshots()).hasSize(1);
        assertThat(after.schema().sameSchema(table.schema())).isTrue();
        assertThat(rows(env, "SELECT id FROM t"))
                .containsExactlyInAnyOrder(Row.of(1), Row.of(2), Row.of(3));
    }

    @Test
    void replaceAndCreateOrReplaceKeepTheHistory() {
        exec(env, "CREATE TABLE r (id INT, s STRING)");
        exec(env, "INSERT INTO r VALUES (1, 'old')");
        long oldSnapshot = table("r").currentSnapshot().snapshotId();

        exec(env, "REPLACE TABLE r AS SELECT id, s, id * 10 AS n FROM src WHERE id < 3");
        Table replaced = table("r");
        assertThat(replaced.schema().columns())
                .extracting(Types.NestedField::name)
                .containsExactly("id", "s", "n");
        assertThat(replaced.snapshots())
                .extracting(Snapshot::snapshotId)
                .hasSize(2)
                .contains(oldSnapshot);
        assertThat(replaced.currentSnapshot().parentId()).isNull();
        assertThat(rows(env, "SELECT * FROM r"))
                .containsExactlyInAnyOrder(Row.of(1, "10", 10), Row.of(2, "20", 20));

        exec(env, "CREATE OR REPLACE TABLE r AS SELECT s FROM src WHERE id = 3");
        Table again = table("r");
        assertThat(again.snapshots()).hasSize(3);
        assertThat(rows(env, "SELECT * FROM r")).containsExactly(Row.of("not a number"));

        // CREATE OR REPLACE of a missing table creates it
        exec(env, "CREATE OR REPLACE TABLE fresh AS SELECT id FROM src WHERE id = 1");
        assertThat(table("fresh").snapshots()).hasSize(1);
        assertThat(rows(env, "SELECT * FROM fresh")).containsExactly(Row.of(1));
        assertThat(stagingDirectories("r")).isEmpty();
    }

    @Test
    void failingCtasLeavesNoTableAndNoFile() {
        assertThatThrownBy(() -> exec(env, "CREATE TABLE broken AS " + FAILING_QUERY))
                .satisfies(error -> assertThat(messages(error)).contains("not a number"));

        assertThat(iceberg.tableExists(TableIdentifier.of("default", "broken"))).isFalse();
        assertThat(rows(env, "SHOW TABLES")).containsExactlyInAnyOrder(Row.of("src"));
        awaitNoFiles(warehouse.resolve("default").resolve("broken"));
    }

    @Test
    void failingReplaceLeavesTheOldTableAsItWas() {
        exec(env, "CREATE TABLE kept (id INT, s STRING)");
        exec(env, "INSERT INTO kept VALUES (1, 'a'), (2, 'b')");
        Table before = table("kept");
        List<Path> filesBefore = files(warehouse.resolve("default").resolve("kept"));

        assertThatThrownBy(() -> exec(env, "CREATE OR REPLACE TABLE kept AS " + FAILING_QUERY))
                .satisfies(error -> assertThat(messages(error)).contains("not a number"));

        Table after = table("kept");
        assertThat(after.currentSnapshot().snapshotId())
                .isEqualTo(before.currentSnapshot().snapshotId());
        assertThat(after.schema().sameSchema(before.schema())).isTrue();
        assertThat(after.snapshots()).hasSize(1);
        assertThat(after.properties()).isEqualTo(before.properties());
        assertThat(rows(env, "SELECT * FROM kept"))
                .containsExactlyInAnyOrder(Row.of(1, "a"), Row.of(2, "b"));
        awaitFiles(warehouse.resolve("default").resolve("kept"), filesBefore);
    }

    @Test
    void aBoundedQueryInStreamingModeCommitsWhenItEnds() {
        TableEnvironment streaming = streamingEnv();
        streaming.getConfig().set(ATOMIC, "true");
        exec(
                streaming,
                "CREATE CATALOG ice WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                        + " 'warehouse'='%s')",
                warehouse.toUri());
        exec(streaming, "CREATE TABLE ice.`default`.streamed AS SELECT * FROM ice.`default`.src");
        assertThat(table("streamed").snapshots()).hasSize(1);
        assertThat(rows(env, "SELECT * FROM streamed"))
                .containsExactlyInAnyOrder(
                        Row.of(1, "10"), Row.of(2, "20"), Row.of(3, "not a number"));
    }

    @Test
    void withoutAtomicityFlinkCreatesTheTableFirst() {
        env.getConfig().set(ATOMIC, "false");
        exec(env, "CREATE TABLE plain AS SELECT id, s FROM src WHERE id = 1");
        assertThat(rows(env, "SELECT * FROM plain")).containsExactly(Row.of(1, "10"));
        assertThat(table("plain").currentSnapshot().summary())
                .doesNotContainKey(IcebergStagedTable.STAGING_ID_PROPERTY);

        exec(env, "CREATE OR REPLACE TABLE plain AS SELECT s FROM src WHERE id = 2");
        assertThat(rows(env, "SELECT * FROM plain")).containsExactly(Row.of("20"));

        // the non-atomic CTAS creates the table before the job: a failing job leaves it, empty
        assertThatThrownBy(() -> exec(env, "CREATE TABLE halfway AS " + FAILING_QUERY)).isNotNull();
        assertThat(iceberg.tableExists(TableIdentifier.of("default", "halfway"))).isTrue();
    }

    @Test
    void restCatalogCreatesAndReplacesInOneCommit() {
        exec(
                env,
                "CREATE CATALOG rest WITH ('type'='iceberg', 'catalog-type'='rest', 'uri'='%s')",
                REST.uri());
        exec(env, "CREATE DATABASE rest.db");
        exec(env, "CREATE TABLE rest.db.c AS SELECT id, s FROM ice.`default`.src WHERE id < 3");
        TableIdentifier c = TableIdentifier.of("db", "c");
        Table created = REST.backend().loadTable(c);
        assertThat(created.snapshots()).hasSize(1);
        assertThat(rows(env, "SELECT * FROM rest.db.c"))
                .containsExactlyInAnyOrder(Row.of(1, "10"), Row.of(2, "20"));

        exec(
                env,
                "CREATE OR REPLACE TABLE rest.db.c AS SELECT id FROM ice.`default`.src WHERE id = 3");
        Table replaced = REST.backend().loadTable(c);
        assertThat(replaced.snapshots()).hasSize(2);
        assertThat(replaced.schema().columns()).hasSize(1);
        assertThat(rows(env, "SELECT * FROM rest.db.c")).containsExactly(Row.of(3));

        // a failing replace leaves the REST table as it was
        assertThatThrownBy(
                        () ->
                                exec(
                                        env,
                                        "REPLACE TABLE rest.db.c AS SELECT id, CAST(s AS INT) AS n"
                                                + " FROM ice.`default`.src"))
                .isNotNull();
        Table after = REST.backend().loadTable(c);
        assertThat(after.currentSnapshot().snapshotId())
                .isEqualTo(replaced.currentSnapshot().snapshotId());
        assertThat(after.schema().sameSchema(replaced.schema())).isTrue();
    }

    private Table table(String name) {
        return iceberg.loadTable(TableIdentifier.of("default", name));
    }

    private List<Path> stagingDirectories(String name) {
        Path metadata = warehouse.resolve("default").resolve(name).resolve("metadata");
        try (Stream<Path> entries = Files.list(metadata)) {
            return entries.filter(
                            p -> p.getFileName().toString().startsWith(TableStaging.STAGING_PREFIX))
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The regular files under {@code dir} (none when it does not exist). */
    private static List<Path> files(Path dir) {
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile)
                    .filter(p -> !p.getFileName().toString().endsWith(".crc"))
                    .sorted()
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void awaitNoFiles(Path dir) {
        awaitFiles(dir, List.of());
    }

    /** Waits (the abort runs on the JobManager as the job fails) until the files are these. */
    private static void awaitFiles(Path dir, List<Path> expected) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (!files(dir).equals(expected) && Instant.now().isBefore(deadline)) {
            try {
                Thread.sleep(50); // polling interval only; the condition decides
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        assertThat(files(dir)).as("files under %s", dir).isEqualTo(expected);
    }
}
