package dev.icebergflink.table.source;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import dev.icebergflink.source.FlinkReadOptions;
import dev.icebergflink.source.IcebergSource;
import dev.icebergflink.source.IcebergSourceAssembly;
import dev.icebergflink.source.planning.SplitPlanner;
import dev.icebergflink.source.reader.ReadMetadataColumn;
import dev.icebergflink.table.FlinkConfigOptions;
import dev.icebergflink.table.dml.RowLevelScanContext;
import dev.icebergflink.table.lookup.LookupKeys;
import dev.icebergflink.table.lookup.LookupRuntimes;
import dev.icebergflink.table.lookup.LookupSettings;
import dev.icebergflink.table.lookup.LookupTableReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.RowLevelModificationScanContext;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.abilities.SupportsFilterPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsLimitPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsReadingMetadata;
import org.apache.flink.table.connector.source.abilities.SupportsRowLevelModificationScan;
import org.apache.flink.table.connector.source.abilities.SupportsSourceWatermark;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.types.Types;

/**
 * The SQL source of Iceberg tables: a {@link ScanTableSource} over the FLIP-27 {@link
 * IcebergSource}, for batch and streaming reads.
 *
 * <p>Per-query read options come from hints or connector {@code WITH} options ({@link
 * FlinkReadOptions}); the {@code streaming} option decides whether the read is unbounded. The
 * planner pushes down top-level projections, filters ({@link FlinkFilters}; Flink still evaluates
 * every filter) and limits; {@code WATERMARK FOR c AS SOURCE_WATERMARK()} makes the source emit
 * split watermarks from the {@code watermark-column} (default: the rowtime column). Rows have the
 * declared column types ({@link DeclaredRowDataConverter}). A bounded read infers its parallelism
 * from the planned splits ({@link SourceParallelism}), and the operators after the source then run
 * chained to it at that parallelism ({@link InferredParallelismScan}). {@code METADATA FROM
 * '<key>'} columns read the {@link ReadMetadataColumn}s, appended after the physical columns.
 *
 * <p>The read options are resolved once, by the factory, into a plan ({@link
 * dev.icebergflink.source.config.ScanContext}); what the planner pushes down derives a new plan
 * from it, and the source is assembled from that plan and the table the factory loaded ({@link
 * IcebergSourceAssembly}). Neither the options nor the table are resolved or loaded again here.
 *
 * <p>As a {@link LookupTableSource} it serves lookup joins ({@code JOIN t FOR SYSTEM_TIME AS OF
 * ...}): it hands the same loader, plan (with the pushed projection and filters) and conversion to
 * the declared types to the lookup runtime of {@code dev.icebergflink.table.lookup}, configured by
 * the {@code lookup.*} options.
 */
