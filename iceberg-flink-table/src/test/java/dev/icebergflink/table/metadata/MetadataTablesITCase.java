package dev.icebergflink.table.metadata;

import static dev.icebergflink.table.testing.TableData.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.table.testing.SqlTestBase;
import dev.icebergflink.table.testing.TableData;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.HistoryEntry;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code SELECT * FROM `t$type`} for Iceberg's metadata tables, with their content checked. */
class MetadataTablesITCase extends SqlTestBase {

    @TempDir static Path warehouse;

    private static TableEnvironment env;
    private static Table table;
    private static long first;
    private static long second;

    @BeforeAll
    static void createTableWithTwoSnapshots() {
        env = batchEnv();
        exec(
                env,
                "CREATE CATALOG ice WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                        + " 'warehouse'='%s')",
                warehouse.toUri());
        exec(env, "USE CATALOG ice");
        exec(env, "CREATE TABLE sample (id BIGINT, data STRING) PARTITIONED BY (data)");
        Catalog catalog =
                CatalogLoader.hadoop(
                                "verify",
                                new Configuration(),
                                Map.of("warehouse", warehouse.toUri().toString()))
                        .loadCatalog();
        table = catalog.loadTable(TableIdentifier.of("default", "sample"));
        first = TableData.append(table, List.of(row(1L, "a"), row(2L, "a"), row(3L, "b")));
        second = TableData.append(table, List.of(row(4L, "b")));
        table.manageSnapshots().createTag("release", first).commit();
        table.refresh();
    }

    @Test
    void snapshotsAndHistory() {
        assertThat(rows(env, "SELECT snapshot_id, parent_id, operation FROM `sample$snapshots`"))
                .containsExactlyInAnyOrder(
                        Row.of(first, null, "append"), Row.of(second, first, "append"));
        List<Row> summary =
                rows(
                        env,
                        "SELECT summary['added-records'] FROM `sample$snapshots` WHERE"
                                + " snapshot_id = %d",
                        first);
        assertThat(summary).containsExactly(Row.of("3"));
        Set<Long> history = new HashSet<>();
        for (HistoryEntry entry : table.history()) {
            history.add(entry.snapshotId());
        }
        assertThat(rows(env, "SELECT snapshot_id, is_current_ancestor FROM `sample$history`"))
                .extracting(row -> (Long) row.getField(0))
                .containsExactlyInAnyOrderElementsOf(history);
        // Timestamps arrive as TIMESTAMP_LTZ with the commit time.
        Snapshot snapshot = table.snapshot(first);
        assertThat(
                        rows(
                                env,
                                "SELECT CAST(UNIX_TIMESTAMP(CAST(committed_at AS STRING)) AS"
                                        + " BIGINT) IS NOT NULL, committed_at IS NOT NULL FROM"
                                        + " `sample$snapshots` WHERE snapshot_id = %d",
                                snapshot.snapshotId()))
                .containsExactly(Row.of(true, true));
    }

    @Test
    void filesAndDataFiles() {
        Set<String> paths = new HashSet<>();
        for (var task : table.newScan().planFiles()) {
            paths.add(task.file().location());
        }
        assertThat(rows(env, "SELECT file_path, record_count FROM `sample$files`"))
                .extracting(row -> (String) row.getField(0))
                .containsExactlyInAnyOrderElementsOf(paths);
        assertThat(rows(env, "SELECT SUM(record_count) FROM `sample$data_files`"))
                .containsExactly(Row.of(4L));
        assertThat(rows(env, "SELECT `partition`.data, record_count FROM `sample$files`"))
                .containsExactlyInAnyOrder(Row.of("a", 2L), Row.of("b", 1L), Row.of("b", 1L));
        assertThat(rows(env, "SELECT COUNT(*) FROM `sample$all_data_files`"))
                .containsExactly(Row.of(3L));
        // readable_metrics shows the bounds by column name.
        assertThat(
                        rows(
                                env,
                                "SELECT readable_metrics.id.lower_bound,"
                                        + " readable_metrics.id.upper_bound FROM `sample$files`"
                                        + " WHERE `partition`.data = 'a'"))
                .containsExactly(Row.of(1L, 2L));
    }

    @Test
    void manifestsPartitionsRefsAndLogs() {
        Set<String> manifests =
                table.currentSnapshot().allManifests(table.io()).stream()
                        .map(ManifestFile::path)
                        .collect(Collectors.toSet());
        assertThat(rows(env, "SELECT path FROM `sample$manifests`"))
                .extracting(row -> (String) row.getField(0))
                .containsExactlyInAnyOrderElementsOf(manifests);
        assertThat(rows(env, "SELECT COUNT(*) FROM `sample$all_manifests`"))
                .containsExactly(Row.of(3L));
        assertThat(
                        rows(
                                env,
                                "SELECT `partition`.data, record_count, file_count FROM `sample$partitions`"))
                .containsExactlyInAnyOrder(Row.of("a", 2L, 1), Row.of("b", 2L, 2));
        assertThat(rows(env, "SELECT name, type, snapshot_id FROM `sample$refs`"))
                .containsExactlyInAnyOrder(
                        Row.of("main", "BRANCH", second), Row.of("release", "TAG", first));
        List<Row> log = rows(env, "SELECT latest_snapshot_id FROM `sample$metadata_log_entries`");
        assertThat(log).hasSize(table.history().size() + 2);
        assertThat(log).contains(Row.of(first), Row.of(second));
        assertThat(rows(env, "SELECT status, snapshot_id FROM `sample$entries`"))
                .containsExactlyInAnyOrder(Row.of(1, first), Row.of(1, first), Row.of(1, second));
        assertThat(rows(env, "SELECT COUNT(*) FROM `sample$all_entries`"))
                .containsExactly(Row.of(3L));
        assertThat(rows(env, "SELECT COUNT(*) FROM `sample$delete_files`"))
                .containsExactly(Row.of(0L));
        assertThat(rows(env, "SELECT COUNT(*) FROM `sample$all_files`"))
                .containsExactly(Row.of(3L));
    }

    @Test
    void metadataTablesAreReadOnlyAndUnknownTypesAreNamed() {
        assertThatThrownBy(
                        () ->
                                exec(
                                        env,
                                        "INSERT INTO `sample$snapshots` SELECT * FROM"
                                                + " `sample$snapshots`"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("sample$snapshots")
                                        .contains("is read-only"));
        // Flink reports unknown objects by name only (the catalog's reason, that 'nope' is no
        // metadata table type, is in MetadataTableNameTest).
        assertThatThrownBy(() -> rows(env, "SELECT * FROM `sample$nope`"))
                .satisfies(e -> assertThat(messages(e)).contains("Object 'sample$nope' not found"));
    }
}
