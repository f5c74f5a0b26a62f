package dev.icebergflink.benchmarks.e2e;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.BitSet;
import java.util.Objects;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * Checks the live content of a table after a streaming upsert, which spreads the rewritten keys
 * over many commits (one per checkpoint) and so cannot be checked commit by commit as {@link
 * UpsertContentCheck} checks the batch upsert's single commit: Iceberg's generic reader, with the
 * deletes applied, must return every id of {@code [0, rows)} exactly once, every fourth id ({@code
 * id / 4 < updated}) with its new values and every other id with its old ones. The generic reader
 * holds a data file's equality-deleted keys in memory while it reads the file; the check runs
 * outside the measured part.
 */
final class StreamUpsertCheck {

    private final BenchmarkRows original;
    private final BenchmarkRows updates;
    private final long rows;
    private final long updated;

    /**
     * @param original the rows written before the upsert (ids {@code [0, rows)})
     * @param updates the new values of the rewritten ids
     * @param rows the rows of the table
     * @param updated how many ids were rewritten
     */
    StreamUpsertCheck(BenchmarkRows original, BenchmarkRows updates, long rows, long updated) {
        this.original = original;
        this.updates = updates;
        this.rows = rows;
        this.updated = updated;
    }

    /**
     * @param what names the check in its message (for example "after the rewrite")
     * @throws WrongAnswerException naming the first wrong, missing or duplicate row
     */
    void check(Table table, String what) {
        BitSet seen = new BitSet();
        try (CloseableIterable<Record> live = IcebergGenerics.read(table).build()) {
            for (Record record : live) {
                long id = (Long) record.getField("id");
                if (id < 0 || id >= rows || seen.get((int) id)) {
                    throw new WrongAnswerException(
                            String.format(
                                    "stream upsert (%s): unexpected or duplicate live id %d in %s",
                                    what, id, table.name()));
                }
                seen.set((int) id);
                boolean rewritten = id % 4 == 0 && id / 4 < updated;
                Record expected = rewritten ? updates.record(id) : original.record(id);
                if (!sameColumns(expected, record)) {
                    throw new WrongAnswerException(
                            String.format(
                                    "stream upsert (%s): row %d of %s should hold its %s values %s,"
                                            + " found %s",
                                    what,
                                    id,
                                    table.name(),
                                    rewritten ? "new" : "old",
                                    expected,
                                    record));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (seen.cardinality() != (int) rows) {
            throw new WrongAnswerException(
                    String.format(
                            "stream upsert (%s): %d live rows in %s, expected %d (first missing id"
                                    + " %d)",
                            what, seen.cardinality(), table.name(), rows, seen.nextClearBit(0)));
        }
    }

    /**
     * Whether the record holds the expected values in every column of the benchmark schema; the
     * generic reader adds the row position to a table with position deletes, which is ignored.
     */
    private static boolean sameColumns(Record expected, Record actual) {
        for (Types.NestedField column : BenchmarkRows.SCHEMA.columns()) {
            if (!Objects.equals(expected.getField(column.name()), actual.getField(column.name()))) {
                return false;
            }
        }
        return true;
    }
}
