package dev.icebergflink.table.catalog;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.table.options.CopiedCatalogOption;
import dev.icebergflink.table.options.MetadataSyncOptions;
import dev.icebergflink.table.options.PartitionTerms;
import dev.icebergflink.table.options.TablePropertyNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.iceberg.ManageSnapshots;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.UpdatePartitionSpec;
import org.apache.iceberg.UpdateProperties;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Applies Flink's {@code ALTER TABLE} changes to an Iceberg table in one transaction: either every
 * change takes effect or none does.
 *
 * <p>It exists to map each {@link TableChange} onto Iceberg's {@link UpdateSchema}, {@link
 * UpdateProperties}, {@code UpdateLocation} and {@link ManageSnapshots}:
 *
 * <ul>
 *   <li>{@code ADD} column: an optional column, or a required one ({@code NOT NULL}) while the
 *       table has no snapshot; position {@code FIRST} / {@code AFTER};
 *   <li>{@code MODIFY} column: primitive type promotion as Iceberg allows it (int to bigint, float
 *       to double, wider decimals), {@code NULL} (always) and {@code NOT NULL} (only while the
 *       table has no snapshot, since existing rows may hold nulls), comment, position;
 *   <li>{@code RENAME} and {@code DROP} column;
 *   <li>{@code ADD} / {@code MODIFY} / {@code DROP PRIMARY KEY}: the identifier fields;
 *   <li>{@code SET} / {@code RESET} options: table properties; {@code location} moves the table
 *       location; {@code format-version} upgrades the format; {@code partitioning} replaces the
 *       partition spec ({@link PartitionTerms}; {@code RESET} removes the partitioning); {@code
 *       current-snapshot-id} and {@code cherry-pick-snapshot-id} roll back or cherry-pick a
 *       snapshot (not both at once).
 * </ul>
 *
 * Watermarks, computed and metadata columns, {@code DISTRIBUTED BY}, properties that look like
 * misspelt Iceberg property names ({@link TablePropertyNames}) and changes Iceberg cannot make fail
 * with a {@link ValidationException} that names the column or the change, before anything is
 * committed.
 */
final class TableChangeApplier {

    /** Option that makes a snapshot the table's current one. */
    static final String CURRENT_SNAPSHOT_ID = "current-snapshot-id";

    /** Option that cherry-picks a snapshot onto the current one. */
    static final String CHERRY_PICK_SNAPSHOT_ID = "cherry-pick-snapshot-id";

    private final String tableName;
    private final Table table;
    private final List<TableChange> columnChanges = new ArrayList<>();
    private final Map<String, String> setProperties = new LinkedHashMap<>();
    private final Set<String> removedProperties = new LinkedHashSet<>();
    private List<String> identifierFields;
    private String location;
    private Long currentSnapshotId;
    private Long cherryPickSnapshotId;
    private String partitioning;

    private TableChangeApplier(String tableName, Table table) {
        this.tableName = tableName;
        this.table = table;
    }

    /**
     * Applies the changes to the table in one Iceberg transaction.
     *
     * @throws ValidationException when a change cannot be expressed in Iceberg; the table is then
     *     unchanged
     */
    static void apply(String tableName, Table table, List<TableChange> changes) {
        if (changes.isEmpty()) {
            return;
        }
        TableChangeApplier applier = new TableChangeApplier(tableName, table);
        for (TableChange change : changes) {
            applier.classify(change);
        }
        applier.commit();
    }

    private void classify(TableChange change) {
        if (change instanceof TableChange.SetOption set) {
            setOption(set.getKey(), set.getValue());
        } else if (change instanceof TableChange.ResetOption reset) {
            resetOption(reset.getKey());
        } else if (change instanceof TableChange.AddColumn
                || change instanceof TableChange.ModifyColumn
                || change instanceof TableChange.DropColumn) {
            columnChanges.add(change);
        } else if (change instanceof TableChange.AddUniqueConstraint add) {
            identifierFields = primaryKeyColumns(add.getConstraint());
        } else if (change instanceof TableChange.ModifyUniqueConstraint modify) {
            identifierFields = primaryKeyColumns(modify.getNewConstraint());
        } else if (change instanceof TableChange.DropConstraint) {
            identifierFields = List.of();
        } else if (change instanceof TableChange.AddWatermark
                || change instanceof TableChange.ModifyWatermark
                || change instanceof TableChange.DropWatermark) {
            throw fail(
                    "watermarks cannot be stored in an Iceberg catalog (%s). Define them in a"
                            + " query or in a table of another catalog created with CREATE TABLE"
                            + " ... LIKE.",
                    change);
        } else if (change instanceof TableChange.AddDistribution
                || change instanceof TableChange.ModifyDistribution
                || change instanceof TableChange.DropDistribution) {
            throw fail(
                    "DISTRIBUTED BY cannot be changed (%s); change the partition spec with"
                            + " ALTER TABLE ... SET ('%s'='..., bucket(N, c)')",
                    change, PartitionTerms.KEY);
        } else {
            throw fail("Iceberg tables do not support the change %s", change);
        }
    }

