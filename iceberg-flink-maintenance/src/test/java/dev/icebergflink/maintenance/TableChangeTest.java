package dev.icebergflink.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.maintenance.api.TableChange;
import dev.icebergflink.maintenance.monitor.MonitorSplit;
import dev.icebergflink.maintenance.monitor.SnapshotChanges;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the triggers count, read from real commits' snapshot summaries: data files and bytes,
 * position deletes (files and rows, deletion vectors included), equality deletes, commits; and that
 * rewrites are not counted.
 */
class TableChangeTest {

    @TempDir Path dir;

    @Test
    void eachCommitCountsWhatItAdded() {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        Random random = new Random(3);
        List<Record> rows = MaintenanceTables.records(0, 10, "p0", random);
        DataFile first = MaintenanceTables.writeDataFile(table, rows);
        DataFile second =
                MaintenanceTables.writeDataFile(
                        table, MaintenanceTables.records(10, 5, "p0", random));
        table.newAppend().appendFile(first).appendFile(second).commit();
        TableChange appended = TableChange.of(table.currentSnapshot());
        assertThat(appended.dataFileCount()).isEqualTo(2);
        assertThat(appended.dataFileSizeInBytes())
                .isEqualTo(first.fileSizeInBytes() + second.fileSizeInBytes());
        assertThat(appended.commitCount()).isEqualTo(1);
        assertThat(appended.posDeleteFileCount()).isZero();

        DeleteFile positions = MaintenanceTables.writePositionDeletes(table, first, 0, 1, 2);
        DeleteFile equality = MaintenanceTables.writeIdDeletes(table, "p0", 11, 12);
        table.newRowDelta().addDeletes(positions).addDeletes(equality).commit();
        TableChange deleted = TableChange.of(table.currentSnapshot());
        assertThat(deleted)
                .isEqualTo(
                        TableChange.builder()
                                .posDeleteFileCount(1)
                                .posDeleteRecordCount(3)
                                .eqDeleteFileCount(1)
                                .eqDeleteRecordCount(2)
                                .commitCount(1)
                                .build());

        long afterAppend = table.snapshots().iterator().next().snapshotId();
        assertThat(
                        SnapshotChanges.since(
                                table, table.currentSnapshot(), afterAppend, Integer.MAX_VALUE))
                .as("the changes after the first commit")
                .isEqualTo(deleted);
        assertThat(SnapshotChanges.since(table, table.currentSnapshot(), MonitorSplit.NONE, 1))
                .as("read back at most one snapshot")
                .isEqualTo(deleted);
        assertThat(
                        SnapshotChanges.since(
                                table,
                                table.currentSnapshot(),
                                MonitorSplit.NONE,
                                Integer.MAX_VALUE))
                .isEqualTo(appended.merge(deleted));
    }

    @Test
    void deletionVectorsCountAsPositionDeleteFiles() {
        Table table = MaintenanceTables.create(dir, "v3", 3, FileFormat.PARQUET);
        DataFile file =
                MaintenanceTables.writeDataFile(
                        table, MaintenanceTables.records(0, 10, "p0", new Random(5)));
        table.newAppend().appendFile(file).commit();
        table.newRowDelta()
                .addDeletes(MaintenanceTables.writeDeletionVector(table, file, 4, 5))
                .commit();

        TableChange change = TableChange.of(table.currentSnapshot());
        assertThat(change.posDeleteFileCount()).isEqualTo(1);
        assertThat(change.posDeleteRecordCount()).isEqualTo(2);
    }

    @Test
    void rewritesAreNotChanges() {
        Table table = MaintenanceTables.create(dir, "r", 2, FileFormat.PARQUET);
        Random random = new Random(7);
        DataFile a =
                MaintenanceTables.writeDataFile(
                        table, MaintenanceTables.records(0, 3, "p0", random));
        DataFile b =
                MaintenanceTables.writeDataFile(
                        table, MaintenanceTables.records(3, 3, "p0", random));
        table.newAppend().appendFile(a).commit();
        long appended = table.currentSnapshot().snapshotId();
        table.newRewrite().deleteFile(a).addFile(b).commit();

        assertThat(
                        SnapshotChanges.since(
                                table, table.currentSnapshot(), appended, Integer.MAX_VALUE))
                .isEqualTo(TableChange.empty());
    }
}
