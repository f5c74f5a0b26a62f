package dev.icebergflink.table.catalog;

import dev.icebergflink.table.connector.IcebergTableResolver;
import dev.icebergflink.table.connector.ResolvedIcebergTable;
import dev.icebergflink.table.metadata.MetadataTableName;
import dev.icebergflink.table.options.CopiedCatalogOption;
import dev.icebergflink.table.options.QueryPaths;
import dev.icebergflink.table.options.SqlOptions;
import dev.icebergflink.table.staging.TableCreation;
import dev.icebergflink.table.staging.TableStaging;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.iceberg.Table;

/**
 * Resolves the tables of one {@link FlinkCatalog} for the table factory the catalog hands to Flink.
 *
 * <p>It exists so that the factory reaches the catalog's tables without knowing the catalog. The
 * options Flink passes for a catalog table are the table's properties with the query's {@code /*+
 * OPTIONS(...) *}{@code /} hints merged in: the options that differ from the table's own are the
 * hints, and only they are the statement's own (so only they are checked against {@link
 * QueryPaths}). Object names {@code t$type} are the metadata tables of {@code t}.
 */
final class CatalogTableResolver implements IcebergTableResolver {

    private final CatalogConnection connection;

    CatalogTableResolver(CatalogConnection connection) {
        this.connection = connection;
    }

    @Override
    public ResolvedIcebergTable resolve(
            ObjectIdentifier identifier, ResolvedCatalogTable declaration, ReadableConfig config) {
        String tableName = identifier.asSummaryString();
        ObjectPath path = identifier.toObjectPath();
        Table table;
        try {
            table = connection.loadTable(path);
        } catch (TableNotExistException e) {
            throw new ValidationException("Iceberg table " + tableName + " does not exist", e);
        }
        Map<String, String> hints =
                SqlOptions.hintsOf(
                        tableName,
                        CopiedCatalogOption.withoutReported(declaration.getOptions()),
                        TableDefinitions.toCatalogTable(table).getOptions());
        QueryPaths.checkTableOptions(tableName, hints, config);
        return new ResolvedIcebergTable(connection.tableLoader(path), table, hints);
    }

    /**
     * Every table this catalog hands Flink carries the option {@code src-catalog} ({@link
     * CopiedCatalogOption}); a declaration without it is the statement's own definition, which
     * Flink passes only for the sink of an atomic {@code CREATE TABLE ... AS SELECT} or {@code
     * [CREATE OR] REPLACE TABLE ... AS SELECT}. That definition becomes an Iceberg table exactly as
     * {@code CREATE TABLE} would make it ({@link TableDefinitions}).
     */
    @Override
    public Optional<TableStaging> staging(
            ObjectIdentifier identifier, ResolvedCatalogTable declaration, ReadableConfig config) {
        if (declaration.getOptions().containsKey(CopiedCatalogOption.KEY)) {
            return Optional.empty();
        }
        ObjectPath path = identifier.toObjectPath();
        String tableName = connection.qualifiedName(path);
        connection.checkTablePaths(path, declaration.getOptions().keySet());
        TableDefinitions.NewTable newTable = TableDefinitions.toNewTable(tableName, declaration);
        TableCreation creation =
                TableCreation.of(
                        connection.databases().identifier(path),
                        newTable.schema(),
                        newTable.spec(),
                        newTable.location(),
                        newTable.properties());
        return Optional.of(
                TableStaging.plan(connection.catalog(), connection.loader(), creation, tableName));
    }

    @Override
    public Optional<MetadataTable> metadataTable(ObjectIdentifier identifier) {
        Optional<MetadataTableName> name;
        try {
            name = MetadataTableName.parse(identifier.getObjectName());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        return name.map(
                metadata ->
                        new MetadataTable(
                                metadata,
                                connection.tableLoader(
                                        new ObjectPath(
                                                identifier.getDatabaseName(), metadata.table()))));
    }
}
