package dev.icebergflink.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.maintenance.eqdelete.ConversionUnit;
import dev.icebergflink.maintenance.eqdelete.EqualityDeletePlanner;
import dev.icebergflink.maintenance.eqdelete.PlannedConversion;
import dev.icebergflink.testing.GenericFileWriters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.OutputFileFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The planner of the equality-delete conversion on real tables: which equality deletes it removes
 * and which data files it scans for them (same partition or global scope, strictly lower data
 * sequence number), and how the byte budget and the filter select partitions. No Flink involved.
 */
class EqualityDeletePlannerTest {

    @TempDir Path dir;

    private final Random random = new Random(7);

    @Test
    void scansOlderDataFilesOfTheDeletesPartitionOnly() {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        DataFile p0Old = append(table, 0, "p0");
        DataFile p1Old = append(table, 100, "p1");
        DeleteFile delete =
                commitDeletes(table, MaintenanceTables.writeIdDeletes(table, "p0", 1, 2));
        DataFile p0New = append(table, 200, "p0");

        PlannedConversion plan = plan(table);

        assertThat(locations(plan.removedEqualityDeletes())).containsExactly(delete.location());
        assertThat(plan.removedEqualityDeletes().get(0).dataSequenceNumber()).isEqualTo(3L);
        assertThat(scanned(plan)).containsExactly(p0Old.location());
        assertThat(scanned(plan)).doesNotContain(p1Old.location(), p0New.location());
        ConversionUnit unit = plan.units().get(0);
        assertThat(locations(unit.equalityDeletes())).containsExactly(delete.location());
        assertThat(unit.dataFiles().get(0).file().dataSequenceNumber()).isEqualTo(1L);
        assertThat(plan.startingSnapshot().snapshotId())
                .isEqualTo(table.currentSnapshot().snapshotId());
    }

    @Test
    void aDataFileOfTheDeletesOwnCommitIsNotScanned() {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        DataFile older = append(table, 0, "p0");
        DataFile sameCommit =
                MaintenanceTables.writeDataFile(
                        table, MaintenanceTables.records(0, 10, "p0", random));
        DeleteFile delete = MaintenanceTables.writeIdDeletes(table, "p0", 3);
        table.newRowDelta().addRows(sameCommit).addDeletes(delete).commit();

        PlannedConversion plan = plan(table);

        assertThat(scanned(plan)).containsExactly(older.location());
    }

    @Test
    void aDeleteThatAppliesToNoDataFileIsRemovedWithoutAScan() {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        DeleteFile delete = commitDeletes(table, MaintenanceTables.writeIdDeletes(table, "p0", 1));
        append(table, 0, "p0");

        PlannedConversion plan = plan(table);

        assertThat(locations(plan.removedEqualityDeletes())).containsExactly(delete.location());
        assertThat(plan.units()).isEmpty();
    }

    @Test
    void aGlobalDeleteScansOlderDataFilesOfEveryPartitionAndSpec() {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        DataFile p0 = append(table, 0, "p0");
        DataFile p1 = append(table, 100, "p1");
        DeleteFile p0Delete =
                commitDeletes(table, MaintenanceTables.writeIdDeletes(table, "p0", 6));
        table.updateSpec().removeField("part").commit();
        DataFile unpartitioned = append(table, 200, "p2");
        DeleteFile global = commitDeletes(table, globalIdDeletes(table, 5, 105, 205, 305));
        DataFile later = append(table, 300, "p3");

        PlannedConversion plan = plan(table);

        assertThat(locations(plan.removedEqualityDeletes()))
                .containsExactlyInAnyOrder(global.location(), p0Delete.location());
        assertThat(scanned(plan))
                .containsExactlyInAnyOrder(p0.location(), p1.location(), unpartitioned.location())
                .doesNotContain(later.location());
        // one unit per data partition; p0's unit carries both deletes, the others the global one
        for (ConversionUnit unit : plan.units()) {
            String file = unit.dataFiles().get(0).file().location();
            if (file.equals(p0.location())) {
                assertThat(locations(unit.equalityDeletes()))
                        .containsExactlyInAnyOrder(global.location(), p0Delete.location());
            } else {
                assertThat(locations(unit.equalityDeletes())).containsExactly(global.location());
            }
        }
        assertThat(plan.units()).hasSize(3);
    }

    @Test
    void unitsCarryPositionDeletesButNoOtherEqualityDeletes() {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        DataFile file = append(table, 0, "p0");
        DeleteFile positions = MaintenanceTables.writePositionDeletes(table, file, 4);
        table.newRowDelta().addDeletes(positions).commit();
        commitDeletes(table, MaintenanceTables.writeIdDeletes(table, "p0", 1));

        FileScanTask task = plan(table).units().get(0).dataFiles().get(0);

        assertThat(task.deletes())
                .extracting(DeleteFile::content)
                .containsOnly(FileContent.POSITION_DELETES);
        assertThat(locations(task.deletes())).containsExactly(positions.location());
        assertThat(task.start()).isZero();
        assertThat(task.length()).isEqualTo(file.fileSizeInBytes());
    }

