package dev.icebergflink.table.connector;

import dev.icebergflink.TableLoader;
import dev.icebergflink.source.config.ScanContext;
import dev.icebergflink.table.lookup.LookupSettings;
import dev.icebergflink.table.metadata.IcebergMetadataTableSource;
import dev.icebergflink.table.options.ConnectorTableOptions;
import dev.icebergflink.table.options.FlinkCatalogOptions;
import dev.icebergflink.table.options.LegacySwitches;
import dev.icebergflink.table.options.SqlOptions;
import dev.icebergflink.table.sink.IcebergTableSink;
import dev.icebergflink.table.sink.SqlWriteSettings;
import dev.icebergflink.table.source.IcebergTableSource;
import dev.icebergflink.table.staging.TableStaging;
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
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.catalog.WatermarkSpec;
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
 *       hands out a factory with its own {@link IcebergTableResolver}; the table options are the
 *       Iceberg table properties, and whatever a query adds with {@code /*+ OPTIONS(...) *}{@code
 *       /} must be a read or write option ({@link SqlOptions#hintsOf});
 *   <li>metadata tables of an Iceberg catalog ({@code `t$snapshots`}), read-only;
 *   <li>{@code CREATE TABLE t (...) WITH ('connector'='iceberg', ...)} tables in any catalog, found
 *       through {@code META-INF/services}: see {@link ConnectorTableOptions} for the options and
 *       {@link ConnectorTableResolver} for creating the table on first use.
 * </ul>
 *
 * <p>Where the table comes from is the resolver's business; the factory plans the source or sink of
 * what it resolves.
 *
 * <p>Option errors are {@link ValidationException}s that name the option and list the valid keys.
 */
@PublicEvolving
public class FlinkDynamicTableFactory
        implements DynamicTableSourceFactory, DynamicTableSinkFactory {

    /** The factory identifier: {@code 'connector'='iceberg'}. */
    public static final String IDENTIFIER = "iceberg";

    private final IcebergTableResolver tables;

    /** The factory of {@code 'connector'='iceberg'} tables (service loader). */
    public FlinkDynamicTableFactory() {
        this(new ConnectorTableResolver());
    }

    /** The factory of the tables {@code tables} resolves, such as those of an Iceberg catalog. */
    public FlinkDynamicTableFactory(IcebergTableResolver tables) {
        this.tables = tables;
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

        Optional<IcebergTableResolver.MetadataTable> metadata = tables.metadataTable(identifier);
        if (metadata.isPresent()) {
            return new IcebergMetadataTableSource(
                    tableName, metadata.get().baseLoader(), metadata.get().name().type(), declared);
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
                scan,
                config,
                SqlOptions.scanParallelism(tableName, engineOptions),
                sourceWatermarkColumn(declaration.getResolvedSchema()),
                declaration.getResolvedSchema().getPrimaryKey().isPresent(),
                LookupSettings.resolve(tableName, engineOptions));
    }

    /**
     * The sink of {@code INSERT INTO} / {@code INSERT OVERWRITE} ({@link IcebergTableSink}).
     * Metadata tables are read-only. Write options come from hints and connector {@code WITH}
     * options ({@link SqlWriteSettings}).
     */
    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        ObjectIdentifier identifier = context.getObjectIdentifier();
        Optional<IcebergTableResolver.MetadataTable> metadata = tables.metadataTable(identifier);
        if (metadata.isPresent()) {
            throw new ValidationException(
                    String.format(
                            "Metadata table %s is read-only: it shows the metadata of table %s"
                                    + " and cannot be written",
                            identifier.asSummaryString(), metadata.get().name().table()));
        }
        ReadableConfig config = context.getConfiguration();
        LegacySwitches.checkSink(config);
        String tableName = identifier.asSummaryString();
        ResolvedCatalogTable declaration = context.getCatalogTable();
        RowType declared = (RowType) context.getPhysicalRowDataType().getLogicalType();

        // the new table of an atomic CREATE TABLE ... AS SELECT: its options are table properties
        Optional<TableStaging> staging = tables.staging(identifier, declaration, config);
        ResolvedIcebergTable resolved =
                staging.map(s -> new ResolvedIcebergTable(s.loader(), s.table(), Map.of()))
                        .orElseGet(() -> resolve(identifier, declaration, config));
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
        return new IcebergTableSink(
                loader, declared, settings, partitionColumns, streaming, staging.orElse(null));
    }

    /** The Iceberg table behind the SQL table, loaded once for this source or sink. */
    private ResolvedIcebergTable resolve(
            ObjectIdentifier identifier, ResolvedCatalogTable declaration, ReadableConfig config) {
        return tables.resolve(identifier, declaration, config);
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
