package dev.icebergflink.table.catalog;

import dev.icebergflink.table.metadata.MetadataTableName;
import dev.icebergflink.table.metadata.MetadataTables;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogTable;
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
 * metadata table of that type over {@code t}.
 */
final class TableLifecycle {

    private final CatalogConnection connection;
    private final DatabaseOperations databases;

    TableLifecycle(CatalogConnection connection, DatabaseOperations databases) {
        this.connection = connection;
        this.databases = databases;
    }

    List<String> listTables(String databaseName)
            throws DatabaseNotExistException, CatalogException {
        databases.requireDatabase(databaseName);
        try {
            return connection
                    .catalog()
                    .listTables(connection.databases().namespace(databaseName))
                    .stream()
                    .map(TableIdentifier::name)
                    .toList();
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
        CatalogTable table = TableDefinitions.toCatalogTable(connection.loadTable(tablePath));
        // what a connector table made with CREATE TABLE ... LIKE needs (not table properties)
        Map<String, String> options = new LinkedHashMap<>(table.getOptions());
        options.putAll(connection.reportedOptions(tablePath));
        return table.copy(options);
    }

    boolean tableExists(ObjectPath tablePath) throws CatalogException {
        Catalog catalog = connection.catalog();
        try {
            return catalog.tableExists(connection.databases().identifier(tablePath));
        } catch (RuntimeException e) {
            throw connection.catalogError("check table " + tablePath.getFullName(), e);
        }
    }

    /** Drops the table and purges its files; see the class comment. */
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
        if (!dropped && !ignoreIfNotExists) {
            throw new TableNotExistException(connection.name(), tablePath);
        }
    }

    void renameTable(ObjectPath tablePath, String newTableName, boolean ignoreIfNotExists)
            throws TableNotExistException, TableAlreadyExistException, CatalogException {
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

    void createTable(ObjectPath tablePath, CatalogBaseTable table, boolean ignoreIfExists)
            throws TableAlreadyExistException, DatabaseNotExistException, CatalogException {
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
                            "Cannot create table %s: %s",
                            connection.qualifiedName(tablePath), e.getMessage()),
                    e);
        } catch (RuntimeException e) {
            throw connection.catalogError("create table " + tablePath.getFullName(), e);
        }
    }
}
