package dev.icebergflink.table.catalog;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import dev.icebergflink.table.options.CatalogSettings;
import dev.icebergflink.table.options.CopiedCatalogOption;
import dev.icebergflink.table.options.DatabaseMapping;
import dev.icebergflink.table.options.QueryPaths;
import dev.icebergflink.util.ContextClassLoaders;
import java.io.Closeable;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.iceberg.CachingCatalog;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.catalog.ViewCatalog;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;

/**
 * The Iceberg catalog behind one {@link FlinkCatalog} while it is open, and what every operation on
 * it shares: the mapping of Flink paths to Iceberg identifiers, loading a table, the path rule of
 * {@code table.exec.iceberg.allow-query-paths}, and the wording of errors.
 *
 * <p>It exists so that the database, table, alteration and partition operations of the catalog,
 * each in a class of its own, reach the same open catalog and fail the same way. With {@code
 * cache-enabled} tables are loaded through Iceberg's {@link CachingCatalog} and refreshed on every
 * load, so Flink always plans against the current metadata.
 */
final class CatalogConnection {

    private final String name;
    private final String defaultDatabase;
    private final CatalogSettings settings;
    private final CatalogLoader loader;
    private final DatabaseMapping databases;
    private final boolean allowQueryPaths;
    private final String instanceId = CopiedCatalogOption.newInstanceId();

    private Catalog original;
    private Catalog catalog;
    private SupportsNamespaces namespaces;

    CatalogConnection(CatalogSettings settings, CatalogLoader loader, boolean allowQueryPaths) {
        this.name = settings.catalogName();
        this.defaultDatabase = settings.defaultDatabase();
        this.settings = settings;
        this.loader = loader;
        this.databases = new DatabaseMapping(settings.baseNamespace());
        this.allowQueryPaths = allowQueryPaths;
    }

    /**
     * Opens the Iceberg catalog, unless it is open.
     *
     * @return whether it was opened now
     */
    boolean open() {
        if (catalog != null) {
            return false;
        }
        try {
            // Iceberg loads classes lazily through the context class loader (S3FileIO's HTTP
            // client): every catalog call runs with the catalog's own loader, which sees our jars.
            original = ContextClassLoaders.withOwnClassLoader(loader.loadCatalog());
        } catch (RuntimeException e) {
            throw new CatalogException(
                    String.format(
                            "Cannot open Iceberg catalog '%s' (%s, %s): %s",
                            name, loader.type(), loader.implementation(), e.getMessage()),
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
        CopiedCatalogOption.register(instanceId, loader);
        return true;
    }

    void close() {
        CopiedCatalogOption.unregister(instanceId);
        Catalog toClose = original;
        original = null;
        catalog = null;
        namespaces = null;
        if (toClose instanceof Closeable closeable) {
            try {
                closeable.close();
            } catch (IOException e) {
                throw new CatalogException("Cannot close Iceberg catalog '" + name + "'", e);
            }
        }
    }

    String name() {
        return name;
    }

    String defaultDatabase() {
        return defaultDatabase;
    }

    CatalogSettings settings() {
        return settings;
    }

    CatalogLoader loader() {
        return loader;
    }

    DatabaseMapping databases() {
        return databases;
    }

    /** The open Iceberg catalog (cached when caching is on). */
    Catalog catalog() {
        requireOpen();
        return catalog;
    }

    /** The open catalog's namespaces, or {@code null} when it has none (it has one database). */
    SupportsNamespaces namespacesOrNull() {
        requireOpen();
        return namespaces;
    }

    /**
     * The open catalog's views, or {@code null} when it stores none. The catalog itself, not the
     * caching wrapper, which caches tables only.
     */
    ViewCatalog viewsOrNull() {
        requireOpen();
        return original instanceof ViewCatalog views ? views : null;
    }

    /**
     * The views of a namespace; none when the catalog stores no views (also a REST server without
     * the view endpoints).
     *
     * @throws NoSuchNamespaceException when the namespace does not exist
     */
    List<TableIdentifier> viewsIn(Namespace namespace) {
        ViewCatalog views = viewsOrNull();
        if (views == null) {
            return List.of();
        }
        try {
            return views.listViews(namespace);
        } catch (UnsupportedOperationException e) {
            return List.of();
        }
    }

    /** The open catalog's namespaces, for {@code action}; fails when it has none. */
    SupportsNamespaces requireNamespaces(String action) {
        requireOpen();
        if (namespaces == null) {
            throw new CatalogException(
                    String.format(
                            "Cannot %s: the Iceberg catalog of '%s' (%s) has no namespaces, so it"
                                    + " has only the database '%s'",
                            action, name, loader.implementation(), defaultDatabase));
        }
        return namespaces;
    }

    void requireOpen() {
        if (catalog == null) {
            throw new CatalogException(
                    "Iceberg catalog '" + name + "' is not open; call open() first");
        }
    }

    /** A loader of the Iceberg table behind a Flink table path, for sources and sinks. */
    TableLoader tableLoader(ObjectPath path) {
        return TableLoader.fromCatalog(loader, databases.identifier(path));
    }

    /**
     * The Iceberg table behind a Flink table path, refreshed so that it shows the latest metadata.
     */
    Table loadTable(ObjectPath tablePath) throws TableNotExistException {
        requireOpen();
        try {
            Table table = catalog.loadTable(databases.identifier(tablePath));
            if (settings.cacheEnabled()) {
                table.refresh();
            }
            return table;
        } catch (NoSuchTableException e) {
            throw new TableNotExistException(name, tablePath, e);
        } catch (RuntimeException e) {
            throw catalogError("load table " + tablePath.getFullName(), e);
        }
    }

    /**
     * Fails when the deployment forbids statements to choose paths and {@code keys}, the options a
     * {@code CREATE TABLE} or {@code ALTER TABLE} sets, include one.
     */
    void checkTablePaths(ObjectPath tablePath, Collection<String> keys) {
        if (!allowQueryPaths) {
            QueryPaths.rejectTablePaths(qualifiedName(tablePath), keys);
        }
    }

    /**
     * The options this catalog reports with the table at {@code path} besides its properties, so
     * that {@code CREATE TABLE ... LIKE} elsewhere gives a connector table over it ({@link
     * CopiedCatalogOption}).
     */
    Map<String, String> reportedOptions(ObjectPath path) {
        return CopiedCatalogOption.reported(
                instanceId, settings, path.getDatabaseName(), path.getObjectName());
    }

    String qualifiedName(ObjectPath path) {
        return name + "." + path.getFullName();
    }

    CatalogException catalogError(String action, RuntimeException e) {
        return new CatalogException(
                String.format("Catalog '%s' cannot %s: %s", name, action, e.getMessage()), e);
    }
}
