package dev.icebergflink.testing;

import dev.icebergflink.TableLoader;
import org.apache.iceberg.Table;

/**
 * A table loader whose table must not be loaded: builders given a preloaded table ({@code
 * table(Table)}) must plan with it instead of loading the table again.
 */
public final class NotLoadingTableLoader implements TableLoader {

    @Override
    public void open() {}

    @Override
    public boolean isOpen() {
        return false;
    }

    @Override
    public Table loadTable() {
        throw new IllegalStateException("the table was loaded although table(Table) gave it");
    }

    @Override
    public TableLoader clone() {
        return this;
    }

    @Override
    public void close() {}
}
