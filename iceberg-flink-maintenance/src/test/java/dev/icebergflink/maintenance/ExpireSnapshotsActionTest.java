package dev.icebergflink.maintenance;

import static dev.icebergflink.maintenance.MaintenanceTables.asStrings;
import static dev.icebergflink.maintenance.MaintenanceTables.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Snapshot expiration on Hadoop tables: what is expired, what is deleted, what is kept. */
class ExpireSnapshotsActionTest {

    @TempDir Path dir;

    @Test
    void expiresOldSnapshotsAndDeletesOnlyTheFilesTheyAloneReferenced() {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        Random random = new Random(3L);
        List<Record> kept = new ArrayList<>();
        List<DataFile> replaced = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            List<Record> records = MaintenanceTables.records(i * 10L, 10, "p0", random);
            DataFile file = MaintenanceTables.writeDataFile(table, records);
            table.newAppend().appendFile(file).commit();
            replaced.add(file);
        }
        // Replace the three files by one, then delete a row of it with a position delete.
        List<Record> all = MaintenanceTables.records(100L, 30, "p0", random);
        DataFile merged = MaintenanceTables.writeDataFile(table, all);
        table.newRewrite()
                .rewriteFiles(new java.util.HashSet<>(replaced), java.util.Set.of(merged))
                .commit();
        DeleteFile delete = MaintenanceTables.writePositionDeletes(table, merged, 0);
        table.newRowDelta().addDeletes(delete).commit();
        kept.addAll(all.subList(1, all.size()));
        List<Snapshot> before = snapshots(table);
        assertThat(before).hasSize(5);

        ExpireSnapshotsActionResult result =
                Actions.forTable(table)
                        .expireSnapshots()
                        .expireOlderThan(System.currentTimeMillis() + 1)
                        .retainLast(1)
                        .execute();

        assertThat(result.expiredSnapshotsCount()).isEqualTo(4);
        assertThat(result.expiredSnapshotIds())
                .containsExactlyInAnyOrderElementsOf(
                        before.subList(0, 4).stream().map(Snapshot::snapshotId).toList());
        assertThat(result.deletedDataFilesCount()).isEqualTo(3);
        assertThat(result.deletedDeleteFilesCount()).isZero();
        assertThat(result.deletedManifestListsCount()).isEqualTo(4);
        assertThat(result.deletedManifestsCount()).isGreaterThanOrEqualTo(3);
        for (DataFile file : replaced) {
            assertThat(new File(java.net.URI.create(file.location()))).doesNotExist();
        }
        assertThat(new File(java.net.URI.create(merged.location()))).exists();
        assertThat(new File(java.net.URI.create(delete.location()))).exists();
        assertThat(snapshots(table)).hasSize(1);
        assertThat(rows(table)).isEqualTo(asStrings(kept));
    }

    @Test
    void keepsTheLastSnapshotAFlinkJobCommittedAndEveryNewerOne() {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        Random random = new Random(5L);
        table.newAppend()
                .appendFile(
                        MaintenanceTables.writeDataFile(
                                table, MaintenanceTables.records(0, 5, "p0", random)))
                .commit();
        table.newAppend()
                .appendFile(
                        MaintenanceTables.writeDataFile(
                                table, MaintenanceTables.records(10, 5, "p0", random)))
                .set("flink.job-id", "job")
                .set("flink.operator-id", "op")
                .set(ExpireSnapshotsAction.FLINK_CHECKPOINT_KEY, "7")
                .commit();
        long flinkCommit = table.currentSnapshot().snapshotId();
        table.newAppend()
                .appendFile(
                        MaintenanceTables.writeDataFile(
                                table, MaintenanceTables.records(20, 5, "p0", random)))
                .commit();

        ExpireSnapshotsActionResult result =
                Actions.forTable(table)
                        .expireSnapshots()
                        .expireOlderThan(System.currentTimeMillis() + 1)
                        .retainLast(1)
                        .execute();

        assertThat(result.expiredSnapshotsCount()).isEqualTo(1);
        assertThat(snapshots(table).get(0).snapshotId()).isEqualTo(flinkCommit);
        assertThat(snapshots(table)).hasSize(2);

        // Without the protection the Flink commit goes too.
        ExpireSnapshotsActionResult unprotected =
                Actions.forTable(table)
                        .expireSnapshots()
                        .expireOlderThan(System.currentTimeMillis() + 1)
                        .retainLast(1)
                        .retainLastFlinkCommit(false)
                        .execute();
        assertThat(unprotected.expiredSnapshotIds()).containsExactly(flinkCommit);
        assertThat(rows(table)).hasSize(15);
    }

    @Test
    void rejectsInvalidSettings() {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        assertThatThrownBy(() -> Actions.forTable(table).expireSnapshots().retainLast(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("retainLast must be at least 1");
        assertThatThrownBy(() -> Actions.forTable(table).expireSnapshots().maxConcurrentDeletes(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxConcurrentDeletes");
    }

    private static List<Snapshot> snapshots(Table table) {
        table.refresh();
        List<Snapshot> snapshots = new ArrayList<>();
        table.snapshots().forEach(snapshots::add);
        return snapshots;
    }
}
