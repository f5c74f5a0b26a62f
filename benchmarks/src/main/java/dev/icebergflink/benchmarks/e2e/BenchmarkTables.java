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
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;

/**
 * The tables of one suite run: a Hadoop catalog {@code lake} on a local warehouse directory with
 * the namespace {@code db}, opened through Iceberg core only, so that the launcher of Iceberg's own
 * connector uses the same class; each side loads tables for its connector with its own loaders. The
 * read workloads share one source table per format ({@code db.source_parquet} ...), written once by
 * the generic writer and reused by every run.
 */
final class BenchmarkTables {

    static final String CATALOG = "lake";
    static final String NAMESPACE = "db";

    private final Path warehouse;
    private final Catalog catalog;

    BenchmarkTables(Path warehouse) {
        this.warehouse = warehouse;
        HadoopCatalog hadoop = new HadoopCatalog();
        hadoop.setConf(new org.apache.hadoop.conf.Configuration());
        hadoop.initialize(CATALOG, Map.of("warehouse", warehouseUri()));
        this.catalog = hadoop;
        SupportsNamespaces namespaces = (SupportsNamespaces) catalog;
        if (!namespaces.namespaceExists(Namespace.of(NAMESPACE))) {
            namespaces.createNamespace(Namespace.of(NAMESPACE));
        }
    }

    Path warehouse() {
        return warehouse;
    }

    /** The warehouse URI, as SQL's CREATE CATALOG wants it. */
    String warehouseUri() {
        return warehouse.toUri().toString();
    }

    static TableIdentifier identifier(String name) {
        return TableIdentifier.of(NAMESPACE, name);
    }

    /** A table name for a workload's run: its id with underscores. */
    static String tableName(Workload workload, int run) {
        return tableName(workload.id(), run);
    }

    /** A table name for a run of what {@code label} names: the label with underscores. */
    static String tableName(String label, int run) {
        return label.replace('-', '_') + "_r" + run;
    }

    /** The name of the shared source table of a format. */
    static String sourceTableName(FileFormat format) {
        return "source_" + format.name().toLowerCase(Locale.ROOT);
    }

    /**
     * Creates a fresh table of the benchmark schema (dropping any left from an earlier attempt).
     */
    Table create(String name, PartitionSpec spec, FileFormat format, int formatVersion) {
        return create(name, BenchmarkRows.SCHEMA, spec, format, formatVersion);
    }

    /** Creates a fresh table of {@code schema} (dropping any left from an earlier attempt). */
    Table create(
            String name, Schema schema, PartitionSpec spec, FileFormat format, int formatVersion) {
        TableIdentifier id = identifier(name);
        if (catalog.tableExists(id)) {
            catalog.dropTable(id, true);
        }
        Map<String, String> properties = new HashMap<>();
        properties.put(TableProperties.DEFAULT_FILE_FORMAT, format.name().toLowerCase(Locale.ROOT));
        properties.put(TableProperties.FORMAT_VERSION, String.valueOf(formatVersion));
        return catalog.createTable(id, schema, spec, properties);
    }

    boolean exists(String name) {
        return catalog.tableExists(identifier(name));
    }

    Table load(String name) {
        return catalog.loadTable(identifier(name));
    }

    /** Drops a table and its files, to keep the warehouse small between runs. */
    void drop(String name) {
        catalog.dropTable(identifier(name), true);
    }

    /**
     * The shared source table of a format holding the rows {@code [0, rows)} of {@code data},
     * written by the generic writer the first time a workload needs it.
     */
    Table source(FileFormat format, BenchmarkRows data, long rows) {
        String name = sourceTableName(format);
        if (exists(name)) {
            Table table = load(name);
            long found = recordCount(table);
            if (found == rows) {
                return table;
            }
            drop(name);
        }
        Table table = create(name, PartitionSpec.unpartitioned(), format, 2);
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
}
