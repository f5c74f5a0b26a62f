package dev.icebergflink.table.catalog;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import dev.icebergflink.table.FlinkDynamicTableFactory;
import dev.icebergflink.table.metadata.MetadataTableName;
import dev.icebergflink.table.metadata.MetadataTables;
import dev.icebergflink.table.options.CatalogSettings;
import dev.icebergflink.table.options.DatabaseMapping;
import dev.icebergflink.table.options.QueryPaths;
import dev.icebergflink.util.ContextClassLoaders;
import dev.icebergflink.util.SecretMasking;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.AbstractCatalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogFunction;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionImpl;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.FunctionNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionSpecInvalidException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotPartitionedException;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.factories.Factory;
import org.apache.iceberg.CachingCatalog;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Flink catalog over an Iceberg catalog: Flink databases are Iceberg namespaces (under the
 * optional {@code base-namespace}) and Flink tables are Iceberg tables.
 *
 * <p>It exists so that SQL users can create, inspect, change and drop Iceberg databases and tables
 * with Flink DDL. The rules:
 *
 * <ul>
 *   <li><b>Databases</b>: {@code CREATE DATABASE} stores its comment as the namespace property
 *       {@code comment} and its properties as namespace properties (catalogs that keep no namespace
 *       properties, like the Hadoop catalog, reject both); {@code ALTER DATABASE} sets and removes
 *       properties; {@code DROP DATABASE} fails on a non-empty database unless {@code CASCADE},
 *       which drops its tables first. The default database is created when the catalog opens, if it
 *       is missing and the catalog allows it.
 *   <li><b>Tables</b>: see {@link TableDefinitions} for how a {@code CREATE TABLE} maps to Iceberg
 *       and back, and {@link TableChangeApplier} for {@code ALTER TABLE}. {@code ALTER TABLE ...
 *       RENAME TO} renames within the catalog where the Iceberg catalog can (the Hadoop catalog
 *       cannot).
 *   <li><b>{@code DROP TABLE}</b> purges: it removes the table from the catalog and deletes its
 *       metadata and data files, as Iceberg's {@code Catalog#dropTable(TableIdentifier)} does by
 *       default and as users of Iceberg's Flink connector expect. Data files are kept when the
 *       table property {@code gc.enabled} is {@code false} (Iceberg's rule for shared files).
 *   <li><b>Views, functions, partition and statistics changes</b> are not stored: views and
 *       functions list as empty; creating them fails with a message saying so; statistics are
 *       unknown. {@code SHOW PARTITIONS} lists the identity partitions of the live data files.
 * </ul>
 *
 * <p>With {@code cache-enabled} (the default) tables are loaded through Iceberg's {@link
 * CachingCatalog} and refreshed on every {@link #getTable}, so Flink always plans against the
 * current metadata.
 *
 * <p>Tables are read (and written) through {@link FlinkDynamicTableFactory}, which {@link
 * #getFactory()} hands to Flink; {@code t$type} object names address Iceberg's read-only metadata
 * tables ({@code t$snapshots}, {@code t$files}, ...).
 */
@Internal
public class FlinkCatalog extends AbstractCatalog {

    private static final Logger LOG = LoggerFactory.getLogger(FlinkCatalog.class);

    private final CatalogSettings settings;
    private final CatalogLoader loader;
    private final DatabaseMapping databases;
    private final boolean allowQueryPaths;

    private Catalog original;
    private Catalog catalog;
    private SupportsNamespaces namespaces;

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
        this.settings = settings;
        this.loader = loader;
        this.databases = new DatabaseMapping(settings.baseNamespace());
        this.allowQueryPaths = allowQueryPaths;
    }

    /** The loader of the Iceberg catalog behind this Flink catalog; it may hold secrets. */
    public CatalogLoader catalogLoader() {
        return loader;
    }

    /** A loader of the Iceberg table behind a Flink table path, for sources and sinks. */
    public TableLoader tableLoader(ObjectPath path) {
        return TableLoader.fromCatalog(loader, databases.identifier(path));
    }

    /** The Iceberg identifier of a Flink table path, with the base namespace. */
    public TableIdentifier toIdentifier(ObjectPath path) {
        return databases.identifier(path);
    }

    /** The open Iceberg catalog (cached when caching is on). */
    public Catalog icebergCatalog() {
        requireOpen();
        return catalog;
    }

    @Override
    public void open() throws CatalogException {
        if (catalog != null) {
            return;
        }
        try {
            // Iceberg loads classes lazily through the context class loader (S3FileIO's HTTP
            // client): every catalog call runs with the catalog's own loader, which sees our jars.
            original = ContextClassLoaders.withOwnClassLoader(loader.loadCatalog());
        } catch (RuntimeException e) {
            throw new CatalogException(
                    String.format(
                            "Cannot open Iceberg catalog '%s' (%s): %s",
                            getName(), describeLoader(), e.getMessage()),
                    e);
        }
        catalog =
                settings.cacheEnabled()
                        ? CachingCatalog.wrap(
                                original,
                                settings.cacheCaseSensitive(),
                                settings.cacheExpirationMs())
                        : original;
        namespaces = original instanceof SupportsNamespaces ns ? ns : null;
        createDefaultDatabaseIfMissing();
    }

    @Override
    public void close() throws CatalogException {
        Catalog toClose = original;
        original = null;
        catalog = null;
        namespaces = null;
        if (toClose instanceof Closeable closeable) {
            try {
                closeable.close();
            } catch (IOException e) {
                throw new CatalogException("Cannot close Iceberg catalog '" + getName() + "'", e);
            }
        }
    }

    private void createDefaultDatabaseIfMissing() {
        if (namespaces == null) {
            return;
        }
        Namespace namespace = databases.namespace(getDefaultDatabase());
        try {
            if (!namespaces.namespaceExists(namespace)) {
                namespaces.createNamespace(namespace, new HashMap<>());
                LOG.info("Created the default database '{}' of catalog '{}'", namespace, getName());
            }
        } catch (RuntimeException e) {
            LOG.warn(
                    "Catalog '{}': the default database '{}' is missing and cannot be created"
                            + " ({}); create it before using it",
                    getName(),
                    namespace,
                    e.toString());
        }
    }

    // ------------------------------------------------------------------ databases

    @Override
    public List<String> listDatabases() throws CatalogException {
        if (namespaces == null) {
            requireOpen();
            return List.of(getDefaultDatabase());
        }
        try {
            List<String> names = new ArrayList<>();
            for (Namespace namespace : namespaces.listNamespaces(databases.base())) {
                if (databases.isDatabase(namespace)) {
                    names.add(databases.database(namespace));
                }
            }
            return names;
        } catch (NoSuchNamespaceException e) {
            return List.of();
        } catch (RuntimeException e) {
            throw catalogError("list the databases", e);
        }
    }

    @Override
    public CatalogDatabase getDatabase(String databaseName)
            throws DatabaseNotExistException, CatalogException {
        if (namespaces == null) {
            requireDefaultDatabase(databaseName);
            return new CatalogDatabaseImpl(new HashMap<>(), null);
        }
        try {
            Map<String, String> properties =
                    new HashMap<>(
                            namespaces.loadNamespaceMetadata(databases.namespace(databaseName)));
            String comment = properties.remove(TableDefinitions.COMMENT);
            return new CatalogDatabaseImpl(properties, comment);
        } catch (NoSuchNamespaceException e) {
            throw new DatabaseNotExistException(getName(), databaseName, e);
        } catch (RuntimeException e) {
            throw catalogError("load database '" + databaseName + "'", e);
        }
    }

    @Override
    public boolean databaseExists(String databaseName) throws CatalogException {
        if (namespaces == null) {
            requireOpen();
            return getDefaultDatabase().equals(databaseName);
        }
        try {
            return namespaces.namespaceExists(databases.namespace(databaseName));
        } catch (RuntimeException e) {
            throw catalogError("check database '" + databaseName + "'", e);
        }
    }

    @Override
    public void createDatabase(String name, CatalogDatabase database, boolean ignoreIfExists)
            throws DatabaseAlreadyExistException, CatalogException {
        SupportsNamespaces ns = requireNamespaces("create database '" + name + "'");
        if (databaseExists(name)) {
            if (ignoreIfExists) {
                return;
            }
            throw new DatabaseAlreadyExistException(getName(), name);
        }
        Map<String, String> metadata = new HashMap<>(database.getProperties());
        if (database.getComment() != null && !database.getComment().isEmpty()) {
            metadata.put(TableDefinitions.COMMENT, database.getComment());
        }
        try {
            ns.createNamespace(databases.namespace(name), metadata);
        } catch (AlreadyExistsException e) {
            if (!ignoreIfExists) {
                throw new DatabaseAlreadyExistException(getName(), name, e);
            }
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            throw new ValidationException(
                    String.format(
                            "Cannot create database '%s' in catalog '%s' with properties %s: %s."
                                    + " This Iceberg catalog may not store database properties"
                                    + " or comments (the Hadoop catalog does not).",
                            name,
                            getName(),
                            SecretMasking.maskProperties(metadata).keySet(),
                            e.getMessage()),
                    e);
        } catch (RuntimeException e) {
            throw catalogError("create database '" + name + "'", e);
        }
    }

    @Override
    public void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade)
            throws DatabaseNotExistException, DatabaseNotEmptyException, CatalogException {
        SupportsNamespaces ns = requireNamespaces("drop database '" + name + "'");
        if (!databaseExists(name)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new DatabaseNotExistException(getName(), name);
        }
        Namespace namespace = databases.namespace(name);
        List<TableIdentifier> tables = catalog.listTables(namespace);
        if (!tables.isEmpty()) {
            if (!cascade) {
                throw new DatabaseNotEmptyException(getName(), name);
            }
            for (TableIdentifier table : tables) {
                catalog.dropTable(table, true);
            }
        }
        try {
            ns.dropNamespace(namespace);
        } catch (NamespaceNotEmptyException e) {
            throw new DatabaseNotEmptyException(getName(), name, e);
        } catch (NoSuchNamespaceException e) {
            if (!ignoreIfNotExists) {
                throw new DatabaseNotExistException(getName(), name, e);
            }
        } catch (RuntimeException e) {
            throw catalogError("drop database '" + name + "'", e);
        }
    }

    @Override
    public void alterDatabase(String name, CatalogDatabase newDatabase, boolean ignoreIfNotExists)
            throws DatabaseNotExistException, CatalogException {
        SupportsNamespaces ns = requireNamespaces("alter database '" + name + "'");
        Namespace namespace = databases.namespace(name);
        Map<String, String> current;
        try {
            current = ns.loadNamespaceMetadata(namespace);
        } catch (NoSuchNamespaceException e) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new DatabaseNotExistException(getName(), name, e);
        }
        Map<String, String> desired = new HashMap<>(newDatabase.getProperties());
        if (newDatabase.getComment() != null && !newDatabase.getComment().isEmpty()) {
            desired.put(TableDefinitions.COMMENT, newDatabase.getComment());
        }
        Map<String, String> updates = new HashMap<>();
        desired.forEach(
                (key, value) -> {
                    if (!Objects.equals(current.get(key), value)) {
                        updates.put(key, value);
                    }
                });
        Set<String> removals = new HashSet<>(current.keySet());
        removals.removeAll(desired.keySet());
        try {
            if (!updates.isEmpty()) {
                ns.setProperties(namespace, updates);
            }
            if (!removals.isEmpty()) {
                ns.removeProperties(namespace, removals);
            }
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            throw new ValidationException(
                    String.format(
                            "Cannot alter database '%s' in catalog '%s': %s. This Iceberg catalog"
                                    + " may not store database properties (the Hadoop catalog"
                                    + " does not).",
                            name, getName(), e.getMessage()),
                    e);
        } catch (RuntimeException e) {
            throw catalogError("alter database '" + name + "'", e);
        }
    }

    // ------------------------------------------------------------------ tables

    @Override
    public List<String> listTables(String databaseName)
            throws DatabaseNotExistException, CatalogException {
        if (!databaseExists(databaseName)) {
            throw new DatabaseNotExistException(getName(), databaseName);
        }
        try {
            return catalog.listTables(databases.namespace(databaseName)).stream()
                    .map(TableIdentifier::name)
                    .toList();
        } catch (NoSuchNamespaceException e) {
            throw new DatabaseNotExistException(getName(), databaseName, e);
        } catch (RuntimeException e) {
            throw catalogError("list the tables of database '" + databaseName + "'", e);
        }
    }

    /** Always empty: Iceberg views are not exposed to Flink. */
    @Override
    public List<String> listViews(String databaseName)
            throws DatabaseNotExistException, CatalogException {
        return noObjectsIn(databaseName);
    }

    /**
     * The Flink view of a table; for an object name {@code t$type} (for example {@code
     * t$snapshots}) the read-only Iceberg metadata table of that type over {@code t}.
     */
    @Override
    public CatalogBaseTable getTable(ObjectPath tablePath)
            throws TableNotExistException, CatalogException {
        Optional<MetadataTableName> metadata;
        try {
            metadata = MetadataTableName.parse(tablePath.getObjectName());
        } catch (IllegalArgumentException e) {
            throw new TableNotExistException(getName(), tablePath, e);
        }
        if (metadata.isPresent()) {
            ObjectPath base = new ObjectPath(tablePath.getDatabaseName(), metadata.get().table());
            Table metadataTable = MetadataTables.open(loadTable(base), metadata.get().type());
            return MetadataTables.toCatalogTable(qualifiedName(tablePath), metadataTable);
        }
        return TableDefinitions.toCatalogTable(loadTable(tablePath));
    }

    /**
     * The options Flink sees for an Iceberg table of this catalog (its properties and format
     * version), so that the table factory can tell query hints from table options.
     */
    public static Map<String, String> flinkOptions(Table table) {
        return TableDefinitions.toCatalogTable(table).getOptions();
    }

    /** The factory of this catalog's table sources and sinks. */
    @Override
    public Optional<Factory> getFactory() {
        return Optional.of(new FlinkDynamicTableFactory(this));
    }

    /**
     * The Iceberg table behind a Flink table path, refreshed so that it shows the latest metadata.
     */
    public Table loadTable(ObjectPath tablePath) throws TableNotExistException {
        requireOpen();
        try {
            Table table = catalog.loadTable(databases.identifier(tablePath));
            if (settings.cacheEnabled()) {
                table.refresh();
            }
            return table;
        } catch (NoSuchTableException e) {
            throw new TableNotExistException(getName(), tablePath, e);
        } catch (RuntimeException e) {
            throw catalogError("load table " + tablePath.getFullName(), e);
        }
    }

    @Override
    public boolean tableExists(ObjectPath tablePath) throws CatalogException {
        requireOpen();
        try {
            return catalog.tableExists(databases.identifier(tablePath));
        } catch (RuntimeException e) {
            throw catalogError("check table " + tablePath.getFullName(), e);
        }
    }

    /** Drops the table and purges its files; see the class comment. */
    @Override
    public void dropTable(ObjectPath tablePath, boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException {
        requireOpen();
        boolean dropped;
        try {
            dropped = catalog.dropTable(databases.identifier(tablePath), true);
        } catch (NoSuchTableException e) {
            dropped = false;
        } catch (RuntimeException e) {
            throw catalogError("drop table " + tablePath.getFullName(), e);
        }
        if (!dropped && !ignoreIfNotExists) {
            throw new TableNotExistException(getName(), tablePath);
        }
    }

    @Override
    public void renameTable(ObjectPath tablePath, String newTableName, boolean ignoreIfNotExists)
            throws TableNotExistException, TableAlreadyExistException, CatalogException {
        requireOpen();
        TableIdentifier from = databases.identifier(tablePath);
        TableIdentifier to = TableIdentifier.of(from.namespace(), newTableName);
        try {
            catalog.renameTable(from, to);
        } catch (NoSuchTableException e) {
            if (!ignoreIfNotExists) {
                throw new TableNotExistException(getName(), tablePath, e);
            }
        } catch (AlreadyExistsException e) {
            throw new TableAlreadyExistException(
                    getName(), new ObjectPath(tablePath.getDatabaseName(), newTableName), e);
        } catch (UnsupportedOperationException e) {
            throw new CatalogException(
                    String.format(
                            "Cannot rename table %s to %s: the Iceberg catalog of '%s' (%s) does"
                                    + " not support renaming tables: %s",
                            tablePath.getFullName(),
                            newTableName,
                            getName(),
                            loader.implementation(),
                            e.getMessage()),
                    e);
        } catch (RuntimeException e) {
            throw catalogError("rename table " + tablePath.getFullName(), e);
        }
    }

    @Override
    public void createTable(ObjectPath tablePath, CatalogBaseTable table, boolean ignoreIfExists)
            throws TableAlreadyExistException, DatabaseNotExistException, CatalogException {
        requireOpen();
        if (!allowQueryPaths) {
            QueryPaths.rejectTablePaths(qualifiedName(tablePath), table.getOptions().keySet());
        }
        TableDefinitions.NewTable newTable =
                TableDefinitions.toNewTable(qualifiedName(tablePath), table);
        if (namespaces != null && !databaseExists(tablePath.getDatabaseName())) {
            throw new DatabaseNotExistException(getName(), tablePath.getDatabaseName());
        }
        try {
            Catalog.TableBuilder builder =
                    catalog.buildTable(databases.identifier(tablePath), newTable.schema())
                            .withPartitionSpec(newTable.spec())
                            .withProperties(newTable.properties());
            if (newTable.location() != null) {
                builder.withLocation(newTable.location());
            }
            builder.create();
        } catch (AlreadyExistsException e) {
            if (!ignoreIfExists) {
                throw new TableAlreadyExistException(getName(), tablePath, e);
            }
        } catch (NoSuchNamespaceException e) {
            throw new DatabaseNotExistException(getName(), tablePath.getDatabaseName(), e);
        } catch (IllegalArgumentException
                | UnsupportedOperationException
                | org.apache.iceberg.exceptions.ValidationException e) {
            throw new ValidationException(
                    String.format(
                            "Cannot create table %s: %s", qualifiedName(tablePath), e.getMessage()),
                    e);
        } catch (RuntimeException e) {
            throw catalogError("create table " + tablePath.getFullName(), e);
        }
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
        Table table;
        try {
            table = loadTable(tablePath);
        } catch (TableNotExistException e) {
            if (ignoreIfNotExists) {
                return;
            }
            throw e;
        }
        checkIsTable(tablePath, newTable);
        if (!allowQueryPaths) {
            QueryPaths.rejectTablePaths(
                    qualifiedName(tablePath),
                    tableChanges.stream()
                            .filter(TableChange.SetOption.class::isInstance)
                            .map(change -> ((TableChange.SetOption) change).getKey())
                            .toList());
        }
        try {
            TableChangeApplier.apply(qualifiedName(tablePath), table, tableChanges);
        } catch (ValidationException e) {
            throw e;
        } catch (RuntimeException e) {
            throw catalogError("alter table " + tablePath.getFullName(), e);
        }
    }

    /**
     * Applies a new table definition given without its list of changes: option changes are applied;
     * a different schema or partitioning is rejected (use {@code ALTER TABLE ADD / MODIFY / DROP}).
     */
    @Override
    public void alterTable(
            ObjectPath tablePath, CatalogBaseTable newTable, boolean ignoreIfNotExists)
            throws TableNotExistException, CatalogException {
        Table table;
        try {
            table = loadTable(tablePath);
        } catch (TableNotExistException e) {
            if (ignoreIfNotExists) {
                return;
            }
            throw e;
        }
        checkIsTable(tablePath, newTable);
        CatalogTable current = TableDefinitions.toCatalogTable(table);
        CatalogTable desired = (CatalogTable) newTable;
        if (!allowQueryPaths) {
            QueryPaths.rejectTablePaths(
                    qualifiedName(tablePath),
                    desired.getOptions().entrySet().stream()
                            .filter(
                                    option ->
                                            !option.getValue()
                                                    .equals(
                                                            current.getOptions()
                                                                    .get(option.getKey())))
                            .map(Map.Entry::getKey)
                            .toList());
        }
        if (desired instanceof ResolvedCatalogTable resolved) {
            TableDefinitions.checkPhysicalOnly(
                    qualifiedName(tablePath), resolved.getResolvedSchema());
            boolean sameSchema;
            try {
                sameSchema =
                        FlinkSchemaUtil.convert(
                                        FlinkSchemaUtil.convert(resolved.getResolvedSchema()))
                                .equals(FlinkSchemaUtil.convert(table.schema()));
            } catch (IllegalArgumentException e) {
                throw new ValidationException(
                        "Cannot alter table " + qualifiedName(tablePath) + ": " + e.getMessage(),
                        e);
            }
            if (!sameSchema) {
                throw new ValidationException(
                        String.format(
                                "Cannot alter table %s: the new definition changes the schema;"
                                        + " change columns with ALTER TABLE ADD / MODIFY / DROP /"
                                        + " RENAME",
                                qualifiedName(tablePath)));
            }
        }
        if (!current.getPartitionKeys().equals(desired.getPartitionKeys())) {
            throw new ValidationException(
                    String.format(
                            "Cannot alter table %s: partition keys cannot change (from %s to %s)",
                            qualifiedName(tablePath),
                            current.getPartitionKeys(),
                            desired.getPartitionKeys()));
        }
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
        TableChangeApplier.apply(qualifiedName(tablePath), table, changes);
    }

    private void checkIsTable(ObjectPath tablePath, CatalogBaseTable newTable) {
        if (!(newTable instanceof CatalogTable)
                || newTable.getTableKind() != CatalogBaseTable.TableKind.TABLE) {
            throw new ValidationException(
                    String.format(
                            "Cannot alter %s into a %s: an Iceberg catalog stores tables only",
                            qualifiedName(tablePath), newTable.getTableKind()));
        }
    }

    // ------------------------------------------------------------------ partitions

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath tablePath)
            throws TableNotExistException, TableNotPartitionedException, CatalogException {
        Table table = loadTable(tablePath);
        return PartitionLister.list(table, partitionKeys(tablePath, table), Map.of());
    }

    @Override
    public List<CatalogPartitionSpec> listPartitions(
            ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws TableNotExistException,
                    TableNotPartitionedException,
                    PartitionSpecInvalidException,
                    CatalogException {
        Table table = loadTable(tablePath);
        List<String> keys = partitionKeys(tablePath, table);
        if (!keys.containsAll(partitionSpec.getPartitionSpec().keySet())) {
            throw new PartitionSpecInvalidException(getName(), keys, tablePath, partitionSpec);
        }
        return PartitionLister.list(table, keys, partitionSpec.getPartitionSpec());
    }

    @Override
    public List<CatalogPartitionSpec> listPartitionsByFilter(
            ObjectPath tablePath, List<Expression> filters) throws CatalogException {
        throw unsupported("list partitions by filter");
    }

    @Override
    public CatalogPartition getPartition(ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws PartitionNotExistException, CatalogException {
        if (!partitionExists(tablePath, partitionSpec)) {
            throw new PartitionNotExistException(getName(), tablePath, partitionSpec);
        }
        return new CatalogPartitionImpl(new HashMap<>(), null);
    }

    @Override
    public boolean partitionExists(ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws CatalogException {
        try {
            Table table = loadTable(tablePath);
            List<String> keys = partitionKeys(tablePath, table);
            if (!new HashSet<>(keys).equals(partitionSpec.getPartitionSpec().keySet())) {
                return false;
            }
            return !PartitionLister.list(table, keys, partitionSpec.getPartitionSpec()).isEmpty();
        } catch (TableNotExistException | TableNotPartitionedException e) {
            return false;
        }
    }

    private List<String> partitionKeys(ObjectPath tablePath, Table table)
            throws TableNotPartitionedException {
        PartitionSpec spec = table.spec();
        List<String> keys = TableDefinitions.identityPartitionKeys(spec, table.schema());
        if (keys.isEmpty()) {
            throw new TableNotPartitionedException(getName(), tablePath);
        }
        return keys;
    }

    @Override
    public void createPartition(
            ObjectPath tablePath,
            CatalogPartitionSpec partitionSpec,
            CatalogPartition partition,
            boolean ignoreIfExists)
            throws CatalogException {
        throw unsupported("create partitions (Iceberg partitions appear with their data)");
    }

    @Override
    public void dropPartition(
            ObjectPath tablePath, CatalogPartitionSpec partitionSpec, boolean ignoreIfNotExists)
            throws CatalogException {
        throw unsupported("drop partitions (delete the rows instead)");
    }

    @Override
    public void alterPartition(
            ObjectPath tablePath,
            CatalogPartitionSpec partitionSpec,
            CatalogPartition newPartition,
            boolean ignoreIfNotExists)
            throws CatalogException {
        throw unsupported("alter partitions");
    }

    // ------------------------------------------------------------------ functions

    /** Always empty: functions are not stored in Iceberg catalogs. */
    @Override
    public List<String> listFunctions(String dbName)
            throws DatabaseNotExistException, CatalogException {
        return noObjectsIn(dbName);
    }

    @Override
    public CatalogFunction getFunction(ObjectPath functionPath)
            throws FunctionNotExistException, CatalogException {
        throw new FunctionNotExistException(getName(), functionPath);
    }

    @Override
    public boolean functionExists(ObjectPath functionPath) throws CatalogException {
        return false;
    }

    @Override
    public void createFunction(
            ObjectPath functionPath, CatalogFunction function, boolean ignoreIfExists)
            throws CatalogException {
        throw unsupported("store functions (create them as TEMPORARY or in another catalog)");
    }

    @Override
    public void alterFunction(
            ObjectPath functionPath, CatalogFunction newFunction, boolean ignoreIfNotExists)
            throws CatalogException {
        throw unsupported("store functions");
    }

    @Override
    public void dropFunction(ObjectPath functionPath, boolean ignoreIfNotExists)
            throws FunctionNotExistException, CatalogException {
        if (!ignoreIfNotExists) {
            throw new FunctionNotExistException(getName(), functionPath);
        }
    }

    // ------------------------------------------------------------------ statistics

    @Override
    public CatalogTableStatistics getTableStatistics(ObjectPath tablePath) throws CatalogException {
        return CatalogTableStatistics.UNKNOWN;
    }

    @Override
    public CatalogColumnStatistics getTableColumnStatistics(ObjectPath tablePath)
            throws CatalogException {
        return CatalogColumnStatistics.UNKNOWN;
    }

    @Override
    public CatalogTableStatistics getPartitionStatistics(
            ObjectPath tablePath, CatalogPartitionSpec partitionSpec) throws CatalogException {
        return CatalogTableStatistics.UNKNOWN;
    }

    @Override
    public CatalogColumnStatistics getPartitionColumnStatistics(
            ObjectPath tablePath, CatalogPartitionSpec partitionSpec) throws CatalogException {
        return CatalogColumnStatistics.UNKNOWN;
    }

    @Override
    public void alterTableStatistics(
            ObjectPath tablePath, CatalogTableStatistics tableStatistics, boolean ignoreIfNotExists)
            throws CatalogException {
        throw unsupported("store table statistics");
    }

    @Override
    public void alterTableColumnStatistics(
            ObjectPath tablePath,
            CatalogColumnStatistics columnStatistics,
            boolean ignoreIfNotExists)
            throws CatalogException {
        throw unsupported("store column statistics");
    }

    @Override
    public void alterPartitionStatistics(
            ObjectPath tablePath,
            CatalogPartitionSpec partitionSpec,
            CatalogTableStatistics partitionStatistics,
            boolean ignoreIfNotExists)
            throws CatalogException {
        throw unsupported("store partition statistics");
    }

    @Override
    public void alterPartitionColumnStatistics(
            ObjectPath tablePath,
            CatalogPartitionSpec partitionSpec,
            CatalogColumnStatistics columnStatistics,
            boolean ignoreIfNotExists)
            throws CatalogException {
        throw unsupported("store partition column statistics");
    }

    // ------------------------------------------------------------------ helpers

    /** Name, default database and the loader, with secret values masked. */
    @Override
    public String toString() {
        return "FlinkCatalog{name="
                + getName()
                + ", defaultDatabase="
                + getDefaultDatabase()
                + ", baseNamespace="
                + databases.base()
                + ", cacheEnabled="
                + settings.cacheEnabled()
                + ", loader="
                + loader
                + "}";
    }

    private String describeLoader() {
        return loader.type() + ", " + loader.implementation();
    }

    private String qualifiedName(ObjectPath path) {
        return getName() + "." + path.getFullName();
    }

    private void requireOpen() {
        if (catalog == null) {
            throw new CatalogException(
                    "Iceberg catalog '" + getName() + "' is not open; call open() first");
        }
    }

    private SupportsNamespaces requireNamespaces(String action) {
        requireOpen();
        if (namespaces == null) {
            throw new CatalogException(
                    String.format(
                            "Cannot %s: the Iceberg catalog of '%s' (%s) has no namespaces, so it"
                                    + " has only the database '%s'",
                            action, getName(), loader.implementation(), getDefaultDatabase()));
        }
        return namespaces;
    }

    private void requireDefaultDatabase(String databaseName) throws DatabaseNotExistException {
        requireOpen();
        if (!getDefaultDatabase().equals(databaseName)) {
            throw new DatabaseNotExistException(getName(), databaseName);
        }
    }

    /** The empty listing of object kinds Iceberg does not store, for an existing database. */
    private List<String> noObjectsIn(String databaseName) throws DatabaseNotExistException {
        if (!databaseExists(databaseName)) {
            throw new DatabaseNotExistException(getName(), databaseName);
        }
        return List.of();
    }

    private CatalogException catalogError(String action, RuntimeException e) {
        return new CatalogException(
                String.format("Catalog '%s' cannot %s: %s", getName(), action, e.getMessage()), e);
    }

    private CatalogException unsupported(String what) {
        return new CatalogException(
                String.format("Iceberg catalog '%s' cannot %s", getName(), what));
    }

    private static String emptyToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }
}
