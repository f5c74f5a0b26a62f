package dev.icebergflink.maintenance.task;

import dev.icebergflink.TableLoader;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.Table;

/** The table of a streaming maintenance step, loaded once and refreshed before each use. */
@Internal
public final class TaskTables {

    private TaskTables() {}

    /** {@code known} refreshed, or the table loaded from {@code loader} the first time. */
    public static Table current(TableLoader loader, Table known) {
        if (known == null) {
            return loader.loadTable();
        }
        known.refresh();
        return known;
    }
}
