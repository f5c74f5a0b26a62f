package dev.icebergflink.table;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import dev.icebergflink.table.options.CatalogLoaders;
import dev.icebergflink.table.options.ConnectorTableOptions;
import dev.icebergflink.util.ContextClassLoaders;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reaches the Iceberg table behind a {@code 'connector'='iceberg'} table, creating its database and
 * the table on first use when they are missing, as Iceberg's own connector tables do.
 *
 * <p>It exists so that the source and the sink find (or create) the table the same way. A created
 * table takes the declared physical columns (the primary key becomes its identifier fields), the
 * {@code PARTITIONED BY} keys as identity partitions, the table-property options ({@link
 * ConnectorTableOptions#TABLE_PROPERTY_PREFIXES}) and the {@code location} option.
 */
@Internal
public final class ConnectorTables {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectorTables.class);

    /**
     * The loader and the current state of a connector table's Iceberg table.
     *
     * @param loader a serializable loader of the table
     * @param table the table as loaded now
     * @param identifier the Iceberg identifier
     */
    public record Resolved(TableLoader loader, Table table, TableIdentifier identifier) {}

    private ConnectorTables() {}

    /**
     * Loads the Iceberg table of a connector table, creating the namespace and the table when
     * missing.
     *
     * @throws ValidationException when the catalog cannot be reached or the table cannot be created
     *     from the declaration
     */
    public static Resolved loadOrCreate(
            ObjectIdentifier flinkTable,
            ResolvedCatalogTable declaration,
            ConnectorTableOptions.Parsed options,
            ReadableConfig flinkConfig) {
        String name = flinkTable.asSummaryString();
        CatalogLoader catalogLoader = CatalogLoaders.of(options.catalog(), flinkConfig);
        List<String> levels = new ArrayList<>(List.of(options.catalog().baseNamespace().levels()));
        levels.add(options.database());
        TableIdentifier identifier =
                TableIdentifier.of(Namespace.of(levels.toArray(new String[0])), options.table());
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
            return new Resolved(
                    TableLoader.fromCatalog(catalogLoader, identifier), table, identifier);
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
        PartitionSpec.Builder spec = PartitionSpec.builderFor(schema);
        for (String key : declaration.getPartitionKeys()) {
            try {
                spec.identity(key);
            } catch (IllegalArgumentException e) {
                throw new ValidationException(
                        String.format(
                                "Table %s: cannot partition Iceberg table %s by '%s': %s",
                                name, identifier, key, e.getMessage()),
                        e);
            }
        }
        Catalog.TableBuilder builder =
                catalog.buildTable(identifier, schema)
                        .withPartitionSpec(spec.build())
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
