package dev.icebergflink.table.staging;

import dev.icebergflink.TableLoader;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.Table;

/**
 * A {@link TableLoader} that hands out the staged metadata of an atomic {@code CREATE TABLE ... AS
 * SELECT} ({@link StagedTableCopy}) instead of loading a table from the catalog.
 *
 * <p>It exists so that the sink, which reaches its table through a loader in every operator, writes
 * for a table that no catalog holds while the job runs, unchanged.
 */
@Internal
final class StagedTableLoader implements TableLoader {

    private static final long serialVersionUID = 1L;

    private final Table table;
    private boolean open;

    StagedTableLoader(Table table) {
        this.table = table;
    }

    @Override
    public void open() {
        open = true;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public Table loadTable() {
        open = true;
        return table;
    }

    @Override
    @SuppressWarnings("MethodDoesntCallSuperMethod")
    public TableLoader clone() {
        return new StagedTableLoader(table);
    }

    @Override
    public void close() {
        open = false;
    }

    @Override
    public String toString() {
        return "StagedTableLoader{" + table.name() + " at " + table.location() + "}";
    }
}