    private void setOption(String key, String value) {
        if (CopiedCatalogOption.isReported(key, value)) {
            // reported by getTable for CREATE TABLE ... LIKE elsewhere, never stored: a
            // definition given back whole (ALTER TABLE without a change list) carries them
            return;
        }
        switch (key) {
            case TableDefinitions.LOCATION -> location = value;
            case TableDefinitions.CONNECTOR ->
                    throw fail(
                            "tables in an Iceberg catalog take no 'connector' option ('%s'='%s')",
                            key, value);
            case PartitionTerms.KEY -> partitioning = value;
            case CURRENT_SNAPSHOT_ID -> currentSnapshotId = snapshotId(key, value);
            case CHERRY_PICK_SNAPSHOT_ID -> cherryPickSnapshotId = snapshotId(key, value);
            default -> {
                setProperties.put(key, value);
                removedProperties.remove(key);
            }
        }
    }

    private void resetOption(String key) {
        if (CopiedCatalogOption.KEY.equals(key) || TableDefinitions.CONNECTOR.equals(key)) {
            return; // not stored, so nothing to reset
        }
        switch (key) {
            case TableDefinitions.LOCATION, TableProperties.FORMAT_VERSION ->
                    throw fail("'%s' cannot be reset; SET it to the value you want instead", key);
            case CURRENT_SNAPSHOT_ID, CHERRY_PICK_SNAPSHOT_ID ->
                    throw fail("'%s' is an action, not a property, and cannot be reset", key);
            case PartitionTerms.KEY -> partitioning = "";
            default -> {
                removedProperties.add(key);
                setProperties.remove(key);
            }
        }
    }

    private long snapshotId(String key, String value) {
        try {
            long id = Long.parseLong(value.trim());
            if (table.snapshot(id) == null) {
                throw fail("'%s'='%s' names no snapshot of the table", key, value);
            }
            return id;
        } catch (NumberFormatException e) {
            throw fail("'%s'='%s' is not a snapshot id (a whole number)", key, value);
        }
    }

    private List<String> primaryKeyColumns(UniqueConstraint constraint) {
        if (constraint.getType() != UniqueConstraint.ConstraintType.PRIMARY_KEY) {
            throw fail(
                    "only PRIMARY KEY constraints are supported (they become the identifier"
                            + " fields), not %s",
                    constraint.asSummaryString());
        }
        return constraint.getColumns();
    }

    private void commit() {
        if (currentSnapshotId != null && cherryPickSnapshotId != null) {
            throw fail(
                    "set either '%s' or '%s', not both",
                    CURRENT_SNAPSHOT_ID, CHERRY_PICK_SNAPSHOT_ID);
        }
        // Only keys being set: RESET of a misspelt key that is already stored must stay possible.
        MetadataSyncOptions.reject(
                String.format("Cannot alter table '%s'", tableName), setProperties.keySet());
        TablePropertyNames.check(
                String.format("Cannot alter table '%s'", tableName), setProperties.keySet());
        Transaction transaction = table.newTransaction();
        try {
            if (!columnChanges.isEmpty()) {
                UpdateSchema update = transaction.updateSchema();
                Schema schema = table.schema();
                for (TableChange change : columnChanges) {
                    applyColumnChange(update, schema, change);
                }
                update.commit();
            }
            if (identifierFields != null) {
                transaction.updateSchema().setIdentifierFields(identifierFields).commit();
            }
            if (partitioning != null) {
                replaceSpec(transaction);
            }
            if (!setProperties.isEmpty() || !removedProperties.isEmpty()) {
                UpdateProperties update = transaction.updateProperties();
                setProperties.forEach(update::set);
                removedProperties.forEach(update::remove);
                update.commit();
            }
            if (location != null) {
                transaction.updateLocation().setLocation(location).commit();
            }
            if (currentSnapshotId != null) {
                transaction.manageSnapshots().setCurrentSnapshot(currentSnapshotId).commit();
            }
            if (cherryPickSnapshotId != null) {
                transaction.manageSnapshots().cherrypick(cherryPickSnapshotId).commit();
            }
        } catch (IllegalArgumentException
                | IllegalStateException
                | UnsupportedOperationException
                | org.apache.iceberg.exceptions.ValidationException e) {
            // Nothing is committed before commitTransaction(): the table is unchanged.
            throw new ValidationException(
                    String.format("Cannot alter table '%s': %s", tableName, e.getMessage()), e);
        }
        transaction.commitTransaction();
    }

