package dev.icebergflink.table.connector;

import dev.icebergflink.TableLoader;
import dev.icebergflink.table.metadata.MetadataTableName;
import dev.icebergflink.table.staging.TableStaging;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;

/**
 * Where the Iceberg table behind a SQL table comes from: its loader, its current state, and which
 * of the options Flink passes belong to the query.
 *
 * <p>It exists so that {@link FlinkDynamicTableFactory} plans sources and sinks the same way for
 * every kind of table without knowing where the table lives. There are two: the tables of an
 * Iceberg catalog, whose catalog hands the factory its own resolver, and {@code
 * 'connector'='iceberg'} tables in any catalog ({@link ConnectorTableResolver}), which name their
 * catalog in their options.
 */
@Internal
public interface IcebergTableResolver {

    /**
     * Loads the Iceberg table behind {@code identifier} once for the planning of one source or
     * sink, and checks the options of the statement.
     *
     * @param identifier the SQL table
     * @param declaration the table as Flink resolved it, with the options of the statement
     * @param config the session configuration
     * @throws ValidationException when the table cannot be found (or created) or an option is wrong
     */
    ResolvedIcebergTable resolve(
            ObjectIdentifier identifier, ResolvedCatalogTable declaration, ReadableConfig config);

    /**
     * The staging of an atomic {@code CREATE TABLE ... AS SELECT} or {@code [CREATE OR] REPLACE
     * TABLE ... AS SELECT} when {@code declaration} is the definition of a new table rather than a
     * table this resolver holds (Flink then plans the statement's sink before creating or replacing
     * the table, see {@link TableStaging}); empty otherwise, and for kinds of tables that cannot be
     * staged.
     *
     * @throws ValidationException when the new definition cannot be stored
     */
    default Optional<TableStaging> staging(
            ObjectIdentifier identifier, ResolvedCatalogTable declaration, ReadableConfig config) {
        return Optional.empty();
    }

    /**
     * The metadata table that {@code identifier} names ({@code t$snapshots}, ...), with the loader
     * of the table it shows; empty when it names an ordinary table or when this kind of table has
     * no metadata tables.
     */
    default Optional<MetadataTable> metadataTable(ObjectIdentifier identifier) {
        return Optional.empty();
    }

    /**
     * A metadata table and the table whose metadata it shows.
     *
     * @param name the parsed object name: the base table and the metadata table type
     * @param baseLoader the loader of the base table
     */
    record MetadataTable(MetadataTableName name, TableLoader baseLoader) {}
}
