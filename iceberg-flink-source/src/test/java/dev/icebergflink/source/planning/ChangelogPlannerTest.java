package dev.icebergflink.source.planning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.source.ChangelogTestTables;
import dev.icebergflink.source.config.ScanContext;
import dev.icebergflink.source.split.IcebergSourceSplit;
import dev.icebergflink.tasks.changelog.ChangeFileScanTask;
import dev.icebergflink.tasks.changelog.ChangeType;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the changes of each kind of snapshot are planned: which data files, with which deletes, as
 * which change type, and what needs a parent snapshot.
 */
class ChangelogPlannerTest {

    @TempDir Path dir;

    private ChangelogTestTables t;
    private Table table;
    private DataFile a;

    @BeforeEach
    void createTable() {
        t = ChangelogTestTables.create(dir.resolve("t").toString(), 2, FileFormat.PARQUET);
        table = t.table();
        a = t.append("a", 0, 1, 2, 3);
    }

    @Test
    void anAppendAddsItsFilesWithoutDeletes() {
        List<ChangeFileScanTask> changes = changesOf(t.current());
        assertThat(changes)
                .singleElement()
                .satisfies(
                        change -> {
                            assertThat(change.type()).isEqualTo(ChangeType.ADDED_ROWS);
                            assertThat(change.file().location()).isEqualTo(a.location());
                            assertThat(change.deletes()).isEmpty();
                            assertThat(change.commitSnapshotId())
                                    .isEqualTo(t.current().snapshotId());
                            assertThat(change.commitTimestampMillis())
                                    .isEqualTo(t.current().timestampMillis());
                        });
    }

    @Test
    void anUpsertRemovesRowsOfOlderFilesByItsEqualityDeletesAndAddsItsFile() {
        DataFile b = t.upsert("b", 1);
        List<ChangeFileScanTask> changes = changesOf(t.current());
        assertThat(changes)
                .extracting(ChangeFileScanTask::type)
                .containsExactly(ChangeType.DELETED_ROWS, ChangeType.ADDED_ROWS);
        ChangeFileScanTask removed = changes.get(0);
        assertThat(removed.file().location()).isEqualTo(a.location());
        assertThat(removed.deletes()).as("the deletes before the snapshot").isEmpty();
        assertThat(removed.addedDeletes())
                .singleElement()
                .satisfies(delete -> assertThat(delete.equalityFieldIds()).containsExactly(1));
        assertThat(changes.get(1).file().location()).isEqualTo(b.location());
        // the new file is not touched by its own snapshot's equality deletes
        assertThat(changes.get(1).deletes()).isEmpty();
    }

    @Test
    void equalityDeletesSkipDataFilesNoneOfTheirKeysLiesIn() {
        DataFile middle = t.append("m", 40, 60);
        DataFile high = t.append("h", 100, 110);
        // the delete file's bounds [2, 105] overlap all three files; its keys only two of them
        t.delete(t.equalityDeletes(2, 105));
        assertThat(changesOf(t.current()))
                .allSatisfy(change -> assertThat(change.type()).isEqualTo(ChangeType.DELETED_ROWS))
                .extracting(change -> change.file().location())
                .containsExactlyInAnyOrder(a.location(), high.location())
                .doesNotContain(middle.location());
    }

    @Test
    void aDataFileKeepsOnlyTheDeletesWhoseKeysMayLieInIt() {
        DataFile middle = t.append("m", 40, 60);
        // bounds [2, 500] overlap both files, but only key 2 lies in 'a'
        DeleteFile wide = t.equalityDeletes(2, 500);
        DeleteFile near = t.equalityDeletes(50);
        t.delete(wide, near);
        List<ChangeFileScanTask> changes = changesOf(t.current());
        assertThat(changes)
                .extracting(change -> change.file().location())
                .containsExactlyInAnyOrder(a.location(), middle.location());
        for (ChangeFileScanTask change : changes) {
            assertThat(change.addedDeletes())
                    .extracting(DeleteFile::location)
                    .containsExactly(
                            change.file().location().equals(a.location())
                                    ? wide.location()
                                    : near.location());
            assertThat(change.file().lowerBounds())
                    .as("bounds planned for the pruning stay out of the split")
                    .isNullOrEmpty();
        }
    }

