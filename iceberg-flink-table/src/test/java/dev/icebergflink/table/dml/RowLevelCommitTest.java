package dev.icebergflink.table.dml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.IsolationLevel;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one commit of a statement: nothing for no change, never twice for a re-run committer, and
 * nothing (its files deleted) when a concurrent commit conflicts.
 */
class RowLevelCommitTest {

    @TempDir Path warehouse;
    private Table table;
    private DataFile existing;

    @BeforeEach
    void createTable() {
        HadoopCatalog catalog =
                new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
        table =
                catalog.createTable(
                        TableIdentifier.of("db", "t"),
                        new Schema(Types.NestedField.optional(1, "id", Types.IntegerType.get())),
                        PartitionSpec.unpartitioned(),
                        Map.of("format-version", "2"));
        existing = dataFile("existing");
        table.newFastAppend().appendFile(existing).commit();
    }

    private DataFile dataFile(String name) {
        return DataFiles.builder(PartitionSpec.unpartitioned())
                .withPath(warehouse.resolve(name + ".parquet").toString())
                .withFileSizeInBytes(10)
                .withRecordCount(1)
                .build();
    }

    private DmlPlan plan(long scanSnapshotId, String statementId) {
        return new DmlPlan(
                "db.t",
                null,
                DmlOperation.UPDATE,
                2,
                scanSnapshotId,
                Expressions.alwaysTrue(),
                IsolationLevel.SERIALIZABLE,
                statementId,
                null,
                1,
                2);
    }

    private DmlWriteResult adding(DataFile file) {
        return new DmlWriteResult(
                List.of(file), List.of(), List.of(), List.of(), Set.of(existing.location()));
    }

    @Test
    void aStatementWithoutChangesCommitsNothing() {
        long before = table.currentSnapshot().snapshotId();
        DmlWriteResult nothing =
                new DmlWriteResult(List.of(), List.of(), List.of(), List.of(), Set.of());
        assertThat(new RowLevelCommit(plan(before, "s0")).commit(table, nothing)).isNull();
        assertThat(table.currentSnapshot().snapshotId()).isEqualTo(before);
    }

    @Test
    void aRerunCommitterRecognisesItsEarlierCommit() {
        long scanned = table.currentSnapshot().snapshotId();
        RowLevelCommit commit = new RowLevelCommit(plan(scanned, "s1"));
        Long first = commit.commit(table, adding(dataFile("new")));
        assertThat(table.currentSnapshot().summary())
                .containsEntry(DmlPlan.STATEMENT_ID_PROPERTY, "s1");

        // the same statement's committer again, after a failover
        assertThat(commit.commit(table, adding(dataFile("new")))).isEqualTo(first);
        assertThat(table.currentSnapshot().snapshotId()).isEqualTo(first);
        assertThat(table.snapshots()).hasSize(2);
    }

    @Test
    void aConflictFailsTheStatementAndDeletesItsFiles() throws IOException {
        long scanned = table.currentSnapshot().snapshotId();
        // a concurrent commit removes the file the statement deletes rows from
        table.newDelete().deleteFile(existing).commit();
        long concurrent = table.currentSnapshot().snapshotId();
        Path written = Files.createFile(warehouse.resolve("written.parquet"));

        assertThatThrownBy(
                        () ->
                                new RowLevelCommit(plan(scanned, "s2"))
                                        .commit(table, adding(dataFile("written"))))
                .isInstanceOf(DmlConflictException.class)
                .hasMessageContaining("UPDATE on table db.t failed")
                .hasMessageContaining("changed since the statement read snapshot " + scanned)
                .hasMessageContaining("run the statement again");
        assertThat(table.currentSnapshot().snapshotId()).isEqualTo(concurrent);
        assertThat(written).doesNotExist();
    }
}
