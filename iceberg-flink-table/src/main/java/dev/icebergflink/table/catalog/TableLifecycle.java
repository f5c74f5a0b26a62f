package dev.icebergflink.table.catalog;

import dev.icebergflink.table.metadata.MetadataTableName;
import dev.icebergflink.table.metadata.MetadataTables;
import dev.icebergflink.types.UnsupportedTypeException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.CatalogView;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;

/**
 * The table operations of a {@link FlinkCatalog} other than {@code ALTER TABLE} ({@link
 * TableAlterations}): listing, showing, creating, renaming and dropping tables.
 *
 * <p>It exists to keep the table life cycle in one place. {@code CREATE TABLE} maps to Iceberg as
 * {@link TableDefinitions} says; {@code RENAME TO} renames within the catalog where the Iceberg
 * catalog can (the Hadoop catalog cannot); {@code DROP TABLE} purges: it removes the table from the
 * catalog and deletes its metadata and data files, as Iceberg's {@code
 * Catalog#dropTable(TableIdentifier)} does by default and as users of Iceberg's Flink connector
 * expect (data files are kept when the table property {@code gc.enabled} is {@code false},
 * Iceberg's rule for shared files). An object name {@code t$type} shows the read-only Iceberg
 * metadata table of that type over {@code t}. Flink sends the same calls for views, which go to
 * {@link ViewOperations}.
 */
final class TableLifecycle {

    private final CatalogConnection connection;
    private final DatabaseOperations databases;
    private final ViewOperations views;

    TableLifecycle(
            CatalogConnection connection, DatabaseOperations databases, ViewOperations views) {
        this.connection = connection;
        this.databases = databases;
        this.views = views;
    }

    /** The tables and, as Flink's catalog contract asks, the views of a database. */
    List<String> listTables(String databaseName)
            throws DatabaseNotExistException, CatalogException {
        databases.requireDatabase(databaseName);
        List<String> views = this.views.listViews(databaseName);
        try {
            List<String> names =
                    new ArrayList<>(
                            connection
                                    .catalog()
                                    .listTables(connection.databases().namespace(databaseName))
                                    .stream()
                                    .map(TableIdentifier::name)
                                    .toList());
            names.addAll(views);
            return names;
        } catch (NoSuchNamespaceException e) {
            throw new DatabaseNotExistException(connection.name(), databaseName, e);
        } catch (RuntimeException e) {
            throw connection.catalogError("list the tables of database '" + databaseName + "'", e);
        }
    }

    /**
     * The Flink view of a table; for an object name {@code t$type} (for example {@code
     * t$snapshots}) the read-only Iceberg metadata table of that type over {@code t}.
     */
    CatalogBaseTable getTable(ObjectPath tablePath)
            throws TableNotExistException, CatalogException {
        Optional<MetadataTableName> metadata;
        try {
            metadata = MetadataTableName.parse(tablePath.getObjectName());
        } catch (IllegalArgumentException e) {
            throw new TableNotExistException(connection.name(), tablePath, e);
        }
        if (metadata.isPresent()) {
            ObjectPath base = new ObjectPath(tablePath.getDatabaseName(), metadata.get().table());
            Table metadataTable =
                    MetadataTables.open(connection.loadTable(base), metadata.get().type());
            return MetadataTables.toCatalogTable(
                    connection.qualifiedName(tablePath), metadataTable);
        }
        try {
            CatalogTable table = TableDefinitions.toCatalogTable(connection.loadTable(tablePath));
            // what a connector table made with CREATE TABLE ... LIKE needs (not table properties)
            Map<String, String> options = new LinkedHashMap<>(table.getOptions());
            options.putAll(connection.reportedOptions(tablePath));
            return table.copy(options);
        } catch (TableNotExistException e) {
            Optional<CatalogView> view = views.getView(tablePath);
            if (view.isPresent()) {
                return view.get();
            }
            throw e;
        } catch (UnsupportedTypeException e) {
            // e.g. a variant column on Flink 1.20: the table is listed, but Flink cannot hold it
            throw new CatalogException(
                    String.format(
                            "Table %s cannot be used from Flink: %s",
                            connection.qualifiedName(tablePath), e.getMessage()),
                    e);
        }
    }

    /** Whether a table or a view exists at {@code tablePath}. */
    boolean tableExists(ObjectPath tablePath) throws CatalogException {
        Catalog catalog = connection.catalog();
        try {
            if (catalog.tableExists(connection.databases().identifier(tablePath))) {
                return true;
            }
        } catch (RuntimeException e) {
            throw connection.catalogError("check table " + tablePath.getFullName(), e);
        }
        return views.viewExists(tablePath);
    }

