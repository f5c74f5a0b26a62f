package dev.icebergflink.table.dml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.data.RowDataFileWriterFactory;
import dev.icebergflink.table.testing.SqlTestBase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Row-level {@code DELETE} and {@code UPDATE} in batch mode on the Hadoop catalog: every format
 * version, partitioned (identity and hidden bucket transform) and not, with and without a key;
 * results checked row by row through Flink and Iceberg's generic reader, one snapshot per
 * statement, conflicts with concurrent commits.
 */
class RowLevelDmlITCase extends SqlTestBase {

    @TempDir static Path warehouse;

    private static TableEnvironment env;
    private static HadoopCatalog catalog;

    @BeforeAll
    static void createCatalog() {
        env = batchEnv();
        exec(
                env,
                "CREATE CATALOG dml WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                        + " 'warehouse'='%s')",
                warehouse.toUri());
        exec(env, "USE CATALOG dml");
        exec(env, "CREATE DATABASE db");
        exec(env, "USE db");
        catalog = new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
    }

    @AfterEach
    void clearHooks() {
        DmlTestHooks.clear();
    }

    // v3 unpartitioned (two statements on one file) runs in JdbcCatalogOnHdfsITCase, v2 partitioned
    // also in RestCatalogDdlITCase; unpartitioned tables here and there cover v1 and v3
    @ParameterizedTest(name = "format v{0}, partitioning {1}")
    @CsvSource({"1, none", "1, identity", "2, bucket", "3, identity"})
    void deleteAndUpdate(int version, String partitioning) throws Exception {
        String name = "t_v" + version + "_" + partitioning;
        String partitionClause =
                partitioning.equals("identity") ? " PARTITIONED BY (category)" : "";
        String partitionOption =
                partitioning.equals("bucket") ? ", 'partitioning'='bucket(4, id)'" : "";
        exec(
                env,
                "CREATE TABLE %s (id INT, category STRING, v INT)%s WITH ('format-version'='%d'%s)",
                name,
                partitionClause,
                version,
                partitionOption);
        // the rows are written as an INSERT would write them (a commit each, a file per
        // partition) but without a job each: the statements under test are the DML below
        Table table = table(name);
        commit(table, row(1, "a", 10), row(2, "b", 20));
        commit(table, row(3, "a", 30), row(4, "b", 40));
        commit(table, row(5, "c", 50), row(6, "c", 60));
        table = table(name);
        List<String> originalFiles = dataFiles(table);

        // DELETE: one snapshot, the rows of category b gone, the files of c untouched
        Snapshot before = table.currentSnapshot();
        exec(env, "DELETE FROM %s WHERE category = 'b'", name);
        Snapshot deleted = assertOneNewSnapshot(name, before);
        assertThat(deleted.operation()).isIn("delete", "overwrite");
        assertThat(tableRows(name))
                .containsExactlyInAnyOrder("1,a,10", "3,a,30", "5,c,50", "6,c,60");
        List<String> afterDelete = dataFiles(table(name));
        List<String> kept = new ArrayList<>(originalFiles);
        kept.retainAll(afterDelete);
        assertThat(kept).as("files without deleted rows stay").isNotEmpty();
        if (version == 1) {
            assertThat(kept)
                    .as("v1 rewrites the files it deletes from")
                    .hasSizeLessThan(originalFiles.size());
        } else {
            assertThat(afterDelete).containsExactlyInAnyOrderElementsOf(originalFiles);
        }

        // UPDATE: one snapshot, the changed rows re-inserted
        exec(env, "UPDATE %s SET v = v + 100 WHERE id = 1 OR id = 5", name);
        Snapshot updated = assertOneNewSnapshot(name, deleted);
        assertThat(updated.operation()).isEqualTo("overwrite");
        assertThat(tableRows(name))
                .containsExactlyInAnyOrder("1,a,110", "3,a,30", "5,c,150", "6,c,60");

        // a second DELETE on a file that already has deleted rows (id 5 shared its file with 6)
        exec(env, "DELETE FROM %s WHERE id = 6", name);
        Snapshot second = assertOneNewSnapshot(name, updated);
        assertThat(tableRows(name)).containsExactlyInAnyOrder("1,a,110", "3,a,30", "5,c,150");

        // UPDATE of the partition column moves the row
        exec(env, "UPDATE %s SET category = 'z' WHERE id = 3", name);
        assertOneNewSnapshot(name, second);
        assertThat(tableRows(name)).containsExactlyInAnyOrder("1,a,110", "3,z,30", "5,c,150");
        if (partitioning.equals("identity")) {
            assertThat(partitionsOfMovedRow(name)).containsExactly("z");
        }

        checkDeleteFiles(table(name), version);
        assertThat(sqlRows("SELECT id, category, v FROM " + name))
                .containsExactlyInAnyOrderElementsOf(tableRows(name));
    }

    @Test
    void upsertTableKeepsItsKeyUnique() throws Exception {
        exec(
                env,
                "CREATE TABLE keyed (id INT, category STRING, v INT, PRIMARY KEY (id) NOT"
                        + " ENFORCED) WITH ('format-version'='2', 'write.upsert.enabled'='true')");
        exec(env, "INSERT INTO keyed VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30)");
        exec(env, "INSERT INTO keyed VALUES (2, 'b', 21), (4, 'd', 40)");
        exec(env, "UPDATE keyed SET v = v * 10 WHERE id <= 2");
        exec(env, "DELETE FROM keyed WHERE id = 3");
        assertThat(tableRows("keyed")).containsExactlyInAnyOrder("1,a,100", "2,b,210", "4,d,40");
        assertThat(sqlRows("SELECT * FROM keyed"))
                .containsExactlyInAnyOrder("1,a,100", "2,b,210", "4,d,40");
        long snapshot = table("keyed").currentSnapshot().snapshotId();
        assertThatThrownBy(() -> exec(env, "UPDATE keyed SET id = 4 WHERE id = 1"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("cannot set the primary key column 'id'"));
        assertThat(table("keyed").currentSnapshot().snapshotId()).isEqualTo(snapshot);
    }

    @Test
    void conflictingCommitFailsTheStatementAndChangesNothing() throws Exception {
        createPartitioned("conflict");
        Table table = table("conflict");
        long filesOnDisk = filesOnDisk(table);
        // serializable isolation: a concurrent row in the statement's partition conflicts
        DmlTestHooks.beforeCommit(current -> append(current, 7, "a", 70));
        assertThatThrownBy(() -> exec(env, "DELETE FROM conflict WHERE category = 'a'"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("changed since the statement read snapshot")
                                        .contains("run the statement again"));
        DmlTestHooks.clear();
        Table after = table("conflict");
        assertThat(after.currentSnapshot().summary()).doesNotContainKey("flink.dml-statement-id");
        assertThat(tableRows("conflict"))
                .containsExactlyInAnyOrder("1,a,10", "2,b,20", "3,a,30", "4,c,40", "7,a,70");
        // the statement's own files were deleted: only the concurrent file was added
        assertThat(filesOnDisk(after)).isEqualTo(filesOnDisk + 1);

        // the same statement run again succeeds
        exec(env, "DELETE FROM conflict WHERE category = 'a'");
        assertThat(tableRows("conflict")).containsExactlyInAnyOrder("2,b,20", "4,c,40");
    }

    @Test
    void nonConflictingAppendLetsTheStatementCommit() throws Exception {
        createPartitioned("concurrent");
        DmlTestHooks.beforeCommit(current -> append(current, 8, "c", 80));
        exec(env, "UPDATE concurrent SET v = 0 WHERE category = 'a'");
        DmlTestHooks.clear();
        assertThat(tableRows("concurrent"))
                .containsExactlyInAnyOrder("1,a,0", "2,b,20", "3,a,0", "4,c,40", "8,c,80");

        // the same table as a 'connector'='iceberg' table takes row-level statements too
        exec(
                env,
                "CREATE TABLE default_catalog.default_database.concurrent_connector (id INT,"
                        + " category STRING, v INT) WITH ('connector'='iceberg',"
                        + " 'catalog-name'='dml_connector', 'catalog-type'='hadoop',"
                        + " 'warehouse'='%s', 'catalog-database'='db',"
                        + " 'catalog-table'='concurrent')",
                warehouse.toUri());
        exec(env, "DELETE FROM default_catalog.default_database.concurrent_connector WHERE v = 0");
        assertThat(tableRows("concurrent")).containsExactlyInAnyOrder("2,b,20", "4,c,40", "8,c,80");
    }

    @Test
    void badStatementsFailClearlyAndWriteNothing() throws Exception {
        createPartitioned("guarded");
        long snapshot = table("guarded").currentSnapshot().snapshotId();

        TableEnvironment streaming = streamingEnv();
        exec(
                streaming,
                "CREATE CATALOG dml WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                        + " 'warehouse'='%s')",
                warehouse.toUri());
        // Flink refuses to run row-level statements in streaming mode; planning them (EXPLAIN)
        // reaches the sink, which refuses them with the same advice
        assertThatThrownBy(() -> exec(streaming, "DELETE FROM dml.db.guarded WHERE id = 1"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "DELETE statement is not supported for streaming"));
        assertThatThrownBy(() -> exec(streaming, "UPDATE dml.db.guarded SET v = 1 WHERE id = 1"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "UPDATE statement is not supported for streaming"));
        assertThatThrownBy(() -> streaming.explainSql("DELETE FROM dml.db.guarded WHERE id = 1"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("DELETE runs in batch mode only")
                                        .contains("SET 'execution.runtime-mode' = 'batch'"));

        assertThatThrownBy(() -> exec(env, "UPDATE guarded SET v = 'not a number' WHERE id = 1"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("Cannot assign to target field 'v' of type"));
        assertThatThrownBy(() -> exec(env, "DELETE FROM `guarded$snapshots` WHERE true"))
                .satisfies(e -> assertThat(messages(e)).contains("guarded$snapshots is read-only"));

        // a DELETE that matches nothing commits nothing
        exec(env, "DELETE FROM guarded WHERE v = 999");

        assertThat(table("guarded").currentSnapshot().snapshotId()).isEqualTo(snapshot);
        assertThat(tableRows("guarded"))
                .containsExactlyInAnyOrder("1,a,10", "2,b,20", "3,a,30", "4,c,40");

        exec(env, "CREATE TABLE empty_table (id INT, v INT) WITH ('format-version'='2')");
        exec(env, "DELETE FROM empty_table WHERE id = 1");
        exec(env, "UPDATE empty_table SET v = 1");
        assertThat(table("empty_table").currentSnapshot()).isNull();
    }

    private static void createPartitioned(String name) {
        exec(
                env,
                "CREATE TABLE %s (id INT, category STRING, v INT) PARTITIONED BY (category)"
                        + " WITH ('format-version'='2')",
                name);
        Table table = table(name);
        commit(table, row(1, "a", 10), row(2, "b", 20));
        commit(table, row(3, "a", 30), row(4, "c", 40));
    }

    /** Appends one row as its own data file, as a concurrent writer would. */
    private static void append(Table table, int id, String category, int v) {
        commit(table, row(id, category, v));
    }

    private static GenericRowData row(int id, String category, int v) {
        return GenericRowData.of(id, StringData.fromString(category), v);
    }

    /**
     * Appends {@code rows} (id, category, v) in one commit, one Parquet data file per partition
     * they fall into, the way an {@code INSERT} of them would lay them out.
     */
    private static void commit(Table table, GenericRowData... rows) {
        try {
            OutputFileFactory files =
                    OutputFileFactory.builderFor(table, 99, 1).format(FileFormat.PARQUET).build();
            RowDataFileWriterFactory writers = RowDataFileWriterFactory.builderFor(table).build();
            Map<PartitionKey, DataWriter<RowData>> byPartition = new LinkedHashMap<>();
            for (GenericRowData row : rows) {
                GenericRecord record = GenericRecord.create(table.schema());
                record.setField("id", row.getInt(0));
                record.setField("category", row.getString(1).toString());
                record.setField("v", row.getInt(2));
                PartitionKey partition = new PartitionKey(table.spec(), table.schema());
                partition.partition(record);
                DataWriter<RowData> writer = byPartition.get(partition);
                if (writer == null) {
                    writer =
                            writers.newDataWriter(
                                    files.newOutputFile(table.spec(), partition),
                                    table.spec(),
                                    partition);
                    byPartition.put(partition, writer);
                }
                writer.write(row);
            }
            AppendFiles append = table.newAppend();
            for (DataWriter<RowData> writer : byPartition.values()) {
                writer.close();
                append.appendFile(writer.toDataFile());
            }
            append.commit();
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    private static Snapshot assertOneNewSnapshot(String name, Snapshot before) {
        Table table = table(name);
        Snapshot current = table.currentSnapshot();
        assertThat(current.parentId()).isEqualTo(before.snapshotId());
        assertThat(current.summary()).containsKey("flink.dml-statement-id");
        return current;
    }

    /** The data files of {@code table}'s current snapshot, by location. */
    private static List<String> dataFiles(Table table) throws Exception {
        List<String> files = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            tasks.forEach(task -> files.add(task.file().location()));
        }
        return files;
    }

    /** The partition values (identity of category) of the data files the last commit added. */
    private static List<String> partitionsOfMovedRow(String name) {
        List<String> partitions = new ArrayList<>();
        Table table = table(name);
        for (DataFile file : table.currentSnapshot().addedDataFiles(table.io())) {
            partitions.add(file.partition().get(0, String.class));
        }
        return partitions;
    }

    private static void checkDeleteFiles(Table table, int version) throws Exception {
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                List<DeleteFile> deletes = task.deletes();
                if (version == 1) {
                    assertThat(deletes).isEmpty();
                } else if (version == 2) {
                    assertThat(deletes)
                            .allSatisfy(
                                    d -> assertThat(d.format()).isNotEqualTo(FileFormat.PUFFIN));
                } else {
                    // deletion vectors, at most one per data file
                    assertThat(deletes).hasSizeLessThanOrEqualTo(1);
                    assertThat(deletes)
                            .allSatisfy(d -> assertThat(d.format()).isEqualTo(FileFormat.PUFFIN));
                }
            }
        }
        if (version > 1) {
            assertThat(table.currentSnapshot().summary().get("total-delete-files"))
                    .isNotEqualTo("0");
        }
    }

    private static long filesOnDisk(Table table) throws Exception {
        try (java.util.stream.Stream<Path> files =
                java.nio.file.Files.walk(
                        Path.of(java.net.URI.create(table.location() + "/data")))) {
            return files.filter(java.nio.file.Files::isRegularFile)
                    .filter(f -> !f.getFileName().toString().startsWith("."))
                    .count();
        }
    }

    private static Table table(String name) {
        return catalog.loadTable(TableIdentifier.of("db", name));
    }

    private static List<String> tableRows(String name) throws Exception {
        List<String> rows = new ArrayList<>();
        Table table = table(name);
        // the generic reader may add _pos to apply position deletes: keep the table's columns
        int columns = table.schema().columns().size();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            for (Record record : records) {
                List<String> values = new ArrayList<>();
                for (int i = 0; i < columns; i++) {
                    values.add(String.valueOf(record.get(i)));
                }
                rows.add(String.join(",", values));
            }
        }
        return rows;
    }

    private static List<String> sqlRows(String query) {
        return rows(env, query).stream()
                .map(
                        row -> {
                            List<String> values = new ArrayList<>();
                            for (int i = 0; i < row.getArity(); i++) {
                                values.add(String.valueOf(row.getField(i)));
                            }
                            return String.join(",", values);
                        })
                .collect(Collectors.toList());
    }
}
