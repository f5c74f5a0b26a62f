package dev.icebergflink.table.catalog;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import dev.icebergflink.table.connector.FlinkDynamicTableFactory;
import dev.icebergflink.table.options.CatalogSettings;
import java.util.List;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionSpecInvalidException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotPartitionedException;
import org.apache.flink.table.factories.Factory;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A Flink catalog over an Iceberg catalog: Flink databases are Iceberg namespaces (under the
 * optional {@code base-namespace}), Flink tables are Iceberg tables and Flink views Iceberg views.
 *
 * <p>It exists so that SQL users can create, inspect, change and drop Iceberg databases and tables
 * with Flink DDL. It is the facade Flink calls; each kind of operation has a class of its own that
 * states its rules, all sharing the open catalog ({@link CatalogConnection}):
 *
 * <ul>
 *   <li><b>Databases</b>: {@link DatabaseOperations}; the default database is created when the
 *       catalog opens, if it is missing and the catalog allows it.
 *   <li><b>Tables</b>: {@link TableLifecycle} for {@code CREATE}, {@code RENAME} and {@code DROP
 *       TABLE} (which purges the table's files), {@link TableDefinitions} for how a {@code CREATE
 *       TABLE} maps to Iceberg and back, and {@link TableAlterations} for {@code ALTER TABLE}.
 *   <li><b>Partitions</b>: {@link PartitionOperations}; {@code SHOW PARTITIONS} lists the identity
 *       partitions of the live data files, and partitions are not created or dropped here.
 *   <li><b>Views</b>: {@link ViewOperations}; Flink views are Iceberg views (dialect {@code flink})
 *       in Iceberg catalogs that store views; elsewhere they list as empty and creating one fails
 *       saying so.
 *   <li><b>Functions and statistics</b> are not stored ({@link TablesOnlyCatalog}): functions list
 *       as empty; creating them fails with a message saying so; statistics are unknown.
 * </ul>
 *
 * <p>Tables are read (and written) through {@link FlinkDynamicTableFactory}, which {@link
 * #getFactory()} hands to Flink with this catalog's {@link CatalogTableResolver}; {@code t$type}
 * object names address Iceberg's read-only metadata tables ({@code t$snapshots}, {@code t$files},
 * ...).
 */
@Internal
public class FlinkCatalog extends TablesOnlyCatalog {

    private final CatalogConnection connection;
    private final DatabaseOperations databases;
    private final ViewOperations views;
    private final TableLifecycle tables;
    private final TableAlterations alterations;
    private final PartitionOperations partitions;

    public FlinkCatalog(CatalogSettings settings, CatalogLoader loader) {
        this(settings, loader, true);
    }

    /**
     * @param allowQueryPaths false when the deployment forbids statements to choose paths ({@code
     *     table.exec.iceberg.allow-query-paths}): {@code CREATE TABLE} and {@code ALTER TABLE ...
     *     SET} then may not set a table location or path properties
     */
    public FlinkCatalog(CatalogSettings settings, CatalogLoader loader, boolean allowQueryPaths) {
        super(settings.catalogName(), settings.defaultDatabase());
        this.connection = new CatalogConnection(settings, loader, allowQueryPaths);
        this.databases = new DatabaseOperations(connection);
        this.views = new ViewOperations(connection, databases);
        this.tables = new TableLifecycle(connection, databases, views);
        this.alterations = new TableAlterations(connection);
        this.partitions = new PartitionOperations(connection);
    }

    /** The loader of the Iceberg catalog behind this Flink catalog; it may hold secrets. */
    public CatalogLoader catalogLoader() {
        return connection.loader();
    }

    /** A loader of the Iceberg table behind a Flink table path, for sources and sinks. */
    public TableLoader tableLoader(ObjectPath path) {
        return connection.tableLoader(path);
    }

    /** The Iceberg identifier of a Flink table path, with the base namespace. */
    public TableIdentifier toIdentifier(ObjectPath path) {
        return connection.databases().identifier(path);
    }

    /** The open Iceberg catalog (cached when caching is on). */
    public Catalog icebergCatalog() {
        return connection.catalog();
    }

    /**
     * The Iceberg table behind a Flink table path, refreshed so that it shows the latest metadata.
     */
    public Table loadTable(ObjectPath tablePath) throws TableNotExistException {
        return connection.loadTable(tablePath);
    }

    @Override
    public void open() throws CatalogException {
        if (connection.open()) {
            databases.createDefaultDatabaseIfMissing();
        }
    }

    @Override
    public void close() throws CatalogException {
        connection.close();
    }

    /** The factory of this catalog's table sources and sinks. */
    @Override
    public Optional<Factory> getFactory() {
        return Optional.of(new FlinkDynamicTableFactory(new CatalogTableResolver(connection)));
    }

    // ------------------------------------------------------------------ databases

    @Override
    public List<String> listDatabases() throws CatalogException {
        return databases.listDatabases();
    }