@Internal
public final class IcebergTableSource
        implements ScanTableSource,
                LookupTableSource,
                SupportsProjectionPushDown,
                SupportsFilterPushDown,
                SupportsLimitPushDown,
                SupportsSourceWatermark,
                SupportsReadingMetadata,
                SupportsRowLevelModificationScan {

    private final String tableName;
    private final TableLoader loader;
    private final Table table;
    private final Schema icebergSchema;
    private final RowType declared;
    private dev.icebergflink.source.config.ScanContext plan;
    private final ReadableConfig flinkConfig;
    private final Integer scanParallelism;
    private final String rowtimeColumn;
    private final boolean declaresPrimaryKey;
    private final LookupSettings lookupSettings;

    private int[] projection;
    private List<Expression> filters = new ArrayList<>();
    private long limit = -1;
    private boolean sourceWatermark;
    private List<ReadMetadataColumn> metadata = List.of();
    private RowLevelScanContext rowLevelScan;

    /**
     * @param tableName the table, for messages and the operator name
     * @param loader the loader of the Iceberg table
     * @param table the Iceberg table as loaded when planning; the source plans with it
     * @param declared the declared physical row type
     * @param plan the read options (hints and {@code WITH}) resolved against the table
     * @param flinkConfig the session configuration
     * @param scanParallelism the {@code scan.parallelism} option, or {@code null}
     * @param rowtimeColumn the column of a {@code SOURCE_WATERMARK()} declaration, or {@code null}
     * @param declaresPrimaryKey whether the table declares a primary key
     * @param lookupSettings the resolved {@code lookup.*} options of lookup joins
     */
    public IcebergTableSource(
            String tableName,
            TableLoader loader,
            Table table,
            RowType declared,
            dev.icebergflink.source.config.ScanContext plan,
            ReadableConfig flinkConfig,
            Integer scanParallelism,
            String rowtimeColumn,
            boolean declaresPrimaryKey,
            LookupSettings lookupSettings) {
        this.tableName = tableName;
        this.loader = loader;
        this.table = table;
        this.icebergSchema = table.schema();
        this.declared = declared;
        this.plan = plan;
        this.flinkConfig = flinkConfig;
        this.scanParallelism = scanParallelism;
        this.rowtimeColumn = rowtimeColumn;
        this.declaresPrimaryKey = declaresPrimaryKey;
        this.lookupSettings = lookupSettings;
        DeclaredTypes.icebergSideType(tableName, declared, icebergSchema, plan.caseSensitive());
    }

    private IcebergTableSource(IcebergTableSource other) {
        this.tableName = other.tableName;
        this.loader = other.loader;
        this.table = other.table;
        this.icebergSchema = other.icebergSchema;
        this.declared = other.declared;
        this.plan = other.plan;
        this.flinkConfig = other.flinkConfig;
        this.scanParallelism = other.scanParallelism;
        this.rowtimeColumn = other.rowtimeColumn;
        this.declaresPrimaryKey = other.declaresPrimaryKey;
        this.lookupSettings = other.lookupSettings;
        this.projection = other.projection == null ? null : other.projection.clone();
        this.filters = new ArrayList<>(other.filters);
        this.limit = other.limit;
        this.sourceWatermark = other.sourceWatermark;
        this.metadata = other.metadata;
        this.rowLevelScan = other.rowLevelScan;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        // 'changelog-mode' = 'all' emits deletes and both halves of updates
        return plan.readsChangelog() ? ChangelogMode.all() : ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext runtimeProviderContext) {
        IcebergSource<RowData> source = createSource();
        if (source.scanContext().readsChangelog()) {
            // one reader keeps the changes in commit order (see the option's description)
            if (scanParallelism != null && scanParallelism > 1) {
                throw new IllegalArgumentException(
                        String.format(
                                "Table %s: option 'changelog-mode' = 'all' reads with one"
                                        + " reader to keep commit order, but the source"
                                        + " parallelism is set to %d; remove that setting",
                                tableName, scanParallelism));
            }
            // Flink partitions a keyed table's changes by its key; without one, we do
            return declaresPrimaryKey
                    ? SourceProvider.of(source, 1)
                    : new KeyedChangelogScan(
                            source, "Iceberg changes of " + tableName, producedType());
        }
        Integer parallelism =
                SourceParallelism.choose(
                        flinkConfig,
                        scanParallelism,
                        !source.scanContext().streaming(),
                        atMost -> countSplits(source, atMost),
                        source.scanContext().limit());
        if (scanParallelism == null && parallelism != null) {
            // inferred from the splits: the operators after the source follow it, chained
            return new InferredParallelismScan(source, parallelism, "Iceberg " + tableName);
        }
        return SourceProvider.of(source, parallelism);
    }

    /** The {@link IcebergSource} for the pushed-down projection, filters and limit. */
    IcebergSource<RowData> createSource() {
        RowType produced = producedType();
        try {
            return IcebergSourceAssembly.assemble(
                    loader,
                    table,
                    queryPlan(produced),
                    schema ->
                            new DeclaredRowDataConverter(
                                    tableName,
                                    withMetadata(FlinkSchemaUtil.convert(schema)),
                                    withMetadata(produced)),
                    null,
                    flinkConfig.get(FlinkConfigOptions.TABLE_EXEC_ICEBERG_FETCH_BATCH_RECORD_COUNT),
                    metadata);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ValidationException(
                    String.format("Cannot read Iceberg table %s: %s", tableName, e.getMessage()),
                    e);
        }
    }

    /**
     * The runtime of lookup joins on this table: the rows the scan would produce (same loader,
     * projection, pushed filters and declared types), looked up by the join's key columns.
     */
    @Override
    public LookupRuntimeProvider getLookupRuntimeProvider(LookupContext context) {
        if (!metadata.isEmpty()) {
            throw new ValidationException(
                    String.format(
                            "Table %s: lookup joins cannot read metadata columns (%s); declare"
                                    + " the dimension table without them",
                            tableName, metadata.stream().map(ReadMetadataColumn::key).toList()));
        }
        RowType produced = producedType();
        int[] keys = new int[context.getKeys().length];
        for (int i = 0; i < keys.length; i++) {
            int[] path = context.getKeys()[i];
            if (path.length != 1) {
                throw new ValidationException(
                        String.format(
                                "Table %s: a lookup join key must be a top-level column, not a"
                                        + " nested field",
                                tableName));
            }
            keys[i] = path[0];
        }
        dev.icebergflink.source.config.ScanContext lookupPlan;
        try {
            lookupPlan =
                    plan.withCaseSensitive(matchExactly())
                            .withProjection(icebergProjection(produced))
                            .withFilters(filters);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ValidationException(
                    String.format("Cannot read Iceberg table %s: %s", tableName, e.getMessage()),
                    e);
        }
        LookupTableReader reader =
                new LookupTableReader(
                        tableName,
                        loader,
                        lookupPlan,
                        new DeclaredRowDataConverter(
                                tableName,
                                FlinkSchemaUtil.convert(lookupPlan.projectedSchema()),
                                produced),
                        produced);
        return LookupRuntimes.create(
                reader,
                new LookupKeys(produced, lookupPlan.projectedSchema(), keys),
                lookupSettings);
    }

    /** The resolved plan with what the planner pushed down: projection, filters, limit. */
    private dev.icebergflink.source.config.ScanContext queryPlan(RowType produced) {
        dev.icebergflink.source.config.ScanContext query =
                plan.withCaseSensitive(matchExactly())
                        .withProjection(icebergProjection(produced))
                        .withFilters(filters);
        if (limit >= 0) {
            query = query.withLimit(plan.limit() >= 0 ? Math.min(plan.limit(), limit) : limit);
        }
        if (sourceWatermark && !plan.isExplicit(FlinkReadOptions.WATERMARK_COLUMN)) {
            query =
                    query.withWatermarkColumn(
                            DeclaredTypes.icebergColumn(
                                            tableName,
                                            icebergSchema,
                                            rowtimeColumn,
                                            plan.caseSensitive())
                                    .name());
        }
        return query;
    }

    private int countSplits(IcebergSource<RowData> source, int atMost) {
        try {
            return new SplitPlanner(table, source.scanContext(), null).countBoundedSplits(atMost);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code physical} followed by the requested metadata columns, as the source emits rows. */
    private RowType withMetadata(RowType physical) {
        return ReadMetadataColumn.appendedTo(physical, metadata, table);
    }

    /** The declared physical type of the rows after projection push-down. */
    RowType producedType() {
        if (projection == null) {
            return declared;
        }
        List<RowType.RowField> fields = new ArrayList<>();
        for (int index : projection) {
            fields.add(declared.getFields().get(index));
        }
        return new RowType(declared.isNullable(), fields);
    }

    private Schema icebergProjection(RowType produced) {
        List<Types.NestedField> columns = new ArrayList<>();
        for (String name : produced.getFieldNames()) {
            columns.add(
                    DeclaredTypes.icebergColumn(
                            tableName, icebergSchema, name, plan.caseSensitive()));
        }
        return new Schema(columns);
    }

    /**
     * Whether the source may match names case-sensitively: the projection always names the exact
     * Iceberg columns, so only a pushed filter or a watermark column that matches its column only
     * when case is ignored needs the case-insensitive mode. Matching exactly whenever possible
     * keeps tables with columns that differ only by case readable (Iceberg cannot match their names
     * ignoring case at all).
     */
    private boolean matchExactly() {
        if (plan.caseSensitive()) {
            return true;
        }
        String watermarkColumn = plan.watermarkColumn();
        if (watermarkColumn != null && icebergSchema.findField(watermarkColumn) == null) {
            return false;
        }
        return filters.stream().allMatch(filter -> binds(filter, true));
    }

    @Override
    public boolean supportsNestedProjection() {
        return false;
    }

    @Override
    public void applyProjection(int[][] projectedFields, DataType producedDataType) {
        this.projection = Arrays.stream(projectedFields).mapToInt(path -> path[0]).toArray();
    }

    /**
     * Accepts the filters {@link FlinkFilters} converts and that bind to the table schema; all
     * filters stay with Flink as well, as in Iceberg's own connector.
     */
    @Override
    public Result applyFilters(List<ResolvedExpression> flinkFilters) {
        List<ResolvedExpression> accepted = new ArrayList<>();
        for (ResolvedExpression filter : flinkFilters) {
            FlinkFilters.convert(filter)
                    .filter(this::binds)
                    .ifPresent(
                            expression -> {
                                accepted.add(filter);
                                filters.add(expression);
                            });
        }
        if (rowLevelScan != null) {
            rowLevelScan.useFilters(filters);
        }
        return Result.of(accepted, flinkFilters);
    }

    private boolean binds(Expression expression) {
        // Exact names first: binding ignoring case fails on columns that differ only by case.
        return binds(expression, true) || (!plan.caseSensitive() && binds(expression, false));
    }

    private boolean binds(Expression expression, boolean exactly) {
        try {
            Binder.bind(icebergSchema.asStruct(), expression, exactly);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The metadata columns a connector table may declare, by key, in a fixed order. */
    @Override
    public Map<String, DataType> listReadableMetadata() {
        Map<String, DataType> readable = new LinkedHashMap<>();
        for (ReadMetadataColumn column : ReadMetadataColumn.values()) {
            readable.put(column.key(), TypeConversions.fromLogicalToDataType(column.type(table)));
        }
        return readable;
    }

    @Override
    public void applyReadableMetadata(List<String> metadataKeys, DataType producedDataType) {
        List<ReadMetadataColumn> columns = new ArrayList<>();
        for (String key : metadataKeys) {
            columns.add(ReadMetadataColumn.ofKey(key));
        }
        this.metadata = List.copyOf(columns);
    }

    @Override
    public void applyLimit(long newLimit) {
        this.limit = newLimit;
    }

    @Override
    public void applySourceWatermark() {
        if (rowtimeColumn == null && !plan.isExplicit(FlinkReadOptions.WATERMARK_COLUMN)) {
            throw new ValidationException(
                    String.format(
                            "Table %s: SOURCE_WATERMARK() needs the option '%s' naming the column"
                                    + " whose file statistics give the watermarks",
                            tableName, FlinkReadOptions.WATERMARK_COLUMN.key()));
        }
        this.sourceWatermark = true;
    }

    /** The Iceberg filters pushed so far. */
    List<Expression> pushedFilters() {
        return List.copyOf(filters);
    }

    /** The limit pushed so far, or -1. */
    long pushedLimit() {
        return limit;
    }

    /**
     * The scan of a row-level {@code DELETE}/{@code UPDATE}: pins the table's snapshot as loaded
     * while planning (the read uses exactly it) and hands it, with the filters pushed later, to the
     * statement's sink, which validates its commit against everything committed after it.
     */
    @Override
    public RowLevelModificationScanContext applyRowLevelModificationScan(
            RowLevelModificationType type, RowLevelModificationScanContext previousContext) {
        RowLevelScanContext context =
                RowLevelScanContext.pin(tableName, table, type, previousContext);
        if (context.snapshotId() != null) {
            try {
                plan = plan.withSnapshotId(context.snapshotId());
            } catch (IllegalArgumentException e) {
                throw new ValidationException(
                        String.format(
                                "Table %s: %s reads the table's current snapshot, but %s",
                                tableName, type, e.getMessage()),
                        e);
            }
        }
        context.useFilters(filters);
        this.rowLevelScan = context;
        return context;
    }

    @Override
    public DynamicTableSource copy() {
        return new IcebergTableSource(this);
    }

    @Override
    public String asSummaryString() {
        return "Iceberg table source";
    }
}
