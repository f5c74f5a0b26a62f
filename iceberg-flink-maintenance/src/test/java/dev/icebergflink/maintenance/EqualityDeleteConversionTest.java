package dev.icebergflink.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.eqdelete.ConversionUnit;
import dev.icebergflink.maintenance.eqdelete.ConvertedDeletes;
import dev.icebergflink.maintenance.eqdelete.EqualityDeleteCommit;
import dev.icebergflink.maintenance.eqdelete.EqualityDeleteCommitter;
import dev.icebergflink.maintenance.eqdelete.EqualityDeletePlanner;
import dev.icebergflink.maintenance.eqdelete.EqualityDeletePlanning;
import dev.icebergflink.maintenance.eqdelete.EqualityDeleteWork;
import dev.icebergflink.maintenance.eqdelete.PlannedConversion;
import dev.icebergflink.maintenance.eqdelete.UnitConverter;
import dev.icebergflink.maintenance.task.TaskFinisher;
import dev.icebergflink.maintenance.task.TaskPlanner;
import dev.icebergflink.testing.GenericFileWriters;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.util.ContentFileUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The equality-delete conversion's steps (planning, workers, commit) run directly on real tables,
 * without Flink: the rows read stay the same while equality deletes turn into position deletes (v2)
 * or deletion vectors (v3), and a conflicting concurrent commit gives the run up.
 */
class EqualityDeleteConversionTest {

    @TempDir Path dir;

    private final Random random = new Random(11);

    @ParameterizedTest(name = "format v{0}")
    @ValueSource(ints = {2, 3})
    void rowsStayTheSameAndNoEqualityDeleteIsLeft(int formatVersion) throws Exception {
        Table table = MaintenanceTables.create(dir, "t", formatVersion, FileFormat.PARQUET);
        DataFile a = append(table, 0, "p0");
        append(table, 10, "p0");
        append(table, 100, "p1");
        DeleteFile positional =
                formatVersion >= 3
                        ? MaintenanceTables.writeDeletionVector(table, a, 4)
                        : MaintenanceTables.writePositionDeletes(table, a, 4);
        table.newRowDelta().addDeletes(positional).commit();
        // id 4 is already deleted by position; ids 1 and 12 are deleted by equality only
        commitDeletes(table, MaintenanceTables.writeIdDeletes(table, "p0", 1, 4, 12));
        // id 1 written again after its delete (an upsert): the new row must survive
        DataFile rewritten = append(table, 1, 1, "p0");
        commitDeletes(table, MaintenanceTables.writeIdDeletes(table, "p1", 101));
        commitDeletes(table, MaintenanceTables.writeIdDeletes(table, "p0", 13));
        List<String> before = MaintenanceTables.rows(table);
        assertThat(before).hasSize(31 - 5);

        TaskFinisher.Outcome outcome = runOnce(table);

        assertThat(MaintenanceTables.rows(table)).isEqualTo(before);
        assertThat(ReaderRows.rows(table)).isEqualTo(before);
        assertThat(ReaderRows.liveEqualityDeletes(table)).isZero();
        assertThat(table.currentSnapshot().operation()).isEqualTo(DataOperations.REPLACE);
        assertThat(outcome.filesRemoved()).isGreaterThanOrEqualTo(3);
        for (FileScanTask task : ReaderRows.tasks(table)) {
            if (task.file().location().equals(rewritten.location())) {
                assertThat(task.deletes()).isEmpty();
            }
            if (formatVersion >= 3) {
                assertThat(task.deletes()).hasSizeLessThanOrEqualTo(1);
                assertThat(task.deletes())
                        .allSatisfy(d -> assertThat(ContentFileUtil.isDV(d)).isTrue());
            }
        }
        if (formatVersion >= 3) {
            // the old vector of file a was merged into its new one and removed
            assertThat(deletesOf(table, a))
                    .singleElement()
                    .satisfies(
                            dv -> {
                                assertThat(dv.location()).isNotEqualTo(positional.location());
                                assertThat(dv.recordCount()).isEqualTo(2L);
                            });
        }
        // nothing left to do
        assertThat(runOnce(table).filesAdded()).isZero();
        assertThat(MaintenanceTables.rows(table)).isEqualTo(before);
    }

