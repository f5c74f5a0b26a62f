package dev.icebergflink.table.connector;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import dev.icebergflink.table.options.CatalogLoaders;
import dev.icebergflink.table.options.ConnectorTableOptions;
import dev.icebergflink.table.options.CopiedCatalogOption;
import dev.icebergflink.table.options.DatabaseMapping;
import dev.icebergflink.table.options.PartitionTerms;
import dev.icebergflink.table.options.QueryPaths;
import dev.icebergflink.util.ContextClassLoaders;
import java.io.Closeable;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves {@code CREATE TABLE t (...) WITH ('connector'='iceberg', ...)} tables: their options
 * name the Iceberg catalog and table ({@link ConnectorTableOptions}); the database and the table
 * are created on first use when they are missing, as Iceberg's own connector tables do.
 *
 * <p>It exists so that the source and the sink find (or create) the table the same way. A created
 * table takes the declared physical columns (the primary key becomes its identifier fields), the
 * {@code PARTITIONED BY} keys as identity partitions, the table-property options ({@link
 * ConnectorTableOptions#TABLE_PROPERTY_PREFIXES}) and the {@code location} option. Every option of
 * a connector table is the statement's own, so all of them are checked against {@link QueryPaths}.
 */
@Internal
public final class ConnectorTableResolver implements IcebergTableResolver {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectorTableResolver.class);

    /**
     * Loads the Iceberg table of a connector table, creating the namespace and the table when
     * missing.
     *
     * @throws ValidationException when an option is wrong, the catalog cannot be reached or the
     *     table cannot be created from the declaration
     */
    @Override
    public ResolvedIcebergTable resolve(
            ObjectIdentifier flinkTable, ResolvedCatalogTable declaration, ReadableConfig config) {
        String name = flinkTable.asSummaryString();
        // a table made with CREATE TABLE ... LIKE an Iceberg catalog's table names that catalog
        // in 'src-catalog'; while the catalog is open here, its own loader is used
        CopiedCatalogOption.Expanded copied =
                CopiedCatalogOption.expand(name, declaration.getOptions());
        Map<String, String> declared = copied.options();
        QueryPaths.checkTableOptions(
                name,
                copied.liveLoader() == null ? declared : withoutKeys(declared, copied.copied()),
                config);
        ConnectorTableOptions.Parsed options = ConnectorTableOptions.parse(flinkTable, declared);
        CatalogLoader catalogLoader =
                copied.liveLoader() != null
                        ? copied.liveLoader()
                        : CatalogLoaders.of(options.catalog(), config);
        TableIdentifier identifier =
                TableIdentifier.of(
                        new DatabaseMapping(options.catalog().baseNamespace())
                                .namespace(options.database()),
                        options.table());
        Catalog catalog;
        try {
            catalog = ContextClassLoaders.withOwnClassLoader(catalogLoader.loadCatalog());
        } catch (RuntimeException e) {
            throw new ValidationException(
                    String.format(
                            "Table %s: cannot open Iceberg catalog '%s': %s",
                            name, options.catalog().catalogName(), e.getMessage()),
                    e);
        }
        try {
            if (!catalog.tableExists(identifier)) {
                create(name, catalog, identifier, declaration, options);
            }
            Table table = catalog.loadTable(identifier);
            return new ResolvedIcebergTable(
                    TableLoader.fromCatalog(catalogLoader, identifier),
                    table,
                    options.engineOptions());
        } catch (ValidationException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ValidationException(
                    String.format(
                            "Table %s: cannot load or create Iceberg table %s in catalog '%s': %s",
                            name, identifier, options.catalog().catalogName(), e.getMessage()),
                    e);
        } finally {
            if (catalog instanceof Closeable closeable) {
                try {
                    closeable.close();
                } catch (IOException e) {
                    LOG.debug("Closing catalog {} failed", options.catalog().catalogName(), e);
                }
            }
        }
    }

    /** {@code options} without {@code keys}. */
    private static Map<String, String> withoutKeys(
            Map<String, String> options, java.util.Collection<String> keys) {
        Map<String, String> rest = new LinkedHashMap<>(options);
        keys.forEach(rest::remove);
        return rest;
    }

    private static void create(
            String name,
            Catalog catalog,
            TableIdentifier identifier,
            ResolvedCatalogTable declaration,
            ConnectorTableOptions.Parsed options) {
        if (catalog instanceof SupportsNamespaces namespaces
                && !namespaces.namespaceExists(identifier.namespace())) {
            try {
                namespaces.createNamespace(identifier.namespace(), new HashMap<>());
                LOG.info("Created Iceberg namespace {} for table {}", identifier.namespace(), name);
            } catch (AlreadyExistsException e) {
                // Created concurrently.
            }
        }
        Schema schema;
        try {
            schema = FlinkSchemaUtil.convert(declaration.getResolvedSchema());
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    String.format(
                            "Table %s: cannot create Iceberg table %s: %s",
                            name, identifier, e.getMessage()),
                    e);
        }
        PartitionSpec spec =
                PartitionTerms.spec(
                        String.format("Table %s: cannot create Iceberg table %s", name, identifier),
                        schema,
                        declaration.getPartitionKeys(),
                        options.partitioning(),
                        declaration.getDistribution());
        Catalog.TableBuilder builder =
                catalog.buildTable(identifier, schema)
                        .withPartitionSpec(spec)
                        .withProperties(options.tableProperties());
        if (options.location() != null) {
            builder.withLocation(options.location());
        }
        try {
            builder.create();
            LOG.info("Created Iceberg table {} for connector table {}", identifier, name);
        } catch (AlreadyExistsException e) {
            // Created concurrently.
        }
    }
}
