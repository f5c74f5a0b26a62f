package dev.icebergflink.table;

import dev.icebergflink.TableLoader;
import dev.icebergflink.source.ScanContext;
import dev.icebergflink.table.catalog.FlinkCatalog;
import dev.icebergflink.table.catalog.FlinkCatalogOptions;
import dev.icebergflink.table.metadata.IcebergMetadataTableSource;
import dev.icebergflink.table.metadata.MetadataTableName;
import dev.icebergflink.table.sink.IcebergTableSink;
import dev.icebergflink.table.sink.SqlWriteSettings;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.catalog.WatermarkSpec;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.Table;

/**
 * The dynamic table factory of Iceberg tables, identifier {@code iceberg}: it creates the SQL
 * sources and sinks of
 *
 * <ul>
 *   <li>tables of an Iceberg catalog ({@code CREATE CATALOG ... ('type'='iceberg')}): the catalog
 *       hands out a factory bound to itself ({@link FlinkCatalog#getFactory()}); the table options
 *       are the Iceberg table properties, and whatever a query adds with {@code /*+ OPTIONS(...)
 *       *}{@code /} must be a read or write option ({@link SqlOptions#hintsOf});
 *   <li>metadata tables of an Iceberg catalog ({@code `t$snapshots`}), read-only;
 *   <li>{@code CREATE TABLE t (...) WITH ('connector'='iceberg', ...)} tables in any catalog, found
 *       through {@code META-INF/services}: see {@link ConnectorTableOptions} for the options and
 *       {@link ConnectorTables} for creating the table on first use.
 * </ul>
 *
 * <p>Option errors are {@link ValidationException}s that name the option and list the valid keys.
 */
