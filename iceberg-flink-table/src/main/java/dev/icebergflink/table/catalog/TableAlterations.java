package dev.icebergflink.table.catalog;

import dev.icebergflink.FlinkSchemaUtil;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.iceberg.Table;

/**
 * The {@code ALTER TABLE} operations of a {@link FlinkCatalog}: Flink hands over either the list of
 * changes of the statement, applied in one Iceberg transaction by {@link TableChangeApplier}, or
 * only the new definition, from which the option and comment changes are derived.
 *
 * <p>It exists to give both forms the same checks: the object must stay a table, options naming
 * paths are refused when the deployment forbids statements to choose paths, and a new definition
 * without its changes may not change the schema or the partitioning (those need {@code ALTER TABLE
 * ADD / MODIFY / DROP / RENAME}).
 */
final class TableAlterations {

    private final CatalogConnection connection;

    TableAlterations(CatalogConnection connection) {
        this.connection = connection;
    }

    /** Applies the changes of an {@code ALTER TABLE} statement in one Iceberg transaction. */
    void alterTable(
            ObjectPath tablePath,
            CatalogBaseTable newTable,
            List<TableChange> tableChanges,
            boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException {
        Table table = loadUnlessIgnored(tablePath, ignoreIfNotExists);
        if (table == null) {
            return;
        }
        checkIsTable(tablePath, newTable);
        connection.checkTablePaths(
                tablePath,
                tableChanges.stream()
                        .filter(TableChange.SetOption.class::isInstance)
                        .map(change -> ((TableChange.SetOption) change).getKey())
                        .toList());
        try {
            TableChangeApplier.apply(connection.qualifiedName(tablePath), table, tableChanges);
        } catch (ValidationException e) {
            throw e;
        } catch (RuntimeException e) {
            throw connection.catalogError("alter table " + tablePath.getFullName(), e);
        }
    }

    /**
     * Applies a new table definition given without its list of changes: option changes are applied;
     * a different schema or partitioning is rejected.
     */
    void alterTable(ObjectPath tablePath, CatalogBaseTable newTable, boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException {
        Table table = loadUnlessIgnored(tablePath, ignoreIfNotExists);
        if (table == null) {
            return;
        }
        checkIsTable(tablePath, newTable);
        String tableName = connection.qualifiedName(tablePath);
        CatalogTable current = TableDefinitions.toCatalogTable(table);
        CatalogTable desired = (CatalogTable) newTable;
        connection.checkTablePaths(
                tablePath,
                desired.getOptions().entrySet().stream()
                        .filter(
                                option ->
                                        !Objects.equals(
                                                option.getValue(),
                                                current.getOptions().get(option.getKey())))
                        .map(Map.Entry::getKey)
                        .toList());
        if (desired instanceof ResolvedCatalogTable resolved) {
            TableDefinitions.checkPhysicalOnly(tableName, resolved.getResolvedSchema());
            boolean sameSchema;
            try {
                sameSchema =
                        FlinkSchemaUtil.convert(
                                        FlinkSchemaUtil.convert(resolved.getResolvedSchema()))
                                .equals(FlinkSchemaUtil.convert(table.schema()));
            } catch (IllegalArgumentException e) {
                throw new ValidationException(
                        "Cannot alter table " + tableName + ": " + e.getMessage(), e);
            }
            if (!sameSchema) {
                throw new ValidationException(
                        String.format(
                                "Cannot alter table %s: the new definition changes the schema;"
                                        + " change columns with ALTER TABLE ADD / MODIFY / DROP /"
                                        + " RENAME",
                                tableName));
            }
        }
        if (!current.getPartitionKeys().equals(desired.getPartitionKeys())) {
            throw new ValidationException(
                    String.format(
                            "Cannot alter table %s: partition keys cannot change (from %s to %s)",
                            tableName, current.getPartitionKeys(), desired.getPartitionKeys()));
        }
        TableChangeApplier.apply(tableName, table, optionAndCommentChanges(current, desired));
    }

    /** The option and comment changes that turn {@code current} into {@code desired}. */
    private static List<TableChange> optionAndCommentChanges(
            CatalogTable current, CatalogTable desired) {
        List<TableChange> changes = new ArrayList<>();
        desired.getOptions()
                .forEach(
                        (key, value) -> {
                            if (!Objects.equals(current.getOptions().get(key), value)) {
                                changes.add(TableChange.set(key, value));
                            }
                        });
        for (String key : current.getOptions().keySet()) {
            if (!desired.getOptions().containsKey(key)) {
                changes.add(TableChange.reset(key));
            }
        }
        if (!Objects.equals(emptyToNull(current.getComment()), emptyToNull(desired.getComment()))) {
            changes.add(
                    desired.getComment() == null || desired.getComment().isEmpty()
                            ? TableChange.reset(TableDefinitions.COMMENT)
                            : TableChange.set(TableDefinitions.COMMENT, desired.getComment()));
        }
        return changes;
    }

    /** The table to alter, or {@code null} when it is missing and that is to be ignored. */
    private Table loadUnlessIgnored(ObjectPath tablePath, boolean ignoreIfNotExists)
            throws TableNotExistException {
        try {
            return connection.loadTable(tablePath);
        } catch (TableNotExistException e) {
            if (ignoreIfNotExists) {
                return null;
            }
            throw e;
        }
    }

    private void checkIsTable(ObjectPath tablePath, CatalogBaseTable newTable) {
        if (!(newTable instanceof CatalogTable)
                || newTable.getTableKind() != CatalogBaseTable.TableKind.TABLE) {
            throw new ValidationException(
                    String.format(
                            "Cannot alter %s into a %s: an Iceberg catalog stores tables only",
                            connection.qualifiedName(tablePath), newTable.getTableKind()));
        }
    }

    private static String emptyToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }
}
