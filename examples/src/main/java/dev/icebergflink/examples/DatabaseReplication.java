package dev.icebergflink.examples;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import dev.icebergflink.sink.dynamic.DynamicIcebergSink;
import dev.icebergflink.sink.dynamic.DynamicRecord;
import dev.icebergflink.sink.dynamic.DynamicRecordGenerator;
import dev.icebergflink.sink.dynamic.TableCreator;
import dev.icebergflink.source.IcebergSource;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;
import org.apache.flink.util.TimeUtils;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types.NestedField;

/**
 * Database replication: one Flink job copies every table of a source database into an Iceberg
 * database through {@link DynamicIcebergSink}, keeping up with the source's schema changes while it
 * runs. The input is a CDC-style change log ({@link GeneratedChanges}: inserts, updates and deletes
 * of the tables {@code customers}, {@code orders} and {@code shipments}, each {@link ChangeEvent}
 * naming its table, primary key and schema version); the job names no table, each change says where
 * it goes.
 *
 * <p>What happens mid-stream, without a restart:
 *
 * <ul>
 *   <li>{@code customers} gains a column ({@code phone}): the sink adds it to the Iceberg table, as
 *       an optional column; rows written before read NULL in it;
 *   <li>{@code orders.total_cents} is widened from {@code int} to {@code bigint}: the sink widens
 *       the Iceberg column (a metadata change; the files written before keep their ints);
 *   <li>{@code shipments} appears: the sink creates its Iceberg table with the first change.
 * </ul>
 *
 * <p>How: a {@link DynamicRecordGenerator} ({@link ChangeEventToDynamicRecord}) turns each change
 * into a {@link DynamicRecord} for table {@code <database>.<source table>}, with the schema of the
 * change's version and the row typed by it. Every record is an upsert with equality field {@code
 * id}: an insert or update replaces the row of its key, a delete removes it, which is what a change
 * log without old row images needs, and replaying changes after a failure leaves the same rows. The
 * sink creates missing tables with a {@link TableCreator} ({@link ReplicaTableCreator}) that makes
 * them format version 2, which upserts need (equality deletes). Each checkpoint commits one
 * snapshot per table that changed.
 *
 * <p>Upserts are only right when the changes of a row are applied in the order the database made
 * them. The change log is therefore keyed by row before the sink, so that all changes of a row
 * reach the same generator instance, and the sink sends all records of a key from there to the same
 * writer. Records that need a table change (create, add a column, widen a type) pass an operator
 * keyed by table that makes it; the sink keeps the order of a key's changes across that detour.
 *
 * <p>Not shown: a change whose schema cannot be written (a column whose type changes to an
 * unrelated one) fails the job; {@code incompatibleRecordsToSideOutput(true)} and {@code
 * incompatibleRecords()} on the builder park such changes in a stream of their own instead. A table
 * changed by someone else while the job runs (e.g. {@code ALTER TABLE}) is seen within {@code
 * cacheRefreshMs} (default one second).
 *
 * <p>After the job, the example reads each table back with a bounded {@link IcebergSource} and
 * prints its schema versions, its current rows (the first {@value #PRINTED_ROWS} by id) and their
 * number.
 *
 * <p>Arguments (besides the catalog keys of {@link ExampleArguments}; {@code --table} is not taken,
 * the tables are named after the source tables):
 *
 * <ul>
 *   <li>{@code --database <name>}: the Iceberg database the tables are written into (default {@code
 *       shop}); created when missing. Tables that exist already are written into; as the changes
 *       are upserts, a second run with the same arguments leaves the same rows;
 *   <li>{@code --changes N}: how many changes the source produces before the job ends (default
 *       3000);
 *   <li>{@code --changes-per-checkpoint M}: at most this many changes per checkpoint (default 250),
 *       so that the schema changes come in later checkpoints than the first rows;
 *   <li>{@code --checkpoint-interval D}: how often the tables are committed (default {@code 1s}).
 * </ul>
 *
 * <p>Run it:
 *
 * <ul>
 *   <li>in the IDE: run {@code main} (a local MiniCluster, tables under {@code ./warehouse/shop});
 *   <li>with Maven: {@code ./mvnw -Pexample -Dexample.class=DatabaseReplication -DskipTests
 *       package} (see {@code examples/README.md});
 *   <li>on a cluster with the connector bundle in {@code lib/}: {@code flink run -c
 *       dev.icebergflink.examples.DatabaseReplication examples.jar --warehouse
 *       hdfs://namenode:8020/warehouse --changes 100000}.
 * </ul>
 */
public final class DatabaseReplication {