    @Override
    public CatalogDatabase getDatabase(String databaseName)
            throws DatabaseNotExistException, CatalogException {
        return databases.getDatabase(databaseName);
    }

    @Override
    public boolean databaseExists(String databaseName) throws CatalogException {
        return databases.databaseExists(databaseName);
    }

    @Override
    public void createDatabase(String name, CatalogDatabase database, boolean ignoreIfExists)
            throws DatabaseAlreadyExistException, CatalogException {
        databases.createDatabase(name, database, ignoreIfExists);
    }

    @Override
    public void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade)
            throws DatabaseNotExistException, DatabaseNotEmptyException, CatalogException {
        databases.dropDatabase(name, ignoreIfNotExists, cascade);
    }

    @Override
    public void alterDatabase(String name, CatalogDatabase newDatabase, boolean ignoreIfNotExists)
            throws DatabaseNotExistException, CatalogException {
        databases.alterDatabase(name, newDatabase, ignoreIfNotExists);
    }

    // ------------------------------------------------------------------ tables

    @Override
    public List<String> listTables(String databaseName)
            throws DatabaseNotExistException, CatalogException {
        return tables.listTables(databaseName);
    }

    /**
     * The Flink view of a table; for an object name {@code t$type} (for example {@code
     * t$snapshots}) the read-only Iceberg metadata table of that type over {@code t}.
     */
    @Override
    public CatalogBaseTable getTable(ObjectPath tablePath)
            throws TableNotExistException, CatalogException {
        return tables.getTable(tablePath);
    }

    @Override
    public boolean tableExists(ObjectPath tablePath) throws CatalogException {
        return tables.tableExists(tablePath);
    }

    /** Drops the table and purges its files (see {@link TableLifecycle}). */
    @Override
    public void dropTable(ObjectPath tablePath, boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException {
        tables.dropTable(tablePath, ignoreIfNotExists);
    }

    @Override
    public void renameTable(ObjectPath tablePath, String newTableName, boolean ignoreIfNotExists)
            throws TableNotExistException, TableAlreadyExistException, CatalogException {
        tables.renameTable(tablePath, newTableName, ignoreIfNotExists);
    }

    @Override
    public void createTable(ObjectPath tablePath, CatalogBaseTable table, boolean ignoreIfExists)
            throws TableAlreadyExistException, DatabaseNotExistException, CatalogException {
        tables.createTable(tablePath, table, ignoreIfExists);
    }

    /**
     * Applies {@code ALTER TABLE} changes in one Iceberg transaction; see {@link
     * TableChangeApplier}.
     */
    @Override
    public void alterTable(
            ObjectPath tablePath,
            CatalogBaseTable newTable,
            List<TableChange> tableChanges,
            boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException {
        if (newTable.getTableKind() == CatalogBaseTable.TableKind.VIEW) {
            views.replaceView(tablePath, newTable, ignoreIfNotExists);
            return;
        }
        alterations.alterTable(tablePath, newTable, tableChanges, ignoreIfNotExists);
    }

    /**
     * Applies a new table definition given without its list of changes: option changes are applied;
     * a different schema or partitioning is rejected (use {@code ALTER TABLE ADD / MODIFY / DROP}).
     */
    @Override
    public void alterTable(
            ObjectPath tablePath, CatalogBaseTable newTable, boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException {
        if (newTable.getTableKind() == CatalogBaseTable.TableKind.VIEW) {
            views.replaceView(tablePath, newTable, ignoreIfNotExists);
            return;
        }
        alterations.alterTable(tablePath, newTable, ignoreIfNotExists);
    }

    // ------------------------------------------------------------------ views

    /** The Iceberg views of a database; empty where the Iceberg catalog stores no views. */
    @Override
    public List<String> listViews(String databaseName)
            throws DatabaseNotExistException, CatalogException {
        return views.listViews(databaseName);
    }

    // ------------------------------------------------------------------ partitions

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath tablePath)
            throws TableNotExistException, TableNotPartitionedException, CatalogException {
        return partitions.listPartitions(tablePath);
    }

    @Override
    public List<CatalogPartitionSpec> listPartitions(
            ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws TableNotExistException,
                    TableNotPartitionedException,
                    PartitionSpecInvalidException,
                    CatalogException {
        return partitions.listPartitions(tablePath, partitionSpec);
    }

    @Override
    public CatalogPartition getPartition(ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws PartitionNotExistException, CatalogException {
        return partitions.getPartition(tablePath, partitionSpec);
    }

    @Override
    public boolean partitionExists(ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws CatalogException {
        return partitions.partitionExists(tablePath, partitionSpec);
    }

    /** Name, default database and the loader, with secret values masked. */
    @Override
    public String toString() {
        return "FlinkCatalog{name="
                + getName()
                + ", defaultDatabase="
                + getDefaultDatabase()
                + ", baseNamespace="
                + connection.databases().base()
                + ", cacheEnabled="
                + connection.settings().cacheEnabled()
                + ", loader="
                + connection.loader()
                + "}";
    }
}