    /**
     * Drops the table and purges its files (see the class comment), or drops the view ({@code DROP
     * VIEW}, which Flink sends here too).
     */
    void dropTable(ObjectPath tablePath, boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException {
        Catalog catalog = connection.catalog();
        boolean dropped;
        try {
            dropped = catalog.dropTable(connection.databases().identifier(tablePath), true);
        } catch (NoSuchTableException e) {
            dropped = false;
        } catch (RuntimeException e) {
            throw connection.catalogError("drop table " + tablePath.getFullName(), e);
        }
        if (!dropped) {
            dropped = views.dropView(tablePath);
        }
        if (!dropped && !ignoreIfNotExists) {
            throw new TableNotExistException(connection.name(), tablePath);
        }
    }

    /** Renames the table, or the view ({@code ALTER VIEW ... RENAME TO}, sent here too). */
    void renameTable(ObjectPath tablePath, String newTableName, boolean ignoreIfNotExists)
            throws TableNotExistException, TableAlreadyExistException, CatalogException {
        if (views.viewExists(tablePath)) {
            views.renameView(tablePath, newTableName);
            return;
        }
        Catalog catalog = connection.catalog();
        TableIdentifier from = connection.databases().identifier(tablePath);
        TableIdentifier to = TableIdentifier.of(from.namespace(), newTableName);
        try {
            catalog.renameTable(from, to);
        } catch (NoSuchTableException e) {
            if (!ignoreIfNotExists) {
                throw new TableNotExistException(connection.name(), tablePath, e);
            }
        } catch (AlreadyExistsException e) {
            throw new TableAlreadyExistException(
                    connection.name(),
                    new ObjectPath(tablePath.getDatabaseName(), newTableName),
                    e);
        } catch (UnsupportedOperationException e) {
            throw new CatalogException(
                    String.format(
                            "Cannot rename table %s to %s: the Iceberg catalog of '%s' (%s) does"
                                    + " not support renaming tables: %s",
                            tablePath.getFullName(),
                            newTableName,
                            connection.name(),
                            connection.loader().implementation(),
                            e.getMessage()),
                    e);
        } catch (RuntimeException e) {
            throw connection.catalogError("rename table " + tablePath.getFullName(), e);
        }
    }

    /** Creates the table, or the view ({@code CREATE VIEW}, sent here too). */
    void createTable(ObjectPath tablePath, CatalogBaseTable table, boolean ignoreIfExists)
            throws TableAlreadyExistException, DatabaseNotExistException, CatalogException {
        if (table.getTableKind() == CatalogBaseTable.TableKind.VIEW) {
            views.createView(tablePath, table, ignoreIfExists);
            return;
        }
        Catalog catalog = connection.catalog();
        connection.checkTablePaths(tablePath, table.getOptions().keySet());
        TableDefinitions.NewTable newTable =
                TableDefinitions.toNewTable(connection.qualifiedName(tablePath), table);
        if (connection.namespacesOrNull() != null) {
            databases.requireDatabase(tablePath.getDatabaseName());
        }
        try {
            Catalog.TableBuilder builder =
                    catalog.buildTable(
                                    connection.databases().identifier(tablePath), newTable.schema())
                            .withPartitionSpec(newTable.spec())
                            .withProperties(newTable.properties());
            if (newTable.location() != null) {
                builder.withLocation(newTable.location());
            }
            builder.create();
        } catch (AlreadyExistsException e) {
            if (!ignoreIfExists) {
                throw new TableAlreadyExistException(connection.name(), tablePath, e);
            }
        } catch (NoSuchNamespaceException e) {
            throw new DatabaseNotExistException(connection.name(), tablePath.getDatabaseName(), e);
        } catch (IllegalArgumentException
                | UnsupportedOperationException
                | org.apache.iceberg.exceptions.ValidationException e) {
            throw new ValidationException(
                    String.format(
                            "Cannot create table %s: %s%s",
                            connection.qualifiedName(tablePath),
                            e.getMessage(),
                            TableDefinitions.formatVersionHint(newTable.schema())),
                    e);
        } catch (IllegalStateException e) {
            // Iceberg refuses a format-v3 type in an older table this way ("Invalid schema for v2")
            String hint = TableDefinitions.formatVersionHint(newTable.schema());
            if (hint.isEmpty()) {
                throw connection.catalogError("create table " + tablePath.getFullName(), e);
            }
            throw new ValidationException(
                    String.format(
                            "Cannot create table %s: %s%s",
                            connection.qualifiedName(tablePath), e.getMessage(), hint),
                    e);
        } catch (RuntimeException e) {
            throw connection.catalogError("create table " + tablePath.getFullName(), e);
        }
    }
}