    @Test
    void deletesOnANullableColumnMatchNullsAndMixWithIdDeletes() throws Exception {
        Table table = MaintenanceTables.create(dir, "t", 3, FileFormat.PARQUET);
        List<Record> records = MaintenanceTables.records(0, 12, "p0", random);
        for (int i = 0; i < records.size(); i++) {
            records.get(i).setField("data", i % 4 == 0 ? null : "d" + (i % 3));
        }
        table.newAppend().appendFile(MaintenanceTables.writeDataFile(table, records)).commit();
        // by data: null (ids 0, 4, 8) and "d1" (ids 1, 7, 10); by id: 2
        commitDeletes(table, dataDeletes(table, "p0", null, "d1"));
        commitDeletes(table, MaintenanceTables.writeIdDeletes(table, "p0", 2));
        List<String> before = MaintenanceTables.rows(table);
        assertThat(before).hasSize(12 - 7);

        runOnce(table);

        assertThat(MaintenanceTables.rows(table)).isEqualTo(before);
        assertThat(ReaderRows.rows(table)).isEqualTo(before);
        assertThat(ReaderRows.liveEqualityDeletes(table)).isZero();
    }

    /** An equality delete on the nullable {@code data} column of partition {@code part}. */
    private static DeleteFile dataDeletes(Table table, String part, String... values) {
        Schema dataSchema = table.schema().select("data");
        PartitionKey partition = new PartitionKey(table.spec(), table.schema());
        partition.set(0, part);
        EqualityDeleteWriter<Record> writer =
                GenericFileWriters.equalityDeletes(
                                table, FileFormat.PARQUET, new int[] {2}, dataSchema)
                        .newEqualityDeleteWriter(
                                OutputFileFactory.builderFor(table, 1, System.nanoTime())
                                        .format(FileFormat.PARQUET)
                                        .build()
                                        .newOutputFile(table.spec(), partition),
                                table.spec(),
                                partition);
        try (writer) {
            for (String value : values) {
                Record key = GenericRecord.create(dataSchema);
                key.setField("data", value);
                writer.write(key);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return writer.toDeleteFile();
    }

    @Test
    void newDeletesTakeTheSequenceNumberOfTheEqualityDeletes() throws Exception {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        DataFile a = append(table, 0, "p0");
        commitDeletes(table, MaintenanceTables.writeIdDeletes(table, "p0", 1));
        append(table, 50, "p1");

        runOnce(table);

        DeleteFile converted = deletesOf(table, a).get(0);
        assertThat(converted.content()).isEqualTo(FileContent.POSITION_DELETES);
        // the equality delete was the second commit; the conversion commits at a later number
        assertThat(converted.dataSequenceNumber()).isEqualTo(2L);
        assertThat(ContentFileUtil.referencedDataFileLocation(converted)).isEqualTo(a.location());
        assertThat(table.currentSnapshot().sequenceNumber()).isGreaterThan(3L);
    }

    @Test
    void aCompactionCommittedMeanwhileWithAnOlderSequenceNumberGivesTheRunUp() throws Exception {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        List<Record> records = MaintenanceTables.records(0, 10, "p0", random);
        DataFile a = MaintenanceTables.writeDataFile(table, records);
        table.newAppend().appendFile(a).commit();
        long beforeDelete = table.currentSnapshot().sequenceNumber();
        DeleteFile delete = commitDeletes(table, MaintenanceTables.writeIdDeletes(table, "p0", 3));
        List<String> before = MaintenanceTables.rows(table);
        PlannedConversion plan = plan(table);
        ConvertedDeletes converted = convert(table, plan);
        assertThat(converted.added()).isNotEmpty();

        // a compaction that started before the delete: same rows, the delete's target's old number
        DataFile compacted = MaintenanceTables.writeDataFile(table, records);
        Runnable compaction =
                () ->
                        table.newRewrite()
                                .rewriteFiles(Set.of(a), Set.of(compacted), beforeDelete)
                                .commit();

        assertThatThrownBy(
                        () ->
                                new EqualityDeleteCommitter(table, compaction)
                                        .commit(
                                                plan.startingSnapshot(),
                                                plan.removedEqualityDeletes(),
                                                converted))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining(compacted.location());

        table.refresh();
        assertThat(MaintenanceTables.rows(table)).isEqualTo(before);
        assertThat(ReaderRows.liveEqualityDeletes(table)).isEqualTo(1L);
        assertThat(deletesOf(table, compacted))
                .extracting(DeleteFile::location)
                .containsExactly(delete.location());
        for (ConvertedDeletes.AddedDelete added : converted.added()) {
            assertThat(new File(URI.create(added.file().location()))).doesNotExist();
        }
    }

    @Test
    void aConcurrentAppendOfADeletedKeyIsKept() throws Exception {
        Table table = MaintenanceTables.create(dir, "t", 3, FileFormat.PARQUET);
        append(table, 0, "p0");
        commitDeletes(table, MaintenanceTables.writeIdDeletes(table, "p0", 3, 5));
        PlannedConversion plan = plan(table);
        ConvertedDeletes converted = convert(table, plan);
        List<Record> again = MaintenanceTables.records(3, 1, "p0", random);
        DataFile againFile = MaintenanceTables.writeDataFile(table, again);
        Runnable append = () -> table.newAppend().appendFile(againFile).commit();
        List<String> expected = new ArrayList<>(MaintenanceTables.rows(table));
        expected.add(MaintenanceTables.asString(again.get(0)));
        expected.sort(null);

        new EqualityDeleteCommitter(table, append)
                .commit(plan.startingSnapshot(), plan.removedEqualityDeletes(), converted);

        assertThat(MaintenanceTables.rows(table)).isEqualTo(expected);
        assertThat(ReaderRows.rows(table)).isEqualTo(expected);
        assertThat(ReaderRows.liveEqualityDeletes(table)).isZero();
    }

    @Test
    void aRunGivenUpDeletesTheFilesItsUnitsWrote() throws Exception {
        Table table = MaintenanceTables.create(dir, "t", 3, FileFormat.PARQUET);
        append(table, 0, "p0");
        append(table, 100, "p1");
        commitDeletes(table, MaintenanceTables.writeIdDeletes(table, "p0", 1));
        commitDeletes(table, MaintenanceTables.writeIdDeletes(table, "p1", 101));
        long snapshot = table.currentSnapshot().snapshotId();
        TableLoader loader = TableLoader.fromHadoopTable(table.location());
        EqualityDeletePlanning planning =
                new EqualityDeletePlanning(
                        loader.clone(), Expressions.alwaysTrue(), true, Long.MAX_VALUE);
        EqualityDeleteWork work = new EqualityDeleteWork(loader.clone());
        EqualityDeleteCommit commit = new EqualityDeleteCommit(loader.clone());
        planning.open();
        work.open(0, 0);
        commit.open();
        TaskPlanner.Plan plan = planning.plan(0L);
        assertThat(plan.items()).hasSize(2);
        byte[] result = work.process(plan.items().get(0));
        List<String> written = new ArrayList<>();
        try (var files =
                java.nio.file.Files.walk(Path.of(URI.create(table.location())).resolve("data"))) {
            files.filter(f -> f.toString().endsWith(".puffin"))
                    .forEach(f -> written.add(f.toString()));
        }
        assertThat(written).hasSize(1);

        commit.abandon(plan.header(), List.of(result));

        assertThat(new File(written.get(0))).doesNotExist();
        table.refresh();
        assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
        planning.close();
        work.close();
        commit.close();
    }

    /** Runs the task's three steps once, as the topology does, through their serialized forms. */
    private static TaskFinisher.Outcome runOnce(Table table) throws Exception {
        TableLoader loader = TableLoader.fromHadoopTable(table.location());
        EqualityDeletePlanning planning =
                new EqualityDeletePlanning(
                        loader.clone(), Expressions.alwaysTrue(), true, Long.MAX_VALUE);
        EqualityDeleteWork work = new EqualityDeleteWork(loader.clone());
        EqualityDeleteCommit commit = new EqualityDeleteCommit(loader.clone());
        planning.open();
        work.open(0, 0);
        commit.open();
        try {
            TaskPlanner.Plan plan = planning.plan(0L);
            List<byte[]> results = new ArrayList<>();
            for (byte[] item : plan.items()) {
                results.add(work.process(item));
            }
            return commit.finish(plan.header(), results);
        } finally {
            planning.close();
            work.close();
            commit.close();
            table.refresh();
        }
    }

    private static PlannedConversion plan(Table table) {
        table.refresh();
        return new EqualityDeletePlanner(
                        table, Expressions.alwaysTrue(), true, Long.MAX_VALUE, Long.MAX_VALUE)
                .plan();
    }

    private static ConvertedDeletes convert(Table table, PlannedConversion plan) throws Exception {
        List<ConvertedDeletes> results = new ArrayList<>();
        for (ConversionUnit unit : plan.units()) {
            results.add(new UnitConverter(table, 0, 0).convert(unit));
        }
        return ConvertedDeletes.combine(results);
    }

    private static List<DeleteFile> deletesOf(Table table, DataFile file) {
        for (FileScanTask task : ReaderRows.tasks(table)) {
            if (task.file().location().equals(file.location())) {
                return task.deletes();
            }
        }
        throw new AssertionError("No live data file " + file.location());
    }

    private DataFile append(Table table, long firstId, String part) {
        return append(table, firstId, 10, part);
    }

    private DataFile append(Table table, long firstId, int count, String part) {
        DataFile file =
                MaintenanceTables.writeDataFile(
                        table, MaintenanceTables.records(firstId, count, part, random));
        table.newAppend().appendFile(file).commit();
        return file;
    }

    private static DeleteFile commitDeletes(Table table, DeleteFile deletes) {
        table.newRowDelta().addDeletes(deletes).commit();
        return deletes;
    }
}
