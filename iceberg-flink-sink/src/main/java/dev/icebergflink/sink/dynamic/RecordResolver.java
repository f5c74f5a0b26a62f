package dev.icebergflink.sink.dynamic;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Works out, per record, the table state it is written with: the table made ready for the record's
 * schema, spec and branch ({@link TableUpdater}), and the conversion of its rows into the table's
 * schema ({@link RowDataToTableSchema}).
 *
 * <p>Input schemas repeat: a replication job sends millions of rows of a handful of schemas per
 * table. The outcome per input schema and spec is therefore kept for each table, for at most {@code
 * inputSchemasPerTable} of them (the least recently used is forgotten first), and only recomputed
 * when the table's schema or spec has changed since (by this job or, seen at the table cache's
 * refresh, by another).
 */
@Internal
public final class RecordResolver {

    private final TableUpdater updater;
    private final TableMetadataCache tables;
    private final int inputSchemasPerTable;
    private final boolean caseSensitive;
    private final Map<TableIdentifier, LinkedHashMap<InputKey, Resolved>> resolvedByTable =
            new HashMap<>();

    /**
     * @param updater makes tables ready for records
     * @param tables the cache {@code updater} uses
     * @param inputSchemasPerTable how many input schemas per table are remembered, at least 1
     * @param caseSensitive whether column names match exactly
     */
    public RecordResolver(
            TableUpdater updater,
            TableMetadataCache tables,
            int inputSchemasPerTable,
            boolean caseSensitive) {
        if (inputSchemasPerTable < 1) {
            throw new IllegalArgumentException(
                    "inputSchemasPerTableCacheMaxSize must be at least 1, got "
                            + inputSchemasPerTable);
        }
        this.updater = Objects.requireNonNull(updater, "updater");
        this.tables = Objects.requireNonNull(tables, "tables");
        this.inputSchemasPerTable = inputSchemasPerTable;
        this.caseSensitive = caseSensitive;
    }

    /**
     * The table state for {@code record}, updating the table when the record needs it.
     *
     * @throws IncompatibleSchemaException when the record's schema cannot be written to its table
     */
    public Resolved resolve(DynamicRecord record) {
        TableIdentifier identifier = record.tableIdentifier();
        InputKey key = new InputKey(record.schema(), record.spec(), record.branch());
        LinkedHashMap<InputKey, Resolved> known =
                resolvedByTable.computeIfAbsent(
                        identifier, id -> LruMaps.bounded(inputSchemasPerTable));
        Resolved resolved = known.get(key);
        Table current = tables.table(identifier).orElse(null);
        if (resolved != null && current != null && resolved.matches(current)) {
            return resolved;
        }
        Table table = updater.update(identifier, record.branch(), record.schema(), record.spec());
        resolved =
                new Resolved(
                        table,
                        new RowDataToTableSchema(record.schema(), table.schema(), caseSensitive));
        known.put(key, resolved);
        return resolved;
    }

    /** The table state a record is written with. */
    public static final class Resolved {
        private final Table table;
        private final int schemaId;
        private final int specId;
        private final RowDataToTableSchema converter;

        Resolved(Table table, RowDataToTableSchema converter) {
            this.table = table;
            this.schemaId = table.schema().schemaId();
            this.specId = table.spec().specId();
            this.converter = converter;
        }

        /** The table, as loaded when it was last made ready. */
        public Table table() {
            return table;
        }

        /** The id of the table schema rows are converted into. */
        public int schemaId() {
            return schemaId;
        }

        /** The id of the table spec rows are partitioned by. */
        public int specId() {
            return specId;
        }

        /** Turns the record's rows into rows of the table's schema. */
        public RowDataToTableSchema converter() {
            return converter;
        }

        /** Whether the table still has the schema and spec this was worked out for. */
        boolean matches(Table current) {
            return current.schema().schemaId() == schemaId && current.spec().specId() == specId;
        }
    }

    /** An input schema, spec and branch, compared by content. */
    private static final class InputKey {
        private final Schema schema;
        private final PartitionSpec spec;
        private final String branch;

        InputKey(Schema schema, PartitionSpec spec, String branch) {
            this.schema = schema;
            this.spec = spec;
            this.branch = branch;
        }

        @Override
        public boolean equals(Object other) {
            if (!(other instanceof InputKey that)) {
                return false;
            }
            return schema.sameSchema(that.schema)
                    && spec.compatibleWith(that.spec)
                    && Objects.equals(branch, that.branch);
        }

        @Override
        public int hashCode() {
            return Objects.hash(schema.asStruct(), spec.fields().size(), branch);
        }
    }
}
