package dev.icebergflink;

import dev.icebergflink.util.ContextClassLoaders;
import java.io.Closeable;
import java.io.IOException;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;

/**
 * {@link TableLoader} of a table in a catalog: builds the catalog through a {@link CatalogLoader}
 * when opened and closes it, when it is {@link Closeable}, on {@link #close()}.
 */
final class CatalogTableLoader implements TableLoader {

    private static final long serialVersionUID = 1L;

    private final CatalogLoader catalogLoader;
    // TableIdentifier is not Serializable: keep its parts.
    private final String[] namespace;
    private final String tableName;

    private transient Catalog catalog;

    CatalogTableLoader(CatalogLoader catalogLoader, TableIdentifier identifier) {
        if (catalogLoader == null) {
            throw new IllegalArgumentException(
                    "A catalog table loader needs a CatalogLoader, e.g. CatalogLoader.hadoop(...)");
        }
        if (identifier == null) {
            throw new IllegalArgumentException(
                    String.format(
                            "A catalog table loader for catalog '%s' needs a table identifier,"
                                    + " e.g. TableIdentifier.of(\"db\", \"table\")",
                            catalogLoader.name()));
        }
        this.catalogLoader = catalogLoader;
        this.namespace = identifier.namespace().levels();
        this.tableName = identifier.name();
    }

    /** The identifier of the loaded table inside its catalog. */
    TableIdentifier identifier() {
        return TableIdentifier.of(Namespace.of(namespace), tableName);
    }

    @Override
    public synchronized void open() {
        if (catalog == null) {
            catalog = ContextClassLoaders.withOwnClassLoader(catalogLoader.loadCatalog());
        }
    }

    @Override
    public synchronized boolean isOpen() {
        return catalog != null;
    }

    @Override
    public synchronized Table loadTable() {
        open();
        TableIdentifier identifier = identifier();
        try {
            return catalog.loadTable(identifier);
        } catch (NoSuchTableException e) {
            if (e.getMessage() != null && e.getMessage().contains(identifier.toString())) {
                throw e;
            }
            throw new NoSuchTableException(
                    e,
                    "Table does not exist: %s in catalog '%s'",
                    identifier,
                    catalogLoader.name());
        }
    }

    @Override
    public synchronized void close() throws IOException {
        Catalog toClose = catalog;
        catalog = null;
        if (toClose instanceof Closeable closeable) {
            closeable.close();
        }
    }

    @Override
    @SuppressWarnings("MethodDoesntCallSuperMethod")
    public TableLoader clone() {
        // CatalogLoader is immutable, so the copy can share it.
        return new CatalogTableLoader(catalogLoader, identifier());
    }

    @Override
    public String toString() {
        return "CatalogTableLoader{catalog=" + catalogLoader + ", table=" + identifier() + "}";
    }
}