    static final String DEFAULT_DATABASE = "shop";

    /** How many rows of each table are printed. */
    static final int PRINTED_ROWS = 12;

    /**
     * The properties of every table the job creates: format version 2, because upserts and deletes
     * by key are written as equality deletes; and, because the job commits every table at every
     * checkpoint, old metadata files are deleted after each commit instead of piling up.
     */
    static final Map<String, String> TABLE_PROPERTIES =
            Map.of(
                    "format-version", "2",
                    "write.metadata.delete-after-commit.enabled", "true",
                    "write.metadata.previous-versions-max", "20");

    private DatabaseReplication() {}

    public static void main(String[] args) throws Exception {
        run(args, System.out);
    }

    /**
     * Replicates the changes, then returns the current rows of each table the job wrote, sorted by
     * id, in the order of {@link GeneratedChanges#TABLES}.
     */
    static Map<TableIdentifier, List<RowData>> run(String[] args, PrintStream out)
            throws Exception {
        ExampleArguments arguments =
                ExampleArguments.parse(
                        "DatabaseReplication",
                        args,
                        "database",
                        "changes",
                        "changes-per-checkpoint",
                        "checkpoint-interval");
        if (arguments.get("table").isPresent()) {
            throw new IllegalArgumentException(
                    "DatabaseReplication: '--table' is not taken, the tables are named after the"
                            + " source tables; choose their database with '--database'");
        }
        Namespace database = Namespace.of(arguments.get("database", DEFAULT_DATABASE));
        long changes = arguments.getLong("changes", 3_000);
        if (changes < 1) {
            throw new IllegalArgumentException(
                    "DatabaseReplication: '--changes' must be at least 1, but was " + changes);
        }
        int perCheckpoint = arguments.getPositiveInt("changes-per-checkpoint", 250);
        Duration checkpointInterval =
                arguments.getDuration("checkpoint-interval", Duration.ofSeconds(1));
        CatalogLoader catalogLoader = arguments.catalogLoader();
        ExampleTables.createNamespaceIfMissing(catalogLoader, database);

        GeneratedChanges changeLog = new GeneratedChanges(changes);
        out.printf(
                "Replicating %d changes of the source tables %s into database %s of catalog %s%n",
                changes,
                String.join(", ", GeneratedChanges.TABLES),
                database,
                catalogLoader.name());
        out.printf(
                "  change %d: the first change of shipments, a table that is new in the source%n",
                changeLog.shipmentsFrom());
        out.printf(
                "  change %d: customers gains column phone, orders.total_cents becomes a bigint%n",
                changeLog.schemaChangeAt());
        out.printf(
                "  at most %d changes per checkpoint, a checkpoint every %s%n",
                perCheckpoint, TimeUtils.formatWithHighestUnit(checkpointInterval));

        StreamExecutionEnvironment env = arguments.environment();
        env.enableCheckpointing(checkpointInterval.toMillis());
        DataGeneratorSource<ChangeEvent> source =
                new DataGeneratorSource<>(
                        changeLog,
                        changes,
                        RateLimiterStrategy.perCheckpoint(perCheckpoint),
                        TypeInformation.of(ChangeEvent.class));
        // A database's change log is one ordered stream: one reader.
        DataStream<ChangeEvent> changeEvents =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "source change log")
                        .setParallelism(1)
                        .uid("source-change-log");
        // Keyed by row, so that the changes of a row stay in order on their way to the sink.
        DynamicIcebergSink.forInput(changeEvents.keyBy(ChangeEvent::rowKey, Types.STRING))
                .generator(new ChangeEventToDynamicRecord(database))
                .catalogLoader(catalogLoader)
                .tableCreator(new ReplicaTableCreator())
                .uidPrefix("replication")
                .append();
        env.execute("DatabaseReplication into " + database);
        out.printf("Replicated %d changes%n", changes);

