package dev.icebergflink.table.catalog;

import dev.icebergflink.table.options.DatabaseMapping;
import dev.icebergflink.util.SecretMasking;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The database operations of a {@link FlinkCatalog}: Flink databases are the Iceberg namespaces
 * directly under the base namespace.
 *
 * <p>It exists to keep the database rules in one place: {@code CREATE DATABASE} stores its comment
 * as the namespace property {@code comment} and its properties as namespace properties (catalogs
 * that keep no namespace properties, like the Hadoop catalog, reject both); {@code ALTER DATABASE}
 * sets and removes properties; {@code DROP DATABASE} fails on a non-empty database unless {@code
 * CASCADE}, which drops its tables first. A catalog without namespaces has only its default
 * database. The default database is created when the catalog opens, if it is missing and the
 * catalog allows it.
 */
final class DatabaseOperations {

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseOperations.class);

    private final CatalogConnection connection;
    private final DatabaseMapping databases;

    DatabaseOperations(CatalogConnection connection) {
        this.connection = connection;
        this.databases = connection.databases();
    }

    void createDefaultDatabaseIfMissing() {
        SupportsNamespaces namespaces = connection.namespacesOrNull();
        if (namespaces == null) {
            return;
        }
        Namespace namespace = databases.namespace(connection.defaultDatabase());
        try {
            if (!namespaces.namespaceExists(namespace)) {
                namespaces.createNamespace(namespace, new HashMap<>());
                LOG.info(
                        "Created the default database '{}' of catalog '{}'",
                        namespace,
                        connection.name());
            }
        } catch (RuntimeException e) {
            LOG.warn(
                    "Catalog '{}': the default database '{}' is missing and cannot be created"
                            + " ({}); create it before using it",
                    connection.name(),
                    namespace,
                    e.toString());
        }
    }

    List<String> listDatabases() throws CatalogException {
        SupportsNamespaces namespaces = connection.namespacesOrNull();
        if (namespaces == null) {
            return List.of(connection.defaultDatabase());
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
            throw connection.catalogError("list the databases", e);
        }
    }

    CatalogDatabase getDatabase(String databaseName)
            throws DatabaseNotExistException, CatalogException {
        SupportsNamespaces namespaces = connection.namespacesOrNull();
        if (namespaces == null) {
            if (!connection.defaultDatabase().equals(databaseName)) {
                throw new DatabaseNotExistException(connection.name(), databaseName);
            }
            return new CatalogDatabaseImpl(new HashMap<>(), null);
        }
        try {
            Map<String, String> properties =
                    new HashMap<>(
                            namespaces.loadNamespaceMetadata(databases.namespace(databaseName)));
            String comment = properties.remove(TableDefinitions.COMMENT);
            return new CatalogDatabaseImpl(properties, comment);
        } catch (NoSuchNamespaceException e) {
            throw new DatabaseNotExistException(connection.name(), databaseName, e);
        } catch (RuntimeException e) {
            throw connection.catalogError("load database '" + databaseName + "'", e);
        }
    }

    boolean databaseExists(String databaseName) throws CatalogException {
        SupportsNamespaces namespaces = connection.namespacesOrNull();
        if (namespaces == null) {
            return connection.defaultDatabase().equals(databaseName);
        }
        try {
            return namespaces.namespaceExists(databases.namespace(databaseName));
        } catch (RuntimeException e) {
            throw connection.catalogError("check database '" + databaseName + "'", e);
        }
    }

    /** Fails unless the database exists. */
    void requireDatabase(String databaseName) throws DatabaseNotExistException {
        if (!databaseExists(databaseName)) {
            throw new DatabaseNotExistException(connection.name(), databaseName);
        }
    }

    void createDatabase(String name, CatalogDatabase database, boolean ignoreIfExists)
            throws DatabaseAlreadyExistException, CatalogException {
        SupportsNamespaces ns = connection.requireNamespaces("create database '" + name + "'");
        if (databaseExists(name)) {
            if (ignoreIfExists) {
                return;
            }
            throw new DatabaseAlreadyExistException(connection.name(), name);
        }
        Map<String, String> metadata = new HashMap<>(database.getProperties());
        if (database.getComment() != null && !database.getComment().isEmpty()) {
            metadata.put(TableDefinitions.COMMENT, database.getComment());
        }
        try {
            ns.createNamespace(databases.namespace(name), metadata);
        } catch (AlreadyExistsException e) {
            if (!ignoreIfExists) {
                throw new DatabaseAlreadyExistException(connection.name(), name, e);
            }
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            throw new ValidationException(
                    String.format(
                            "Cannot create database '%s' in catalog '%s' with properties %s: %s."
                                    + " This Iceberg catalog may not store database properties"
                                    + " or comments (the Hadoop catalog does not).",
                            name,
                            connection.name(),
                            SecretMasking.maskProperties(metadata).keySet(),
                            e.getMessage()),
                    e);
        } catch (RuntimeException e) {
            throw connection.catalogError("create database '" + name + "'", e);
        }
    }

    void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade)
            throws DatabaseNotExistException, DatabaseNotEmptyException, CatalogException {
        SupportsNamespaces ns = connection.requireNamespaces("drop database '" + name + "'");
        if (!databaseExists(name)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new DatabaseNotExistException(connection.name(), name);
        }
        Namespace namespace = databases.namespace(name);
        List<TableIdentifier> tables = connection.catalog().listTables(namespace);
        List<TableIdentifier> views = connection.viewsIn(namespace);
        if (!tables.isEmpty() || !views.isEmpty()) {
            if (!cascade) {
                throw new DatabaseNotEmptyException(connection.name(), name);
            }
            for (TableIdentifier table : tables) {
                connection.catalog().dropTable(table, true);
            }
            for (TableIdentifier view : views) {
                connection.viewsOrNull().dropView(view);
            }
        }
        try {
            ns.dropNamespace(namespace);
        } catch (NamespaceNotEmptyException e) {
            throw new DatabaseNotEmptyException(connection.name(), name, e);
        } catch (NoSuchNamespaceException e) {
            if (!ignoreIfNotExists) {
                throw new DatabaseNotExistException(connection.name(), name, e);
            }
        } catch (RuntimeException e) {
            throw connection.catalogError("drop database '" + name + "'", e);
        }
    }

    void alterDatabase(String name, CatalogDatabase newDatabase, boolean ignoreIfNotExists)
            throws DatabaseNotExistException, CatalogException {
        SupportsNamespaces ns = connection.requireNamespaces("alter database '" + name + "'");
        Namespace namespace = databases.namespace(name);
        Map<String, String> current;
        try {
            current = ns.loadNamespaceMetadata(namespace);
        } catch (NoSuchNamespaceException e) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new DatabaseNotExistException(connection.name(), name, e);
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
                            name, connection.name(), e.getMessage()),
                    e);
        } catch (RuntimeException e) {
            throw connection.catalogError("alter database '" + name + "'", e);
        }
    }
}
