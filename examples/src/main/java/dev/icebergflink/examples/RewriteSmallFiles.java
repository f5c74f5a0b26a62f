package dev.icebergflink.examples;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.Actions;
import dev.icebergflink.maintenance.RewriteDataFilesAction;
import dev.icebergflink.maintenance.RewriteDataFilesActionResult;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Compaction: frequent commits leave many small data files (here: {@code --commits} small batch
 * jobs, each writing one file per category partition and task), and {@code
 * Actions.forTable(table).rewriteDataFiles()} rewrites them, as a Flink batch job, into files of up
 * to the target size. The example prints the files per partition before and after, and the action's
 * result.
 *
 * <p>Arguments (besides the catalog keys of {@link ExampleArguments}):
 *
 * <ul>
 *   <li>{@code --table <db>.<name>} (default {@code examples.small_files}); the table is created
 *       when missing, and the small files are appended to it;
 *   <li>{@code --commits N} (default 5) and {@code --rows-per-commit N} (default 200): the small
 *       files to make first ({@code --commits 0} only compacts);
 *   <li>{@code --target-file-size BYTES} (default: the table's {@code
 *       write.target-file-size-bytes}, 512 MB).
 * </ul>
 *
 * <p>Run it:
 *
 * <ul>
 *   <li>in the IDE: run {@code main};
 *   <li>with Maven: {@code ./mvnw -Pexample -Dexample.class=RewriteSmallFiles -DskipTests package}
 *       (see {@code examples/README.md});
 *   <li>on a cluster with the connector bundle in {@code lib/}: {@code flink run -c
 *       dev.icebergflink.examples.RewriteSmallFiles examples.jar --warehouse
 *       hdfs://namenode:8020/warehouse}.
 * </ul>
 */
public final class RewriteSmallFiles {

    private RewriteSmallFiles() {}

    public static void main(String[] args) throws Exception {
        run(args, System.out);
    }

    /** Makes the small files, compacts them and returns the action's result. */
    static RewriteDataFilesActionResult run(String[] args, PrintStream out) throws Exception {
        ExampleArguments arguments =
                ExampleArguments.parse(
                        "RewriteSmallFiles",
                        args,
                        "commits",
                        "rows-per-commit",
                        "target-file-size");
        TableIdentifier identifier = arguments.table("examples.small_files");
        long commits = arguments.getLong("commits", 5);
        long rowsPerCommit = arguments.getLong("rows-per-commit", 200);
        CatalogLoader catalogLoader = arguments.catalogLoader();
        ExampleTables.createIfMissing(
                catalogLoader,
                identifier,
                GeneratedEvents.SCHEMA,
                GeneratedEvents.SPEC,
                Map.of("format-version", "2"));

        try (TableLoader tableLoader = TableLoader.fromCatalog(catalogLoader, identifier)) {
            long firstId = ExampleTables.rowCount(tableLoader.loadTable());
            for (long commit = 0; commit < commits; commit++) {
                EventBatch.append(
                        arguments.environment(),
                        tableLoader.clone(),
                        firstId + commit * rowsPerCommit,
                        rowsPerCommit);
            }
            Table table = tableLoader.loadTable();
            out.printf("Before: %s%n", identifier);
            printFiles(table, out);

            RewriteDataFilesAction action =
                    Actions.forTable(arguments.environment(), table).rewriteDataFiles();
            if (arguments.get("target-file-size").isPresent()) {
                action.targetSizeInBytes(arguments.getLong("target-file-size", 0));
            }
            RewriteDataFilesActionResult result = action.execute();
            out.printf(
                    "Rewrote %d data files (%d bytes) into %d (%d bytes) in %d groups%n",
                    result.deletedDataFilesCount(),
                    result.rewrittenBytesCount(),
                    result.addedDataFilesCount(),
                    result.addedBytesCount(),
                    result.rewrittenFileGroupsCount());

            table.refresh();
            out.printf("After: %s%n", identifier);
            printFiles(table, out);
            return result;
        }
    }

    /** Prints the live data files of each partition: how many, their rows and bytes. */
    private static void printFiles(Table table, PrintStream out) {
        Map<String, long[]> byPartition = new TreeMap<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                long[] totals =
                        byPartition.computeIfAbsent(
                                table.spec().partitionToPath(task.file().partition()),
                                partition -> new long[3]);
                totals[0]++;
                totals[1] += task.file().recordCount();
                totals[2] += task.file().fileSizeInBytes();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        TextTable text = TextTable.withColumns("partition", "data files", "rows", "bytes");
        byPartition.forEach(
                (partition, totals) -> text.addRow(partition, totals[0], totals[1], totals[2]));
        text.print(out, false);
    }
}
