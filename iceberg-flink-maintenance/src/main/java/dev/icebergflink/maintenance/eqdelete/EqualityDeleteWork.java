package dev.icebergflink.maintenance.eqdelete;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.task.TaskTables;
import dev.icebergflink.maintenance.task.TaskWorker;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.Table;

/**
 * The parallel step of the equality-delete conversion: converts one unit with a {@link
 * UnitConverter} over the table as it is now (so that specs and schemas added since the worker
 * started are known).
 */
@Internal
public final class EqualityDeleteWork implements TaskWorker {

    private static final long serialVersionUID = 1L;

    private final TableLoader loader;

    private transient Table table;
    private transient int subtask;
    private transient int attempt;

    /**
     * @param loader the table
     */
    public EqualityDeleteWork(TableLoader loader) {
        this.loader = loader;
    }

    @Override
    public void open(int subtask, int attempt) {
        this.subtask = subtask;
        this.attempt = attempt;
        loader.open();
    }

    @Override
    public byte[] process(byte[] item) throws Exception {
        table = TaskTables.current(loader, table);
        return new UnitConverter(table, subtask, attempt).convert(item);
    }

    @Override
    public void close() throws Exception {
        loader.close();
    }
}
