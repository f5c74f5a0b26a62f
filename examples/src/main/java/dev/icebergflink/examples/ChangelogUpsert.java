package dev.icebergflink.examples;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import dev.icebergflink.sink.IcebergSink;
import dev.icebergflink.source.IcebergSource;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;

/**
 * Changelog into a format-v2 table: a stream of {@link RowData} whose {@link RowKind} says what
 * each row is ({@code +I} insert, {@code -U}/{@code +U} the old and new image of an update, {@code
 * -D} delete), as a CDC source or a Flink SQL aggregation produces it, is written through {@link
 * IcebergSink} with the primary key {@code id} as equality fields. Updates and deletes become
 * Iceberg equality deletes (merge-on-read), so the table holds the last image of every key and no
 * deleted key.
 *
 * <p>The changelog comes in two commits: the initial load ({@link #INITIAL_LOAD}), then the changes
 * ({@link #CHANGES}: updates, a key updated twice, a delete, a delete and re-insert and a new key).
 * After each commit the example reads the table back with a bounded {@link IcebergSource} and
 * prints it.
 *
 * <p>Arguments (besides the catalog keys of {@link ExampleArguments}):
 *
 * <ul>
 *   <li>{@code --table <db>.<name>} (default {@code examples.customers}); created when missing, and
 *       it must be empty;
 *   <li>{@code --upsert true|false} (default {@code false}): write in upsert mode, where {@code +I}
 *       and {@code +U} replace the row of their key and {@code -U} is ignored (for sources that
 *       emit no old images).
 * </ul>
 *
 * <p>Run it:
 *
 * <ul>
 *   <li>in the IDE: run {@code main};
 *   <li>with Maven: {@code ./mvnw -Pexample -Dexample.class=ChangelogUpsert -DskipTests package}
 *       (see {@code examples/README.md});
 *   <li>on a cluster with the connector bundle in {@code lib/}: {@code flink run -c
 *       dev.icebergflink.examples.ChangelogUpsert examples.jar --warehouse
 *       hdfs://namenode:8020/warehouse}.
 * </ul>
 */
public final class ChangelogUpsert {

    /** The customers table: {@code id} is its primary key (identifier field). */
    public static final Schema SCHEMA =
            new Schema(
                    List.of(
                            Types.NestedField.required(1, "id", Types.LongType.get()),
                            Types.NestedField.required(2, "name", Types.StringType.get()),
                            Types.NestedField.optional(3, "city", Types.StringType.get()),
                            Types.NestedField.optional(4, "points", Types.IntegerType.get())),
                    Set.of(1));

    /** The first commit: four customers. */
    public static final List<RowData> INITIAL_LOAD =
            List.of(
                    row(RowKind.INSERT, 1, "Alice", "Berlin", 10),
                    row(RowKind.INSERT, 2, "Bob", "Paris", 20),
                    row(RowKind.INSERT, 3, "Carol", "Rome", 30),
                    row(RowKind.INSERT, 4, "Dan", "Oslo", 40));

    /** The second commit: the changes to apply. */
    public static final List<RowData> CHANGES =
            List.of(
                    row(RowKind.UPDATE_BEFORE, 2, "Bob", "Paris", 20),
                    row(RowKind.UPDATE_AFTER, 2, "Bob", "Lisbon", 25),
                    row(RowKind.DELETE, 3, "Carol", "Rome", 30),
                    row(RowKind.INSERT, 5, "Eve", "Vienna", 50),
                    row(RowKind.UPDATE_BEFORE, 1, "Alice", "Berlin", 10),
                    row(RowKind.UPDATE_AFTER, 1, "Alice", "Berlin", 11),
                    row(RowKind.UPDATE_BEFORE, 1, "Alice", "Berlin", 11),
                    row(RowKind.UPDATE_AFTER, 1, "Alice", "Madrid", 12),
                    row(RowKind.DELETE, 4, "Dan", "Oslo", 40),
                    row(RowKind.INSERT, 4, "Dan", "Oslo", 41));

    private static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);
    private static final RowFormat ROW_FORMAT = new RowFormat(ROW_TYPE);

    private ChangelogUpsert() {}

    public static void main(String[] args) throws Exception {
        run(args, System.out);
    }

    /** Writes both commits and returns the table's rows after the last one, sorted by id. */
    static List<RowData> run(String[] args, PrintStream out) throws Exception {
        ExampleArguments arguments = ExampleArguments.parse("ChangelogUpsert", args, "upsert");
        TableIdentifier identifier = arguments.table("examples.customers");
        boolean upsert = arguments.getBoolean("upsert", false);
        CatalogLoader catalogLoader = arguments.catalogLoader();
        ExampleTables.createIfMissing(
                catalogLoader,
                identifier,
                SCHEMA,
                PartitionSpec.unpartitioned(),
                Map.of("format-version", "2"));

        try (TableLoader tableLoader = TableLoader.fromCatalog(catalogLoader, identifier)) {
            Snapshot existing = tableLoader.loadTable().currentSnapshot();
            if (existing != null) {
                throw new IllegalStateException(
                        String.format(
                                "ChangelogUpsert writes its changelog into an empty table, but %s"
                                        + " already has data (snapshot %d); drop it or choose"
                                        + " another --table",
                                identifier, existing.snapshotId()));
            }
            out.printf("Writing the changelog into %s (upsert %s)%n", identifier, upsert);
            write(arguments, tableLoader, INITIAL_LOAD, upsert, out);
            printRows(ExampleTables.readSortedById("ChangelogUpsert", arguments, tableLoader), out);
            write(arguments, tableLoader, CHANGES, upsert, out);
            List<RowData> rows =
                    ExampleTables.readSortedById("ChangelogUpsert", arguments, tableLoader);
            printRows(rows, out);
            return rows;
        }
    }

    /** One bounded job, one commit: the changes keyed and written by their primary key. */
    private static void write(
            ExampleArguments arguments,
            TableLoader tableLoader,
            List<RowData> changes,
            boolean upsert,
            PrintStream out)
            throws Exception {
        out.println();
        for (RowData change : changes) {
            out.println("  " + ROW_FORMAT.changelogLine(change));
        }
        StreamExecutionEnvironment env = arguments.environment();
        env.fromData(changes, InternalTypeInfo.of(ROW_TYPE))
                .name("changelog")
                .sinkTo(
                        IcebergSink.forRowData()
                                .tableLoader(tableLoader.clone())
                                .equalityFieldColumns(List.of("id"))
                                .upsert(upsert)
                                .build())
                .name("iceberg sink");
        env.execute("ChangelogUpsert: " + changes.size() + " changes");
        out.printf("committed %d changes%n", changes.size());
    }

    private static void printRows(List<RowData> rows, PrintStream out) {
        TextTable table = TextTable.withColumns("id", "name", "city", "points");
        for (RowData row : rows) {
            table.addRow(ROW_FORMAT.values(row));
        }
        table.print(out, true);
    }

    private static RowData row(RowKind kind, long id, String name, String city, int points) {
        GenericRowData row =
                GenericRowData.of(
                        id, StringData.fromString(name), StringData.fromString(city), points);
        row.setRowKind(kind);
        return row;
    }
}
