package dev.icebergflink.table.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.types.Row;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Reads what SQL writes put into Iceberg tables, without Flink: Iceberg's generic reader (which
 * applies delete files) and snapshot inspection, so that sink tests check the table itself and not
 * only what the SQL source shows.
 */
public final class SinkTestSupport {

    private SinkTestSupport() {}

    /** Every live row of the table's current snapshot (or of {@code branch}), as Flink rows. */
    public static List<Row> icebergRows(Table table) {
        return icebergRows(table, null);
    }

    /** Every live row of the head of {@code branch} (main when null), as Flink rows. */
    public static List<Row> icebergRows(Table table, String branch) {
        table.refresh();
        List<Row> rows = new ArrayList<>();
        IcebergGenerics.ScanBuilder scan = IcebergGenerics.read(table);
        if (branch != null) {
            scan = scan.useSnapshot(table.refs().get(branch).snapshotId());
        }
        // Iceberg's generic reader appends the _pos column to rows of files with position deletes
        int columns = table.schema().columns().size();
        try (CloseableIterable<Record> records = scan.build()) {
            for (Record record : records) {
                Object[] values = new Object[columns];
                for (int i = 0; i < values.length; i++) {
                    values[i] = record.get(i);
                }
                rows.add(Row.of(values));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }

    /** The number of snapshots of the table (all branches). */
    public static int snapshotCount(Table table) {
        table.refresh();
        int count = 0;
        for (Snapshot ignored : table.snapshots()) {
            count++;
        }
        return count;
    }

    /** The id of the current main snapshot, or null. */
    public static Long currentSnapshotId(Table table) {
        table.refresh();
        return table.currentSnapshot() == null ? null : table.currentSnapshot().snapshotId();
    }

    /** The data files of the table's current snapshot (or of the head of {@code branch}). */
    public static List<DataFile> dataFiles(Table table, String branch) {
        table.refresh();
        List<DataFile> files = new ArrayList<>();
        org.apache.iceberg.TableScan scan = table.newScan();
        if (branch != null) {
            scan = scan.useRef(branch);
        }
        try (CloseableIterable<org.apache.iceberg.FileScanTask> tasks = scan.planFiles()) {
            tasks.forEach(task -> files.add(task.file()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }
}