        Map<TableIdentifier, List<RowData>> rows = new LinkedHashMap<>();
        for (String sourceTable : GeneratedChanges.TABLES) {
            TableIdentifier identifier = TableIdentifier.of(database, sourceTable);
            out.println();
            if (!ExampleTables.exists(catalogLoader, identifier)) {
                out.printf("%s: not created, the source table had no changes%n", identifier);
                continue;
            }
            try (TableLoader tableLoader = TableLoader.fromCatalog(catalogLoader, identifier)) {
                Table table = tableLoader.loadTable();
                List<RowData> tableRows =
                        ExampleTables.readSortedById("DatabaseReplication", arguments, tableLoader);
                print(identifier, table, tableRows, out);
                rows.put(identifier, tableRows);
            }
        }
        return rows;
    }

    /**
     * Turns a change of the source database into the row to write: table {@code <database>.<source
     * table>}, the schema of the change's version, the values typed by that schema, and an upsert
     * by {@code id}.
     */
    static final class ChangeEventToDynamicRecord implements DynamicRecordGenerator<ChangeEvent> {

        private static final long serialVersionUID = 1L;

        private final String[] database;

        ChangeEventToDynamicRecord(Namespace database) {
            this.database = database.levels();
        }

        @Override
        public void generate(ChangeEvent change, Collector<DynamicRecord> out) {
            Schema schema = GeneratedChanges.schema(change.table(), change.schemaVersion());
            DynamicRecord record =
                    new DynamicRecord(
                            TableIdentifier.of(Namespace.of(database), change.table()),
                            null, // the main branch
                            schema,
                            row(schema, change),
                            PartitionSpec.unpartitioned());
            // An insert or update replaces the row with its id, a delete removes it; the sink
            // sends all changes of an id to one writer.
            record.setUpsertMode(true);
            record.setEqualityFields(Set.of("id"));
            out.collect(record);
        }

        /** The change as a row of {@code schema}: its key, then its values typed by the schema. */
        static RowData row(Schema schema, ChangeEvent change) {
            List<NestedField> columns = schema.columns();
            GenericRowData row = new GenericRowData(kind(change.operation()), columns.size());
            for (int pos = 0; pos < columns.size(); pos++) {
                NestedField column = columns.get(pos);
                if ("id".equals(column.name())) {
                    row.setField(pos, change.key());
                } else {
                    row.setField(pos, value(column, change.values().get(column.name())));
                }
            }
            return row;
        }

        private static RowKind kind(ChangeEvent.Operation operation) {
            return switch (operation) {
                case INSERT -> RowKind.INSERT;
                case UPDATE -> RowKind.UPDATE_AFTER;
                case DELETE -> RowKind.DELETE;
            };
        }

        /** A value given as text, in Flink's internal form of the column's type. */
        private static Object value(NestedField column, String text) {
            if (text == null) {
                return null;
            }
            return switch (column.type().typeId()) {
                case INTEGER -> Integer.parseInt(text);
                case LONG -> Long.parseLong(text);
                case STRING -> StringData.fromString(text);
                default ->
                        throw new IllegalArgumentException(
                                "Column "
                                        + column.name()
                                        + " has a type the example does not convert: "
                                        + column.type());
            };
        }
    }

    /**
     * Creates the tables the change log names and the catalog lacks, with {@link
     * #TABLE_PROPERTIES}; the schema and partition spec are the first record's.
     */
    static final class ReplicaTableCreator implements TableCreator {

        private static final long serialVersionUID = 1L;

        @Override
        public Table createTable(
                Catalog catalog, TableIdentifier identifier, Schema schema, PartitionSpec spec) {
            return catalog.buildTable(identifier, schema)
                    .withPartitionSpec(spec)
                    .withProperties(TABLE_PROPERTIES)
                    .create();
        }
    }

    /** The table's schema versions, then its first rows by id and how many it has. */
    private static void print(
            TableIdentifier identifier, Table table, List<RowData> rows, PrintStream out) {
        out.printf(
                "%s: %d rows, %d snapshots, %s%n",
                identifier,
                rows.size(),
                ExampleTables.snapshotCount(table),
                table.schemas().size() == 1 ? "1 schema" : table.schemas().size() + " schemas");
        table.schemas().values().stream()
                .sorted(Comparator.comparingInt(Schema::schemaId))
                .forEach(
                        schema ->
                                out.printf(
                                        "  schema %d: %s%s%n",
                                        schema.schemaId(),
                                        describe(schema),
                                        schema.schemaId() == table.schema().schemaId()
                                                ? " (current)"
                                                : ""));
        Schema schema = table.schema();
        TextTable text = new TextTable(schema.columns().stream().map(NestedField::name).toList());
        RowFormat format = RowFormat.of(schema);
        rows.stream().limit(PRINTED_ROWS).forEach(row -> text.addRow(format.values(row)));
        text.print(out, false);
        if (rows.size() > PRINTED_ROWS) {
            out.printf("... and %d more rows%n", rows.size() - PRINTED_ROWS);
        }
    }

    /** The columns of a schema as {@code name type}, e.g. {@code id long NOT NULL, name string}. */
    static String describe(Schema schema) {
        return schema.columns().stream()
                .map(c -> c.name() + " " + c.type() + (c.isRequired() ? " NOT NULL" : ""))
                .collect(Collectors.joining(", "));
    }
}
