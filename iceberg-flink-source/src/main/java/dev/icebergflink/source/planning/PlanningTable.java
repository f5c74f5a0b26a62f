package dev.icebergflink.source.planning;

import dev.icebergflink.TableLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.Table;

/**
 * Loads the table a read is planned for: once for building the source, once for each enumerator.
 *
 * <p>It exists so that every place that loads a table to plan (the builder resolving options, the
 * enumerator planning splits, the SQL source choosing its parallelism) does it the same way: with a
 * clone of the loader, which the caller's loader stays independent of, and a loader that is closed
 * again on every path. Whoever holds a loaded table plans with it and does not load it again.
 */
@Internal
public final class PlanningTable implements AutoCloseable {

    private final TableLoader loader;
    private final Table table;

    private PlanningTable(TableLoader loader, Table table) {
        this.loader = loader;
        this.table = table;
    }

    /**
     * Loads the table once and releases the loader at once: for planning on the client, which reads
     * only metadata.
     */
    public static Table load(TableLoader loader) {
        PlanningTable opened = open(loader);
        try {
            opened.loader.close();
        } catch (IOException e) {
            // The table is loaded and only its metadata was read: nothing is lost.
        }
        return opened.table;
    }

    /**
     * Loads the table with a clone of {@code loader} that stays open, for an enumerator that
     * refreshes and reloads the table for its whole life; {@link #close()} releases it. When the
     * load fails the clone is closed before the failure propagates.
     */
    public static PlanningTable open(TableLoader loader) {
        TableLoader clone = loader.clone();
        try {
            return new PlanningTable(clone, clone.loadTable());
        } catch (RuntimeException | Error e) {
            try {
                clone.close();
            } catch (IOException | RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /** The table as loaded. */
    public Table table() {
        return table;
    }

    /** The open loader, to load the table anew (nothing cached) while planning. */
    public TableLoader loader() {
        return loader;
    }

    @Override
    public void close() {
        try {
            loader.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot close the loader of " + table, e);
        }
    }
}
