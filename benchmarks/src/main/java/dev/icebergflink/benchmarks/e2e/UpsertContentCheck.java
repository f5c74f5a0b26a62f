package dev.icebergflink.benchmarks.e2e;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Checks the whole content of the upsert workload's table after the upsert, in memory that does not
 * grow with the rows beyond two bit sets of the ids: the upsert's commit must hold, for every
 * rewritten id (every fourth id, {@code id / 4 < updated}), one new row with the new values and one
 * equality delete on {@code id}, and nothing else; every older row must hold its old values.
 *
 * <p>It reads the files directly instead of through a reader that applies the deletes, because such
 * a reader keeps every equality-deleted key in memory (2.5 million keys at 10 million rows), which
 * would make the check, not the connector, decide how much memory the run needs.
 */
final class UpsertContentCheck {

    private final Table table;
    private final BenchmarkRows original;
    private final BenchmarkRows updates;
    private final long rows;
    private final long updated;

    /**
     * @param table the upserted table, refreshed
     * @param original the rows written before the upsert (ids {@code [0, rows)})
     * @param updates the new values of the rewritten ids
     * @param rows the rows of the table
     * @param updated how many ids were rewritten
     */
    UpsertContentCheck(
            Table table, BenchmarkRows original, BenchmarkRows updates, long rows, long updated) {
        this.table = table;
        this.original = original;
        this.updates = updates;
        this.rows = rows;
        this.updated = updated;
    }

    /**
     * @throws WrongAnswerException naming the first wrong row, file or count
     */
    void check() {
        Snapshot upsert = table.currentSnapshot();
        if (upsert == null || upsert.parentId() == null) {
            throw new WrongAnswerException(
                    "upsert: " + table.name() + " has no snapshot on top of the written rows");
        }
        long sequence = upsert.sequenceNumber();
        BitSet inserted = new BitSet();
        BitSet deleted = new BitSet();
        BitSet old = new BitSet();
        Set<String> deleteFiles = new HashSet<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                boolean isNew = task.file().dataSequenceNumber() == sequence;
                readDataFile(task, isNew ? inserted : old, isNew);
                for (DeleteFile delete : task.deletes()) {
                    if (deleteFiles.add(delete.location())) {
                        readEqualityDeletes(delete, sequence, deleted);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        expect("ids inserted by the upsert", updated, inserted.cardinality());
        if (!deleted.equals(inserted)) {
            throw new WrongAnswerException(
                    "upsert: the equality-deleted ids of "
                            + table.name()
                            + " are not the rewritten ids ("
                            + deleted.cardinality()
                            + " deleted, "
                            + inserted.cardinality()
                            + " rewritten)");
        }
        expect("ids written before the upsert", rows, old.cardinality());
    }

    private void readDataFile(FileScanTask task, BitSet ids, boolean isNew) throws IOException {
        try (CloseableIterable<Record> records = read(task.file(), table.schema())) {
            for (Record record : records) {
                checkDataRow(task, record, ids, isNew);
            }
        }
    }

    private void checkDataRow(FileScanTask task, Record record, BitSet ids, boolean isNew) {
        long id = (Long) record.getField("id");
        boolean rewritten = id % 4 == 0 && id / 4 < updated;
        if (id < 0 || id >= rows || ids.get((int) id) || (isNew && !rewritten)) {
            throw new WrongAnswerException(
                    "upsert: unexpected or duplicate id "
                            + id
                            + " in "
                            + (isNew ? "new" : "old")
                            + " file "
                            + task.file().location());
        }
        ids.set((int) id);
        Record expected = isNew ? updates.record(id) : original.record(id);
        if (!expected.equals(record)) {
            throw new WrongAnswerException(
                    String.format(
                            "upsert: row %d of %s should hold its %s values %s, found %s",
                            id, table.name(), isNew ? "new" : "old", expected, record));
        }
    }

    private void readEqualityDeletes(DeleteFile delete, long sequence, BitSet deleted)
            throws IOException {
        int idField = table.schema().findField("id").fieldId();
        if (delete.content() != FileContent.EQUALITY_DELETES
                || !List.of(idField).equals(delete.equalityFieldIds())
                || delete.dataSequenceNumber() != sequence) {
            throw new WrongAnswerException(
                    "upsert: expected only equality deletes on id from the upsert's commit, found "
                            + delete.content()
                            + " on field ids "
                            + delete.equalityFieldIds()
                            + " with sequence number "
                            + delete.dataSequenceNumber()
                            + ": "
                            + delete.location());
        }
        try (CloseableIterable<Record> records = read(delete, table.schema().select("id"))) {
            for (Record record : records) {
                long id = (Long) record.getField("id");
                if (id < 0 || id >= rows || deleted.get((int) id)) {
                    throw new WrongAnswerException(
                            "upsert: unexpected or duplicate deleted id "
                                    + id
                                    + " in "
                                    + delete.location());
                }
                deleted.set((int) id);
            }
        }
    }

    private CloseableIterable<Record> read(ContentFile<?> file, Schema schema) {
        return FormatModelRegistry.<Record, Object>readBuilder(
                        file.format(), Record.class, table.io().newInputFile(file.location()))
                .project(schema)
                .build();
    }

    private void expect(String what, long expected, long actual) {
        if (expected != actual) {
            throw new WrongAnswerException(
                    "upsert ("
                            + what
                            + " in "
                            + table.name()
                            + "): expected "
                            + expected
                            + ", found "
                            + actual);
        }
    }
}