    @Test
    void theBudgetTakesTheLargestPartitionsThatFit() {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        List<DataFile> p0 = List.of(append(table, 0, "p0"), append(table, 10, "p0"));
        DataFile p1 = append(table, 100, "p1");
        // ids in both p0 files: Iceberg prunes deletes by the files' id bounds
        commitDeletes(table, MaintenanceTables.writeIdDeletes(table, "p0", 1, 11));
        DeleteFile p1Delete =
                commitDeletes(table, MaintenanceTables.writeIdDeletes(table, "p1", 101));
        long p1Cost = p1.fileSizeInBytes() + p1Delete.fileSizeInBytes();

        PlannedConversion limited =
                new EqualityDeletePlanner(
                                table, Expressions.alwaysTrue(), true, p1Cost + 1, Long.MAX_VALUE)
                        .plan();

        assertThat(locations(limited.removedEqualityDeletes()))
                .containsExactly(p1Delete.location());
        assertThat(scanned(limited)).containsExactly(p1.location());
        assertThat(scanned(plan(table)))
                .containsExactlyInAnyOrder(
                        p0.get(0).location(), p0.get(1).location(), p1.location());
    }

    @Test
    void aFilterSelectsPartitionsAndLeavesGlobalDeletes() {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        append(table, 0, "p0");
        DataFile p1 = append(table, 100, "p1");
        commitDeletes(table, MaintenanceTables.writeIdDeletes(table, "p0", 1));
        DeleteFile p1Delete =
                commitDeletes(table, MaintenanceTables.writeIdDeletes(table, "p1", 101));
        table.updateSpec().removeField("part").commit();
        commitDeletes(table, globalIdDeletes(table, 2));

        PlannedConversion plan = plan(table, Expressions.equal("part", "p1"));

        assertThat(locations(plan.removedEqualityDeletes())).containsExactly(p1Delete.location());
        assertThat(scanned(plan)).containsExactly(p1.location());
    }

    @Test
    void unitsAreCutBySizeWithinAPartition() {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        for (int i = 0; i < 4; i++) {
            append(table, i * 10L, "p0");
        }
        commitDeletes(table, MaintenanceTables.writeIdDeletes(table, "p0", 1, 11, 21, 31));

        PlannedConversion plan =
                new EqualityDeletePlanner(table, Expressions.alwaysTrue(), true, Long.MAX_VALUE, 1L)
                        .plan();

        assertThat(plan.units()).hasSize(4);
        assertThat(plan.units()).allSatisfy(unit -> assertThat(unit.dataFiles()).hasSize(1));
    }

    @Test
    void aTableWithoutEqualityDeletesPlansNothing() {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        assertThat(plan(table).isEmpty()).isTrue();
        DataFile file = append(table, 0, "p0");
        table.newRowDelta()
                .addDeletes(MaintenanceTables.writePositionDeletes(table, file, 1))
                .commit();
        assertThat(plan(table).isEmpty()).isTrue();
        assertThat(plan(table).units()).isEmpty();
    }

    private static PlannedConversion plan(Table table) {
        return plan(table, Expressions.alwaysTrue());
    }

    private static PlannedConversion plan(Table table, Expression filter) {
        table.refresh();
        return new EqualityDeletePlanner(table, filter, true, Long.MAX_VALUE, Long.MAX_VALUE)
                .plan();
    }

    private DataFile append(Table table, long firstId, String part) {
        DataFile file =
                MaintenanceTables.writeDataFile(
                        table, MaintenanceTables.records(firstId, 10, part, random));
        table.newAppend().appendFile(file).commit();
        return file;
    }

    private static DeleteFile commitDeletes(Table table, DeleteFile deletes) {
        table.newRowDelta().addDeletes(deletes).commit();
        return deletes;
    }

    /** An equality delete on {@code id} of the table's current spec, which is unpartitioned. */
    static DeleteFile globalIdDeletes(Table table, long... ids) {
        Schema idSchema = table.schema().select("id");
        EqualityDeleteWriter<Record> writer =
                GenericFileWriters.equalityDeletes(
                                table, FileFormat.PARQUET, new int[] {1}, idSchema)
                        .newEqualityDeleteWriter(
                                OutputFileFactory.builderFor(table, 1, System.nanoTime())
                                        .format(FileFormat.PARQUET)
                                        .build()
                                        .newOutputFile(),
                                table.spec(),
                                null);
        return GenericFileWriters.writeKeys(writer, idSchema, "id", ids);
    }

    private static Set<String> scanned(PlannedConversion plan) {
        List<String> files = new ArrayList<>();
        plan.units()
                .forEach(
                        unit ->
                                unit.dataFiles()
                                        .forEach(task -> files.add(task.file().location())));
        assertThat(files).doesNotHaveDuplicates();
        return Set.copyOf(files);
    }

    private static List<String> locations(List<DeleteFile> files) {
        return files.stream().map(DeleteFile::location).collect(Collectors.toList());
    }
}
