package dev.icebergflink.sink.dynamic;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.UpdatePartitionSpec;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.Term;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a table ready for records of a given schema, partition spec and branch: creates the table
 * when it is missing ({@link TableCreator}), adds the branch, applies the schema changes the
 * records need ({@link SchemaEvolution}) and replaces the partition spec when the records name
 * another one.
 *
 * <p>Each change is one catalog commit made against the table as just loaded. When another writer
 * changed the table first (a commit conflict, or a table created by someone else), the table is
 * loaded again and the needed changes are worked out anew: a change another job already made is not
 * made twice, so concurrent jobs that evolve one table the same way converge without failing.
 */
@Internal
public final class TableUpdater {

    private static final Logger LOG = LoggerFactory.getLogger(TableUpdater.class);

    /** Attempts per table before a conflict is reported. */
    static final int ATTEMPTS = 5;

    private final Catalog catalog;
    private final TableMetadataCache cache;
    private final TableCreator creator;
    private final boolean caseSensitive;
    private final boolean dropUnusedColumns;

    public TableUpdater(
            Catalog catalog,
            TableMetadataCache cache,
            TableCreator creator,
            boolean caseSensitive,
            boolean dropUnusedColumns) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.cache = Objects.requireNonNull(cache, "cache");
        this.creator = Objects.requireNonNull(creator, "creator");
        this.caseSensitive = caseSensitive;
        this.dropUnusedColumns = dropUnusedColumns;
    }

    /**
     * The table, changed where needed so that it takes records of {@code schema} partitioned by
     * {@code spec} on {@code branch}.
     *
     * @throws IncompatibleSchemaException when the records need a schema change Iceberg cannot make
     * @throws CommitFailedException when other writers kept changing the table through every
     *     attempt
     */
    public Table update(
            TableIdentifier identifier, String branch, Schema schema, PartitionSpec spec) {
        Table table = existing(identifier, schema, spec);
        SchemaEvolution evolution =
                new SchemaEvolution(identifier.toString(), caseSensitive, dropUnusedColumns);
        table =
                retried(
                        identifier,
                        table,
                        current -> {
                            List<SchemaChange> changes =
                                    evolution.changes(current.schema(), schema);
                            if (changes.isEmpty()) {
                                return false;
                            }
                            LOG.info("Table {}: {}", identifier, changes);
                            evolution.apply(changes, current.updateSchema()).commit();
                            return true;
                        });
        table =
                retried(
                        identifier,
                        table,
                        current -> {
                            UpdatePartitionSpec update = specUpdate(current, schema, spec);
                            if (update == null) {
                                return false;
                            }
                            LOG.info("Table {}: partition spec becomes {}", identifier, spec);
                            update.commit();
                            return true;
                        });
        if (branch != null && !SnapshotRef.MAIN_BRANCH.equals(branch)) {
            table =
                    retried(
                            identifier,
                            table,
                            current -> {
                                if (current.refs().containsKey(branch)) {
                                    return false;
                                }
                                LOG.info("Table {}: creating branch {}", identifier, branch);
                                current.manageSnapshots().createBranch(branch).commit();
                                return true;
                            });
        }
        return table;
    }

    /**
     * Whether {@code table} takes records of {@code schema} partitioned by {@code spec} on {@code
     * branch} as it is, so that they need no change and no catalog call.
     *
     * @throws IncompatibleSchemaException when the records need a schema change Iceberg cannot make
     */
    public boolean fits(Table table, String branch, Schema schema, PartitionSpec spec) {
        SchemaEvolution evolution =
                new SchemaEvolution(table.name(), caseSensitive, dropUnusedColumns);
        return evolution.changes(table.schema(), schema).isEmpty()
                && terms(spec, schema).keySet().equals(terms(table.spec(), table.schema()).keySet())
                && (branch == null
                        || SnapshotRef.MAIN_BRANCH.equals(branch)
                        || table.refs().containsKey(branch));
    }

    /** The table from the cache, or created with the records' schema and spec. */
    private Table existing(TableIdentifier identifier, Schema schema, PartitionSpec spec) {
        Table table = cache.table(identifier).orElse(null);
        if (table != null) {
            return table;
        }
        try {
            LOG.info("Creating table {} with schema {} and spec {}", identifier, schema, spec);
            table = creator.createTable(catalog, identifier, schema, spec);
        } catch (AlreadyExistsException createdElsewhere) {
            table = catalog.loadTable(identifier);
        }
        cache.update(identifier, table);
        return table;
    }

    /**
     * One change to the table, applied against fresh metadata until it holds or attempts run out.
     */
    private Table retried(TableIdentifier identifier, Table table, Change change) {
        Table current = table;
        for (int attempt = 1; ; attempt++) {
            try {
                if (!change.apply(current)) {
                    return current;
                }
                current.refresh();
                cache.update(identifier, current);
                return current;
            } catch (CommitFailedException conflict) {
                if (attempt >= ATTEMPTS) {
                    cache.invalidate(identifier);
                    throw new CommitFailedException(
                            conflict,
                            "Table %s changed concurrently through %d attempts to update it: %s",
                            identifier,
                            ATTEMPTS,
                            conflict.getMessage());
                }
                LOG.info(
                        "Table {} changed concurrently ({}); loading it again",
                        identifier,
                        conflict.getMessage());
                current = catalog.loadTable(identifier);
            }
        }
    }

    /**
     * The update that gives the table the fields of {@code spec} (bound to the records' {@code
     * schema}; its fields are matched to the table's columns by name), or {@code null} when it has
     * them: fields the records' spec lacks are removed, fields it adds are added.
     */
    private UpdatePartitionSpec specUpdate(Table table, Schema schema, PartitionSpec spec) {
        Map<String, Term> wanted = terms(spec, schema);
        Map<String, Term> present = terms(table.spec(), table.schema());
        if (wanted.keySet().equals(present.keySet())) {
            return null;
        }
        UpdatePartitionSpec update = table.updateSpec().caseSensitive(caseSensitive);
        present.forEach(
                (key, term) -> {
                    if (!wanted.containsKey(key)) {
                        update.removeField(term);
                    }
                });
        wanted.forEach(
                (key, term) -> {
                    if (!present.containsKey(key)) {
                        update.addField(term);
                    }
                });
        return update;
    }

    /** The spec's fields as terms over column names, by a key that compares them. */
    private Map<String, Term> terms(PartitionSpec spec, Schema schema) {
        Map<String, Term> terms = new LinkedHashMap<>();
        for (PartitionField field : spec.fields()) {
            if (field.transform().isVoid()) {
                continue; // a field a format-v1 table keeps after it was removed
            }
            String column = schema.findColumnName(field.sourceId());
            Term term = Expressions.transform(column, field.transform());
            String key = field.transform() + "(" + column + ")";
            terms.put(caseSensitive ? key : key.toLowerCase(Locale.ROOT), term);
        }
        return terms;
    }

    /** A change that reports whether it committed anything. */
    @FunctionalInterface
    private interface Change {
        boolean apply(Table current);
    }
}