    /**
     * Makes the spec of the {@code partitioning} option the table's default spec: fields that the
     * new terms do not name are removed, new terms are added, fields they keep stay as they are.
     * Files already written keep their spec.
     */
    private void replaceSpec(Transaction transaction) {
        String what = String.format("Cannot alter table '%s'", tableName);
        Schema schema = transaction.table().schema();
        List<PartitionTerms.Term> terms = PartitionTerms.parse(what, partitioning);
        // Checks every term against the (possibly just altered) schema, naming the bad term.
        PartitionTerms.build(what, schema, terms);
        PartitionSpec current = transaction.table().spec();
        UpdatePartitionSpec update = transaction.updateSpec();
        for (PartitionField field : current.fields()) {
            if (!field.transform().isVoid()
                    && terms.stream()
                            .noneMatch(term -> PartitionTerms.matches(field, term, schema))) {
                update.removeField(field.name());
            }
        }
        for (PartitionTerms.Term term : terms) {
            if (current.fields().stream()
                    .noneMatch(field -> PartitionTerms.matches(field, term, schema))) {
                update.addField(term.toIcebergTerm());
            }
        }
        update.commit();
    }

    private void applyColumnChange(UpdateSchema update, Schema schema, TableChange change) {
        if (change instanceof TableChange.AddColumn add) {
            addColumn(update, schema, add);
        } else if (change instanceof TableChange.DropColumn drop) {
            requireColumn(schema, drop.getColumnName());
            update.deleteColumn(drop.getColumnName());
        } else {
            modifyColumn(update, schema, (TableChange.ModifyColumn) change);
        }
    }

    private void addColumn(UpdateSchema update, Schema schema, TableChange.AddColumn add) {
        Column column = add.getColumn();
        TableDefinitions.checkPhysical(tableName, column);
        LogicalType logicalType = column.getDataType().getLogicalType();
        Type type = icebergType(column.getName(), logicalType);
        String doc = column.getComment().orElse(null);
        if (logicalType.isNullable()) {
            update.addColumn(null, column.getName(), type, doc);
        } else {
            requireEmptyTable(
                    "cannot add the NOT NULL column '%s': the table has rows, which would have no"
                            + " value for it. Add it as a nullable column.",
                    column.getName());
            update.allowIncompatibleChanges().addRequiredColumn(null, column.getName(), type, doc);
        }
        move(update, column.getName(), add.getPosition());
    }

    private void modifyColumn(UpdateSchema update, Schema schema, TableChange.ModifyColumn modify) {
        Column oldColumn = modify.getOldColumn();
        Column newColumn = modify.getNewColumn();
        TableDefinitions.checkPhysical(tableName, newColumn);
        String name = oldColumn.getName();
        Types.NestedField field = requireColumn(schema, name);

        LogicalType newLogicalType = newColumn.getDataType().getLogicalType();
        Type newType = icebergType(newColumn.getName(), newLogicalType);
        if (field.type().isPrimitiveType() && newType.isPrimitiveType()) {
            if (!field.type().equals(newType)) {
                update.updateColumn(name, newType.asPrimitiveType());
            }
        } else if (!FlinkSchemaUtil.convert(field.type())
                .copy(true)
                .equals(newLogicalType.copy(true))) {
            throw fail(
                    "cannot change the type of column '%s' from %s to %s: only primitive types"
                            + " can be promoted",
                    name,
                    FlinkSchemaUtil.convert(field.type()).copy(true).asSummaryString(),
                    newLogicalType.copy(true).asSummaryString());
        }

        if (newLogicalType.isNullable() && field.isRequired()) {
            update.makeColumnOptional(name);
        } else if (!newLogicalType.isNullable() && field.isOptional()) {
            requireEmptyTable(
                    "cannot make column '%s' NOT NULL: the table has rows, which may hold nulls"
                            + " in it. Iceberg only allows making a column nullable.",
                    name);
            update.allowIncompatibleChanges().requireColumn(name);
        }

        String newComment = newColumn.getComment().orElse(null);
        if (!Objects.equals(newComment, field.doc())) {
            update.updateColumnDoc(name, newComment);
        }
        if (!newColumn.getName().equals(name)) {
            update.renameColumn(name, newColumn.getName());
        }
        move(update, name, modify.getNewPosition());
    }

    private static void move(
            UpdateSchema update, String name, TableChange.ColumnPosition position) {
        if (position instanceof TableChange.First) {
            update.moveFirst(name);
        } else if (position instanceof TableChange.After after) {
            update.moveAfter(name, after.column());
        }
    }

    private Types.NestedField requireColumn(Schema schema, String name) {
        Types.NestedField field = schema.findField(name);
        if (field == null) {
            throw fail("column '%s' does not exist; the columns are %s", name, columnNames(schema));
        }
        return field;
    }

    private static List<String> columnNames(Schema schema) {
        return schema.columns().stream().map(Types.NestedField::name).toList();
    }

    private Type icebergType(String column, LogicalType type) {
        try {
            return FlinkSchemaUtil.convert(type);
        } catch (IllegalArgumentException e) {
            throw fail("column '%s': %s", column, e.getMessage());
        }
    }

    private void requireEmptyTable(String message, Object... args) {
        if (table.currentSnapshot() != null) {
            throw fail(message, args);
        }
    }

    private ValidationException fail(String message, Object... args) {
        return new ValidationException(
                String.format("Cannot alter table '%s': ", tableName)
                        + String.format(message, args));
    }
}
