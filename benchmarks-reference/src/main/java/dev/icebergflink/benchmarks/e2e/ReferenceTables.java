package dev.icebergflink.benchmarks.e2e;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.io.CloseableIterable;

/**
 * The suite's tables as the launcher of Iceberg's connector sees them: the same Hadoop catalog
 * {@code lake} on the same warehouse and namespace {@code db}, loaded through Iceberg's own {@link
 * CatalogLoader}. Its tables get the layout and properties the suite's own tables get (default file
 * format and format version, nothing else); the read workloads read the suite's shared source
 * tables, the very files the connector's run of the same workload read.
 */
final class ReferenceTables {

    static final String CATALOG = "lake";
    static final String NAMESPACE = "db";

    private final Path warehouse;
    private final CatalogLoader catalogLoader;
    private final Catalog catalog;

    ReferenceTables(Path warehouse) {
        this.warehouse = warehouse;
        this.catalogLoader =
                CatalogLoader.hadoop(
                        CATALOG,
                        new org.apache.hadoop.conf.Configuration(),
                        Map.of("warehouse", warehouse.toUri().toString()));
        this.catalog = catalogLoader.loadCatalog();
        SupportsNamespaces namespaces = (SupportsNamespaces) catalog;
        if (!namespaces.namespaceExists(Namespace.of(NAMESPACE))) {
            namespaces.createNamespace(Namespace.of(NAMESPACE));
        }
    }

    /** The warehouse URI, as SQL's CREATE CATALOG wants it. */
    String warehouseUri() {
        return warehouse.toUri().toString();
    }

    /** A table name for the reference run of a workload: {@code reference_<id>_r<run>}. */
    static String tableName(Workload workload, int run) {
        return "reference_" + workload.id().replace('-', '_') + "_r" + run;
    }

    /** The name of the suite's shared source table of a format (as {@code BenchmarkTables}). */
    static String sourceTableName(FileFormat format) {
        return "source_" + format.name().toLowerCase(Locale.ROOT);
    }

    /** Creates a fresh table (dropping any left from an earlier attempt), as the suite does. */
    Table create(
            String name, Schema schema, PartitionSpec spec, FileFormat format, int formatVersion) {
        TableIdentifier id = TableIdentifier.of(NAMESPACE, name);
        if (catalog.tableExists(id)) {
            catalog.dropTable(id, true);
        }
        Map<String, String> properties = new HashMap<>();
        properties.put(TableProperties.DEFAULT_FILE_FORMAT, format.name().toLowerCase(Locale.ROOT));
        properties.put(TableProperties.FORMAT_VERSION, String.valueOf(formatVersion));
        return catalog.createTable(id, schema, spec, properties);
    }

    Table load(String name) {
        return catalog.loadTable(TableIdentifier.of(NAMESPACE, name));
    }

    void drop(String name) {
        catalog.dropTable(TableIdentifier.of(NAMESPACE, name), true);
    }

    TableLoader loader(String name) {
        return TableLoader.fromCatalog(catalogLoader, TableIdentifier.of(NAMESPACE, name));
    }

    /**
     * The suite's shared source table of a format holding the rows {@code [0, rows)} of {@code
     * data}. In a round the connector's run of the same read workload comes first and has written
     * it; only where it is missing (the warm-up's own warehouse, a reference run alone) it is
     * written here, by the same generic writer the suite uses.
     */
    Table source(FileFormat format, BenchmarkRows data, long rows) {
        String name = sourceTableName(format);
        TableIdentifier id = TableIdentifier.of(NAMESPACE, name);
        if (catalog.tableExists(id)) {
            Table table = catalog.loadTable(id);
            if (recordCount(table) == rows) {
                return table;
            }
            drop(name);
        }
        Table table = create(name, BenchmarkRows.SCHEMA, PartitionSpec.unpartitioned(), format, 2);
        GenericLimits.write(table, data, rows);
        table.refresh();
        return table;
    }

    /** The rows of the current snapshot by the data files' record counts (no deletes expected). */
    static long recordCount(Table table) {
        long count = 0;
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                count += task.file().recordCount();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return count;
    }

    /** The number of data and delete files of the current snapshot. */
    static long fileCount(Table table) {
        return summaryLong(table, "total-data-files") + summaryLong(table, "total-delete-files");
    }

    /** The total size of the files of the current snapshot. */
    static long fileBytes(Table table) {
        return summaryLong(table, "total-files-size");
    }

    private static long summaryLong(Table table, String key) {
        Snapshot snapshot = table.currentSnapshot();
        return snapshot == null ? 0 : Long.parseLong(snapshot.summary().getOrDefault(key, "0"));
    }

    /** The partitioned workloads' tables are partitioned by the 16-value category. */
    static PartitionSpec spec(Workload workload) {
        return workload.kind().partitioned()
                ? PartitionSpec.builderFor(BenchmarkRows.SCHEMA).identity("category").build()
                : PartitionSpec.unpartitioned();
    }
}
