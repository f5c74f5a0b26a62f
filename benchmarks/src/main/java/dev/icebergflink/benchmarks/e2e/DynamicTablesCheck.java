package dev.icebergflink.benchmarks.e2e;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.BitSet;
import java.util.List;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Checks the whole content of the tables a {@code dynamic-*} workload wrote: every table holds
 * exactly the rows whose id {@link DynamicRouting} sends to it (its record count is the routing's
 * count, every row it holds routes to it, no id is in two tables or twice in one, and together they
 * hold every id of {@code [0, rows)}), each row with the generated values, committed as one append
 * snapshot per table (a bounded job commits once, at the end of its input).
 *
 * <p>It reads the data files directly with Iceberg's generic readers, like {@link
 * UpsertContentCheck}, so that the check uses nothing of the connector it checks; it keeps one bit
 * set of the ids in memory.
 */
final class DynamicTablesCheck {

    private final BenchmarkRows data;
    private final long rows;

    /**
     * @param data the generated rows
     * @param rows how many rows were written (ids {@code [0, rows)})
     */
    DynamicTablesCheck(BenchmarkRows data, long rows) {
        this.data = data;
        this.rows = rows;
    }

    /**
     * @param tables the written tables, by the index the routing gives them
     * @throws WrongAnswerException naming the first wrong table, count or row
     */
    void check(List<Table> tables) {
        long[] expected = DynamicRouting.expectedCounts(rows, tables.size());
        BitSet seen = new BitSet();
        for (int index = 0; index < tables.size(); index++) {
            Table table = tables.get(index);
            checkSnapshots(table, expected[index]);
            long count = BenchmarkTables.recordCount(table);
            if (count != expected[index]) {
                throw new WrongAnswerException(
                        String.format(
                                "%s: the routing sends %d of the %d rows to it, it holds %d",
                                table.name(), expected[index], rows, count));
            }
            readRows(table, index, tables.size(), seen);
        }
        if (seen.cardinality() != rows) {
            throw new WrongAnswerException(
                    "dynamic tables: " + seen.cardinality() + " distinct ids of " + rows);
        }
    }

    private static void checkSnapshots(Table table, long expectedRows) {
        Snapshot current = table.currentSnapshot();
        if (expectedRows == 0) {
            if (current != null) {
                throw new WrongAnswerException(
                        table.name() + ": no row routes to it, yet it has a snapshot");
            }
            return;
        }
        if (current == null
                || current.parentId() != null
                || !DataOperations.APPEND.equals(current.operation())) {
            throw new WrongAnswerException(
                    table.name()
                            + ": expected one append snapshot, found "
                            + (current == null
                                    ? "none"
                                    : current.operation()
                                            + " snapshot "
                                            + current.snapshotId()
                                            + " with parent "
                                            + current.parentId()));
        }
    }

    private void readRows(Table table, int index, int tables, BitSet seen) {
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                if (!task.deletes().isEmpty()) {
                    throw new WrongAnswerException(
                            table.name() + ": an append wrote delete files for " + task.file());
                }
                try (CloseableIterable<Record> records =
                        FormatModelRegistry.<Record, Object>readBuilder(
                                        task.file().format(),
                                        Record.class,
                                        table.io().newInputFile(task.file().location()))
                                .project(table.schema())
                                .build()) {
                    for (Record record : records) {
                        checkRow(table, index, tables, seen, record);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void checkRow(Table table, int index, int tables, BitSet seen, Record record) {
        long id = (Long) record.getField("id");
        if (id < 0 || id >= rows || seen.get((int) id)) {
            throw new WrongAnswerException(
                    table.name() + ": unexpected or duplicate id " + id + " of " + rows);
        }
        int routed = DynamicRouting.tableOf(id, tables);
        if (routed != index) {
            throw new WrongAnswerException(
                    String.format(
                            "%s: holds id %d, which routes to table %d", table.name(), id, routed));
        }
        seen.set((int) id);
        Record expected = data.record(id);
        if (!expected.equals(record)) {
            throw new WrongAnswerException(
                    String.format(
                            "%s: row %d should be %s, found %s",
                            table.name(), id, expected, record));
        }
    }
}
