package dev.icebergflink.sink.dynamic;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.data.row.RowDataPartitioner;
import dev.icebergflink.sink.distribution.EqualityKeySelector;
import dev.icebergflink.sink.writer.RowDataToTableSchema;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;

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
    private final Map<TableIdentifier, LastInput> lastByTable = new HashMap<>();

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
        Resolved known = known(record);
        if (known != null) {
            return known;
        }
        Table table =
                updater.update(
                        record.tableIdentifier(), record.branch(), record.schema(), record.spec());
        return remember(record, table);
    }

    /**
     * The table state for {@code record} when its table, as cached, takes the record without any
     * change; empty when the table is missing or needs a change first (see {@link #resolve}).
     *
     * @throws IncompatibleSchemaException when the record's schema cannot be written to its table
     */
    public Optional<Resolved> resolveWithoutChanges(DynamicRecord record) {
        Resolved known = known(record);
        if (known != null) {
            return Optional.of(known);
        }
        Table current = tables.table(record.tableIdentifier()).orElse(null);
        if (current == null
                || !updater.fits(current, record.branch(), record.schema(), record.spec())) {
            return Optional.empty();
        }
        return Optional.of(remember(record, current));
    }

    /** What was worked out for the record's input schema, if the table has not changed since. */
    private Resolved known(DynamicRecord record) {
        LastInput last = lastByTable.get(record.tableIdentifier());
        Resolved resolved =
                last != null && last.isSameAs(record)
                        ? last.resolved()
                        : inputsOf(record).get(InputKey.of(record));
        if (resolved == null) {
            return null;
        }
        Table current = tables.table(record.tableIdentifier()).orElse(null);
        if (current == null || !resolved.matches(current)) {
            return null;
        }
        if (last == null || last.resolved() != resolved || !last.isSameAs(record)) {
            lastByTable.put(
                    record.tableIdentifier(),
                    new LastInput(record.schema(), record.spec(), record.branch(), resolved));
        }
        return resolved;
    }

    private Resolved remember(DynamicRecord record, Table table) {
        Resolved resolved =
                new Resolved(
                        table,
                        new RowDataToTableSchema(record.schema(), table.schema(), caseSensitive),
                        caseSensitive);
        inputsOf(record).put(InputKey.of(record), resolved);
        return resolved;
    }

    private LinkedHashMap<InputKey, Resolved> inputsOf(DynamicRecord record) {
        return resolvedByTable.computeIfAbsent(
                record.tableIdentifier(), id -> LruMaps.bounded(inputSchemasPerTable));
    }

    /**
     * The table state a record is written with, and what the routing to the writers derives from it
     * once per input schema instead of once per row: the rows' Flink type, the partitioner, and the
     * keys of equality fields.
     */
    public static final class Resolved {
        private final Table table;
        private final int schemaId;
        private final int specId;
        private final RowDataToTableSchema converter;
        private final boolean caseSensitive;
        private final RowType rowType;
        private final Map<Set<String>, KeyRoute> keyRoutes = new HashMap<>();
        private RowDataPartitioner partitioner;

        Resolved(Table table, RowDataToTableSchema converter, boolean caseSensitive) {
            this.table = table;
            this.schemaId = table.schema().schemaId();
            this.specId = table.spec().specId();
            this.converter = converter;
            this.caseSensitive = caseSensitive;
            this.rowType = FlinkSchemaUtil.convert(table.schema());
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

        /** The Flink type of converted rows. */
        public RowType rowType() {
            return rowType;
        }

        /** A hash of the partition of a converted row, the same in every JVM; 0 unpartitioned. */
        int partitionHash(RowData converted) {
            if (table.spec().isUnpartitioned()) {
                return 0;
            }
            if (partitioner == null) {
                partitioner = new RowDataPartitioner(table.spec(), table.schema(), rowType);
            }
            return partitioner.key(converted).hashCode();
        }

        /**
         * The key of rows written by {@code fields} (the table's identifier fields when empty).
         *
         * @throws IllegalArgumentException naming the table and column when a field is not a
         *     top-level column of the table
         */
        KeyRoute keyRoute(Set<String> fields) {
            KeyRoute route = keyRoutes.get(fields);
            if (route == null) {
                route = KeyRoute.of(table, rowType, fields, caseSensitive);
                keyRoutes.put(Set.copyOf(fields), route);
            }
            return route;
        }

        /** Whether the table still has the schema and spec this was worked out for. */
        boolean matches(Table current) {
            return current.schema().schemaId() == schemaId && current.spec().specId() == specId;
        }
    }

    /** The equality field ids of a key, sorted, and how to hash a row's key. */
    static final class KeyRoute {
        private final int[] fieldIds;
        private final EqualityKeySelector selector;

        private KeyRoute(int[] fieldIds, EqualityKeySelector selector) {
            this.fieldIds = fieldIds;
            this.selector = selector;
        }

        static KeyRoute of(
                Table table, RowType rowType, Set<String> fields, boolean caseSensitive) {
            Schema schema = table.schema();
            Set<Integer> ids = new TreeSet<>();
            if (fields.isEmpty()) {
                ids.addAll(schema.identifierFieldIds());
            }
            for (String field : fields) {
                Types.NestedField column =
                        caseSensitive
                                ? schema.findField(field)
                                : schema.caseInsensitiveFindField(field);
                if (column == null || schema.columns().stream().noneMatch(c -> c == column)) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Table %s: equality field '%s' is not a top-level column;"
                                            + " its columns are %s",
                                    table.name(),
                                    field,
                                    schema.columns().stream()
                                            .map(Types.NestedField::name)
                                            .toList()));
                }
                ids.add(column.fieldId());
            }
            if (ids.isEmpty()) {
                return new KeyRoute(new int[0], null);
            }
            List<Types.NestedField> columns = schema.columns();
            int[] positions = new int[ids.size()];
            int next = 0;
            for (int pos = 0; pos < columns.size(); pos++) {
                if (ids.contains(columns.get(pos).fieldId())) {
                    positions[next++] = pos;
                }
            }
            return new KeyRoute(
                    ids.stream().mapToInt(Integer::intValue).toArray(),
                    new EqualityKeySelector(rowType, positions));
        }

        /** The key's field ids, sorted; empty when there is no key. */
        int[] fieldIds() {
            return fieldIds;
        }

        boolean isEmpty() {
            return fieldIds.length == 0;
        }

        /** A hash of the row's key, the same in every JVM. */
        int hash(RowData converted) {
            return selector.getKey(converted).hashCode();
        }
    }

    /**
     * The schema, spec and branch objects of a table's last record: consecutive records mostly
     * share these objects, and comparing references spares comparing schemas field by field.
     */
    private record LastInput(Schema schema, PartitionSpec spec, String branch, Resolved resolved) {
        boolean isSameAs(DynamicRecord record) {
            return schema == record.schema()
                    && spec == record.spec()
                    && Objects.equals(branch, record.branch());
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

        static InputKey of(DynamicRecord record) {
            return new InputKey(record.schema(), record.spec(), record.branch());
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