@PublicEvolving
public class FlinkDynamicTableFactory
        implements DynamicTableSourceFactory, DynamicTableSinkFactory {

    /** The factory identifier: {@code 'connector'='iceberg'}. */
    public static final String IDENTIFIER = "iceberg";

    private final FlinkCatalog catalog;

    /** The factory of {@code 'connector'='iceberg'} tables (service loader). */
    public FlinkDynamicTableFactory() {
        this(null);
    }

    /** The factory of the tables of {@code catalog}. */
    public FlinkDynamicTableFactory(FlinkCatalog catalog) {
        this.catalog = catalog;
    }

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    /** None: {@code catalog-name} is required of connector tables only, and checked there. */
    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options = new LinkedHashSet<>(ConnectorTableOptions.CONNECTOR_OPTIONS);
        options.addAll(FlinkCatalogOptions.ALL);
        SqlOptions.engineOptions().forEach(option -> options.add(option.configOption()));
        return options;
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        ReadableConfig config = context.getConfiguration();
        LegacySwitches.checkSource(config);
        ObjectIdentifier identifier = context.getObjectIdentifier();
        String tableName = identifier.asSummaryString();
        ResolvedCatalogTable declaration = context.getCatalogTable();
        RowType declared = (RowType) context.getPhysicalRowDataType().getLogicalType();

        if (catalog != null) {
            Optional<MetadataTableName> metadata = metadataName(identifier);
            if (metadata.isPresent()) {
                ObjectPath base =
                        new ObjectPath(identifier.getDatabaseName(), metadata.get().table());
                return new IcebergMetadataTableSource(
                        tableName, catalog.tableLoader(base), metadata.get().type(), declared);
            }
        }

        ResolvedIcebergTable resolved = resolve(identifier, declaration, config);
        TableLoader loader = resolved.loader();
        Table table = resolved.table();
        Map<String, String> engineOptions = resolved.engineOptions();

        Map<String, String> readOptions = SqlOptions.readOptions(engineOptions);
        ScanContext scan = resolveReadOptions(tableName, readOptions, config, table);
        if (scan.streaming()
                && config.get(ExecutionOptions.RUNTIME_MODE) == RuntimeExecutionMode.BATCH) {
            throw new ValidationException(
                    String.format(
                            "Table %s: option 'streaming'='true' reads without end and cannot run"
                                    + " with 'execution.runtime-mode'='batch'; remove the option or"
                                    + " SET 'execution.runtime-mode'='streaming'",
                            tableName));
        }
        return new IcebergTableSource(
                tableName,
                loader,
                table,
                declared,
                readOptions,
                config,
                scan.caseSensitive(),
                SqlOptions.scanParallelism(tableName, engineOptions),
                sourceWatermarkColumn(declaration.getResolvedSchema()));
    }

    /**
     * The sink of {@code INSERT INTO} / {@code INSERT OVERWRITE} ({@link IcebergTableSink}).
     * Metadata tables are read-only. Write options come from hints and connector {@code WITH}
     * options ({@link SqlWriteSettings}).
     */
    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        ObjectIdentifier identifier = context.getObjectIdentifier();
        if (catalog != null && metadataName(identifier).isPresent()) {
            throw new ValidationException(
                    String.format(
                            "Metadata table %s is read-only: it shows the metadata of table %s"
                                    + " and cannot be written",
                            identifier.asSummaryString(), metadataName(identifier).get().table()));
        }
        ReadableConfig config = context.getConfiguration();
        LegacySwitches.checkSink(config);
        String tableName = identifier.asSummaryString();
        ResolvedCatalogTable declaration = context.getCatalogTable();
        RowType declared = (RowType) context.getPhysicalRowDataType().getLogicalType();

        ResolvedIcebergTable resolved = resolve(identifier, declaration, config);
        TableLoader loader = resolved.loader();
        Table table = resolved.table();
        Map<String, String> engineOptions = resolved.engineOptions();
        List<String> primaryKey =
                declaration
                        .getResolvedSchema()
                        .getPrimaryKey()
                        .map(UniqueConstraint::getColumns)
                        .orElse(List.of());
        SqlWriteSettings settings =
                SqlWriteSettings.resolve(tableName, engineOptions, config, table, primaryKey);
        List<String> partitionColumns = new ArrayList<>();
        for (PartitionField field : table.spec().fields()) {
            partitionColumns.add(table.schema().findColumnName(field.sourceId()));
        }
        boolean streaming =
                config.get(ExecutionOptions.RUNTIME_MODE) == RuntimeExecutionMode.STREAMING;
        return new IcebergTableSink(loader, declared, settings, partitionColumns, streaming);
    }

    /** The Iceberg table behind a SQL table, its loader, and the hints or connector options. */
    private record ResolvedIcebergTable(
            TableLoader loader, Table table, Map<String, String> engineOptions) {}

    /**
     * Loads the Iceberg table of a catalog table (options that differ from the table's own are
     * hints), or loads or creates the backing table of a {@code 'connector'='iceberg'} table.
     */
    private ResolvedIcebergTable resolve(
            ObjectIdentifier identifier, ResolvedCatalogTable declaration, ReadableConfig config) {
        String tableName = identifier.asSummaryString();
        if (catalog != null) {
            ObjectPath path = identifier.toObjectPath();
            Table table;
            try {
                table = catalog.loadTable(path);
            } catch (TableNotExistException e) {
                throw new ValidationException("Iceberg table " + tableName + " does not exist", e);
            }
            Map<String, String> hints =
                    SqlOptions.hintsOf(
                            tableName, declaration.getOptions(), FlinkCatalog.flinkOptions(table));
            // only the hints are the statement's own; the table's properties are not checked
            QueryPaths.checkTableOptions(tableName, hints, config);
            return new ResolvedIcebergTable(catalog.tableLoader(path), table, hints);
        }
        // the catalog and table options of a connector table are the statement's own
        QueryPaths.checkTableOptions(tableName, declaration.getOptions(), config);
        ConnectorTableOptions.Parsed options =
                ConnectorTableOptions.parse(identifier, declaration.getOptions());
        ConnectorTables.Resolved resolved =
                ConnectorTables.loadOrCreate(identifier, declaration, options, config);
        return new ResolvedIcebergTable(
                resolved.loader(), resolved.table(), options.engineOptions());
    }

    private static Optional<MetadataTableName> metadataName(ObjectIdentifier identifier) {
        try {
            return MetadataTableName.parse(identifier.getObjectName());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static ScanContext resolveReadOptions(
            String tableName, Map<String, String> readOptions, ReadableConfig config, Table table) {
        try {
            return ScanContext.resolve(readOptions, config, table, null, List.of());
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    String.format("Table %s: %s", tableName, e.getMessage()), e);
        }
    }

    /**
     * The rowtime column of the table's watermark declaration, or {@code null}: the planner calls
     * {@link IcebergTableSource#applySourceWatermark()} only when it is {@code SOURCE_WATERMARK()},
     * and then the source watermarks that column unless {@code watermark-column} says otherwise.
     */
    private static String sourceWatermarkColumn(ResolvedSchema schema) {
        for (WatermarkSpec spec : schema.getWatermarkSpecs()) {
            return spec.getRowtimeAttribute();
        }
        return null;
    }
}