    @Test
    void aPositionDeleteSeparatesTheDeletesBeforeFromTheNewOnes() {
        DeleteFile first = t.positionDeletes(a, 0);
        t.delete(first);
        DeleteFile second = t.positionDeletes(a, 2);
        t.delete(second);
        ChangeFileScanTask removed = changesOf(t.current()).get(0);
        assertThat(removed.type()).isEqualTo(ChangeType.DELETED_ROWS);
        assertThat(removed.deletes())
                .extracting(DeleteFile::location)
                .containsExactly(first.location());
        assertThat(removed.addedDeletes())
                .extracting(DeleteFile::location)
                .containsExactly(second.location());
    }

    @Test
    void anOverwriteRemovesTheFileWithTheDeletesItHadAndAddsTheNewOne() {
        DeleteFile deletes = t.positionDeletes(a, 3);
        t.delete(deletes);
        DataFile c = t.dataFile("c", 0);
        table.newOverwrite().deleteFile(a).addFile(c).commit();
        List<ChangeFileScanTask> changes = changesOf(t.current());
        assertThat(changes)
                .extracting(ChangeFileScanTask::type)
                .containsExactly(ChangeType.DELETED_FILE, ChangeType.ADDED_ROWS);
        assertThat(changes.get(0).file().location()).isEqualTo(a.location());
        assertThat(changes.get(0).deletes())
                .extracting(DeleteFile::location)
                .containsExactly(deletes.location());
        assertThat(changes.get(1).file().location()).isEqualTo(c.location());
    }

    @Test
    void aRewriteChangesNothing() {
        table.newRewrite()
                .validateFromSnapshot(t.current().snapshotId())
                .rewriteFiles(Set.of(a), Set.of(t.dataFile("a", 0, 1, 2, 3)))
                .commit();
        assertThat(planner().planSnapshot(t.current())).isEmpty();
    }

    @Test
    void removedFilesOfASnapshotWhoseParentExpiredCannotBePlanned() {
        long appended = t.current().snapshotId();
        table.newDelete().deleteFile(a).commit();
        Snapshot delete = t.current();
        table.expireSnapshots().expireSnapshotId(appended).cleanExpiredFiles(false).commit();
        table.refresh();
        assertThatThrownBy(() -> planner().planSnapshot(table.snapshot(delete.snapshotId())))
                .isInstanceOf(UnrecoverablePlanningException.class)
                .hasMessageContaining("snapshot " + delete.snapshotId())
                .hasMessageContaining("parent snapshot " + appended + " has expired")
                .hasMessageContaining("start-snapshot-id");
    }

    @Test
    void aRangeIsPlannedOldestFirstOneSplitPerChangingSnapshot() {
        long first = t.current().snapshotId();
        t.upsert("b", 1);
        table.newRewrite()
                .validateFromSnapshot(t.current().snapshotId())
                .rewriteFiles(Set.of(a), Set.of(t.dataFile("a", 0, 1, 2, 3)))
                .commit();
        t.append("c", 9);
        List<IcebergSourceSplit> splits = planner().planRange(first, t.current());
        assertThat(splits).hasSize(2);
        assertThat(splits)
                .extracting(split -> snapshotOf(split))
                .containsExactly(
                        table.snapshot(t.current().parentId()).parentId(),
                        t.current().snapshotId());
        assertThatThrownBy(() -> planner().planRange(123L, t.current()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("123 of the changelog read is not an ancestor");
    }

    private static long snapshotOf(IcebergSourceSplit split) {
        return ((ChangeFileScanTask) split.task().files().iterator().next()).commitSnapshotId();
    }

    private ChangelogPlanner planner() {
        table.refresh();
        ScanContext context =
                ScanContext.resolve(
                        Map.of("changelog-mode", "all"),
                        new Configuration(),
                        table,
                        null,
                        List.of());
        return new ChangelogPlanner(table, context, null);
    }

    private List<ChangeFileScanTask> changesOf(Snapshot snapshot) {
        Optional<IcebergSourceSplit> split = planner().planSnapshot(snapshot);
        assertThat(split).isPresent();
        return split.get().task().files().stream().map(ChangeFileScanTask.class::cast).toList();
    }
}
