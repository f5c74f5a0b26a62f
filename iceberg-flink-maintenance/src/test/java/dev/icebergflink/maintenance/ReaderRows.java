package dev.icebergflink.maintenance;

import dev.icebergflink.tasks.reader.RowDataFileTaskReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Reads a {@link MaintenanceTables} table with this connector's own reader (core's {@link
 * RowDataFileTaskReader} over Iceberg's scan tasks, deletes applied), as sorted {@code
 * "id:data:part"} strings, to compare with Iceberg's generic reader; and inspects scan tasks.
 */
final class ReaderRows {

    private ReaderRows() {}

    /** The table's current rows read by core's RowData reader. */
    static List<String> rows(Table table) {
        table.refresh();
        RowDataFileTaskReader reader =
                new RowDataFileTaskReader(
                        table.schema(), table.schema(), null, true, table.io(), table.encryption());
        List<String> rows = new ArrayList<>();
        for (FileScanTask task : tasks(table)) {
            try (CloseableIterable<RowData> read = reader.open(task)) {
                for (RowData row : read) {
                    rows.add(
                            row.getLong(0)
                                    + ":"
                                    + (row.isNullAt(1) ? null : row.getString(1).toString())
                                    + ":"
                                    + row.getString(2));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        rows.sort(null);
        return rows;
    }

    /** The current snapshot's scan tasks (whole files with the deletes that apply to them). */
    static List<FileScanTask> tasks(Table table) {
        table.refresh();
        List<FileScanTask> tasks = new ArrayList<>();
        if (table.currentSnapshot() == null) {
            return tasks;
        }
        try (CloseableIterable<FileScanTask> planned = table.newScan().planFiles()) {
            planned.forEach(tasks::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return tasks;
    }

    /** How many live equality delete files apply to some data file. */
    static long appliedEqualityDeletes(Table table) {
        return tasks(table).stream()
                .flatMap(task -> task.deletes().stream())
                .filter(delete -> delete.content() == FileContent.EQUALITY_DELETES)
                .map(DeleteFile::location)
                .distinct()
                .count();
    }

    /** How many equality delete files the current snapshot holds, applying or not. */
    static long liveEqualityDeletes(Table table) {
        table.refresh();
        if (table.currentSnapshot() == null) {
            return 0L;
        }
        long count = 0;
        for (ManifestFile manifest : table.currentSnapshot().deleteManifests(table.io())) {
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
