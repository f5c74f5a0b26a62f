package dev.icebergflink.benchmarks.e2e;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.BitSet;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/**
 * The answer check of the {@code eqdelete-*} workloads: the rows Iceberg's own generic reader sees
 * in an {@link UpsertedTable} (deletes applied, whatever their kind) must be exactly the expected
 * ones, before and after the equality deletes are converted, and after the conversion no equality
 * delete file may be left in the table.
 *
 * <p>Checking against the rows the table must hold, rather than comparing two reads, checks "the
 * rows did not change" and "the table was built right" at once, in memory of one bit per id.
 */
final class UpsertedTableCheck {

    private final BenchmarkRows data;
    private final long rows;

    /**
     * @param data the rows of the initial load (the upserts' values derive from its seed)
     * @param rows the live rows of the table, ids {@code [0, rows)}
     */
    UpsertedTableCheck(BenchmarkRows data, long rows) {
        this.data = data;
        this.rows = rows;
    }

    /**
     * Reads the table's current snapshot with the generic reader and checks that every id of {@code
     * [0, rows)} is live exactly once with the values of the last commit that wrote it, and that no
     * other row is.
     *
     * @param when names the moment of the check in the failure message ("before the conversion")
     * @throws WrongAnswerException naming the first wrong row or the count
     */
    void checkRows(Table table, String when) {
        table.refresh();
        BenchmarkRows[] values = new BenchmarkRows[UpsertedTable.UPSERT_COMMITS + 1];
        for (int commit = 0; commit < values.length; commit++) {
            values[commit] = UpsertedTable.values(data, commit);
        }
        BitSet seen = new BitSet();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            for (Record record : records) {
                long id = (Long) record.getField("id");
                if (id < 0 || id >= rows || seen.get((int) id)) {
                    throw new WrongAnswerException(
                            String.format(
                                    "%s %s: unexpected or duplicate live id %d",
                                    table.name(), when, id));
                }
                seen.set((int) id);
                int commit = UpsertedTable.lastCommit(id);
                Record expected = values[commit].record(id);
                if (!sameColumns(expected, record)) {
                    throw new WrongAnswerException(
                            String.format(
                                    "%s %s: row %d should hold the values of commit %d %s,"
                                            + " found %s",
                                    table.name(), when, id, commit, expected, record));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (seen.cardinality() != rows) {
            throw new WrongAnswerException(
                    String.format(
                            "%s %s: expected %d live rows, found %d",
                            table.name(), when, rows, seen.cardinality()));
        }
    }

    /**
     * Whether the record holds the expected values in the table's columns; the generic reader
     * appends the {@code _pos} column it needed for position deletes, which is not compared.
     */
    private static boolean sameColumns(Record expected, Record read) {
        if (read.size() < expected.size()) {
            return false;
        }
        for (int i = 0; i < expected.size(); i++) {
            if (!java.util.Objects.equals(expected.get(i), read.get(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * @throws WrongAnswerException when the current snapshot still holds an equality delete file
     */
    static void checkNoLiveEqualityDeletes(Table table) {
        long live = liveEqualityDeletes(table);
        if (live != 0) {
            throw new WrongAnswerException(
                    table.name()
                            + ": "
                            + live
                            + " equality delete files are still live after the conversion");
        }
    }

    /**
     * How many equality delete files the current snapshot's delete manifests hold, whether or not
     * they still apply to a data file.
     */
    static long liveEqualityDeletes(Table table) {
        table.refresh();
        Snapshot snapshot = table.currentSnapshot();
        if (snapshot == null) {
            return 0;
        }
        long count = 0;
        for (ManifestFile manifest : snapshot.deleteManifests(table.io())) {
            try (ManifestReader<DeleteFile> reader =
                    ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
                for (DeleteFile file : reader) {
                    if (file.content() == FileContent.EQUALITY_DELETES) {
                        count++;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return count;
    }
}
