package dev.icebergflink.benchmarks.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopTables;

/**
 * A Hadoop table in a fresh local temporary folder, deleted again by {@link #close()}.
 *
 * <p>It exists because the connector's writer factory, like Iceberg's generic one, takes its
 * defaults (format properties, metrics configuration, file locations) from a table; the benchmarks
 * need one without a catalog or a server.
 */
public final class BenchmarkTable implements AutoCloseable {

    private final Path folder;
    private final Table table;

    private BenchmarkTable(Path folder, Table table) {
        this.folder = folder;
        this.table = table;
    }

    /** Creates a table of {@code schema} with {@code spec} and table properties in a new folder. */
    public static BenchmarkTable create(
            Schema schema, PartitionSpec spec, Map<String, String> properties) {
        try {
            Path folder = Files.createTempDirectory("iceberg-flink-benchmark-");
            Table table =
                    new HadoopTables(new Configuration())
                            .create(
                                    schema,
                                    spec,
                                    properties,
                                    folder.resolve("table").toUri().toString());
            return new BenchmarkTable(folder, table);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a temporary benchmark table folder", e);
        }
    }

    /** The table. */
    public Table table() {
        return table;
    }

    /** A location for a file of this benchmark, inside the temporary folder. */
    public String fileLocation(String name) {
        return folder.resolve(name).toUri().toString();
    }

    /** Deletes the folder {@code name} (see {@link #fileLocation}) and all it holds, if any. */
    public void deleteFolder(String name) {
        delete(folder.resolve(name));
    }

    @Override
    public void close() {
        delete(folder);
    }

    private static void delete(Path folder) {
        if (!Files.exists(folder)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete benchmark folder " + folder, e);
        }
    }
}
