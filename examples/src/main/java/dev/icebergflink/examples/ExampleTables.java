package dev.icebergflink.examples;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import dev.icebergflink.source.IcebergSource;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Catalog chores the examples share: creating their table (and its database) when it is missing,
 * and the facts and numbers they print about a table.
 */
public final class ExampleTables {

    private ExampleTables() {}

    /**
     * Creates {@code identifier} with the schema, partition spec and table properties when it does
     * not exist yet (its namespace too, when the catalog has namespaces), and returns whether it
     * created the table. An existing table is left as it is.
     */
    public static boolean createIfMissing(
            CatalogLoader catalogLoader,
            TableIdentifier identifier,
            Schema schema,
            PartitionSpec spec,
            Map<String, String> properties) {
        Catalog catalog = catalogLoader.loadCatalog();
        try {
            createNamespaceIfMissing(catalog, identifier.namespace());
            if (catalog.tableExists(identifier)) {
                return false;
            }
            catalog.createTable(identifier, schema, spec, properties);
            return true;
        } finally {
            closeQuietly(catalog);
        }
    }

    /**
     * Creates the namespace (database) when the catalog has namespaces and lacks it, for examples
     * whose tables are created by the sink; returns whether it created it.
     */
    public static boolean createNamespaceIfMissing(
            CatalogLoader catalogLoader, Namespace namespace) {
        Catalog catalog = catalogLoader.loadCatalog();
        try {
            return createNamespaceIfMissing(catalog, namespace);
        } finally {
            closeQuietly(catalog);
        }
    }

    /** Whether the catalog has the table. */
    public static boolean exists(CatalogLoader catalogLoader, TableIdentifier identifier) {
        Catalog catalog = catalogLoader.loadCatalog();
        try {
            return catalog.tableExists(identifier);
        } finally {
            closeQuietly(catalog);
        }
    }

    /**
     * Creates the table of {@link GeneratedEvents} (its schema, partitioned by category, format v2)
     * when it is missing, as {@link #createIfMissing} does, and returns whether it created it.
     */
    public static boolean createEventsTableIfMissing(
            CatalogLoader catalogLoader, TableIdentifier identifier) {
        return createIfMissing(
                catalogLoader,
                identifier,
                GeneratedEvents.SCHEMA,
                GeneratedEvents.SPEC,
                Map.of("format-version", "2"));
    }

    /** The rows in the table's current snapshot (0 for a table without snapshots). */
    public static long rowCount(Table table) {
        return summaryLong(table.currentSnapshot(), "total-records");
    }

    /** The data files in the table's current snapshot (0 for a table without snapshots). */
    public static long dataFileCount(Table table) {
        return summaryLong(table.currentSnapshot(), "total-data-files");
    }

    /** The number of snapshots the table's metadata keeps. */
    public static int snapshotCount(Table table) {
        int count = 0;
        for (Snapshot ignored : table.snapshots()) {
            count++;
        }
        return count;
    }

    private static long summaryLong(Snapshot snapshot, String key) {
        return snapshot == null ? 0 : Long.parseLong(snapshot.summary().getOrDefault(key, "0"));
    }

    private static boolean createNamespaceIfMissing(Catalog catalog, Namespace namespace) {
        if (catalog instanceof SupportsNamespaces namespaces
                && !namespaces.namespaceExists(namespace)) {
            namespaces.createNamespace(namespace);
            return true;
        }
        return false;
    }

    private static void closeQuietly(Catalog catalog) {
        if (catalog instanceof Closeable closeable) {
            try {
                closeable.close();
            } catch (IOException e) {
                throw new UncheckedIOException("Could not close catalog " + catalog.name(), e);
            }
        }
    }

    /**
     * The table's current rows sorted by their first column (a BIGINT id), read with a bounded
     * {@code IcebergSource} (which applies the deletes), for examples that print what they wrote.
     */
    static List<RowData> readSortedById(
            String example, ExampleArguments arguments, TableLoader tableLoader) throws Exception {
        StreamExecutionEnvironment env = arguments.environment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        IcebergSource<RowData> source =
                IcebergSource.forRowData().tableLoader(tableLoader.clone()).build();
        List<RowData> rows = new ArrayList<>();
        try (CloseableIterator<RowData> it =
                env.fromSource(
                                source,
                                WatermarkStrategy.noWatermarks(),
                                "iceberg source",
                                source.getProducedType())
                        .executeAndCollect(example + ": read back")) {
            it.forEachRemaining(rows::add);
        }
        rows.sort(Comparator.comparingLong(row -> row.getLong(0)));
        return rows;
    }
}
