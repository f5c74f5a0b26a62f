package dev.icebergflink.table.sink;

import dev.icebergflink.TableLoader;
import dev.icebergflink.sink.IcebergSink;
import dev.icebergflink.sink.SinkAssembly;
import dev.icebergflink.sink.SinkPlan;
import dev.icebergflink.sink.WriteModeRules;
import dev.icebergflink.sink.WriteRuleViolation;
import dev.icebergflink.table.compat.ChangelogModes;
import dev.icebergflink.table.dml.DmlOperation;
import dev.icebergflink.table.dml.RowLevelWrite;
import dev.icebergflink.table.staging.TableStaging;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.table.api.TableException;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.StagedTable;
import org.apache.flink.table.catalog.TableDistribution;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.RowLevelModificationScanContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.connector.sink.abilities.SupportsBucketing;
import org.apache.flink.table.connector.sink.abilities.SupportsOverwrite;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;
import org.apache.flink.table.connector.sink.abilities.SupportsRowLevelDelete;
import org.apache.flink.table.connector.sink.abilities.SupportsRowLevelUpdate;
import org.apache.flink.table.connector.sink.abilities.SupportsStaging;
import org.apache.flink.table.connector.sink.abilities.SupportsTruncate;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;

/**
 * The SQL sink of Iceberg tables: {@code INSERT INTO} (batch and streaming), {@code INSERT
 * OVERWRITE} (batch; dynamic, or static with {@code PARTITION (col='v', ...)}) and upsert, on the
 * Sink V2 {@link IcebergSink}.
 *
 * <p>Modes and changelog: overwrite and {@code 'write.operation'='bulk_insert'} take insert-only
 * input; upsert ({@code upsert-enabled} hint or option, or the table property {@code
 * write.upsert.enabled}) takes upsert changelogs (INSERT, UPDATE_AFTER, DELETE) keyed by the {@code
 * PRIMARY KEY}; other writes into format v2+ tables take any changelog (retractions become equality
 * deletes of the key, or of the whole row without a key); format v1 tables take inserts only. When
 * the query's rows are inserts only (batch mode, or an insert-only changelog mode from the planner)
 * and upsert is off, the sink takes the plain append path ({@link IcebergSink.Builder#insertOnly}):
 * every row is written as it arrives, also several rows of one primary key (the key is {@code NOT
 * ENFORCED}), with no de-duplication.
 *
 * <p>Static partitions: when the {@code PARTITION} clause gives a value to every partition column
 * of the Iceberg table, {@code INSERT OVERWRITE} replaces exactly that partition, even when the
 * query yields no rows; when it names only some of them, the partitions the query writes are
 * replaced (as without the clause). Unpartitioned tables are replaced as a whole.
 *
 * <p>{@code TRUNCATE TABLE} removes every data file in one snapshot ({@link #executeTruncation}).
 *
 * <p>{@code DELETE FROM t WHERE ...} and {@code UPDATE t SET ... WHERE ...} (batch mode) write
 * position deletes, deletion vectors or rewritten files and commit once per statement ({@link
 * RowLevelWrite}, package {@code dev.icebergflink.table.dml}).
 *
 * <p>Rows arrive in the declared column types (e.g. {@code TINYINT}, {@code CHAR(n)} over Iceberg
 * {@code int} and {@code string}); the sink writes them as the Iceberg column types.
 *
 * <p>The sink is made from the options and table {@link SqlWriteSettings} resolved while planning:
 * the statement's overwrite, static partition and insert-only input complete them into a {@link
 * SinkPlan}, which runs the same rules as the DataStream builder; broken rules are reworded in SQL
 * terms ({@link SqlWriteRules}).
 */
@Internal
public final class IcebergTableSink
        implements DynamicTableSink,
                SupportsPartitioning,
                SupportsOverwrite,
                SupportsBucketing,
                SupportsTruncate,
                SupportsStaging,
                SupportsRowLevelDelete,
                SupportsRowLevelUpdate {

    private final TableLoader loader;
    private final RowType declared;
    private final SqlWriteSettings settings;
    private final List<String> partitionColumns;
    private final boolean streamingMode;

    /** The staging of an atomic CREATE TABLE ... AS SELECT's new table; null for other writes. */
    private final TableStaging staging;

    /** Set by {@link #applyStaging}: the sink then records its files instead of committing. */
    private boolean staged;

    private boolean overwrite;
    private Map<String, String> staticPartition = new LinkedHashMap<>();

    /**
     * Whether every informative changelog mode the planner asked about ({@link #getChangelogMode})
     * was insert-only; null while none was seen (see {@link #recordQueryChangelogMode}).
     */
    private Boolean queryInsertOnly;

    /** The row-level {@code DELETE}/{@code UPDATE} this sink runs, or null for an INSERT. */
    private RowLevelWrite rowLevelWrite;

    /**
     * @param loader the loader of the Iceberg table
     * @param declared the declared physical row type of the table (the type of incoming rows)
     * @param settings the resolved write settings, with the table loaded while planning
     * @param partitionColumns the partition source columns of the Iceberg table, in spec order
     *     (empty when unpartitioned)
     * @param streamingMode whether the statement runs in streaming mode
     */
    public IcebergTableSink(
            TableLoader loader,
            RowType declared,
            SqlWriteSettings settings,
            List<String> partitionColumns,
            boolean streamingMode) {
        this(loader, declared, settings, partitionColumns, streamingMode, null);
    }

    /**
     * A sink that can also be the sink of an atomic {@code CREATE TABLE ... AS SELECT} ({@link
     * #applyStaging}).
     *
     * @param staging the staging of the statement's new table (its loader and settings are the
     *     staged table's), or null when the statement writes into an existing table
     */
    public IcebergTableSink(
            TableLoader loader,
            RowType declared,
            SqlWriteSettings settings,
            List<String> partitionColumns,
            boolean streamingMode,
            TableStaging staging) {
        this.staging = staging;
        this.loader = loader;
        this.declared = declared;
        this.settings = settings;
        this.partitionColumns = List.copyOf(partitionColumns);
        this.streamingMode = streamingMode;
        if (settings.overwriteOption()) {
            checkOverwrite("option 'overwrite-enabled'='true'");
        }
    }

    private IcebergTableSink(IcebergTableSink other) {
        this(
                other.loader,
                other.declared,
                other.settings,
                other.partitionColumns,
                other.streamingMode,
                other.staging);
        this.staged = other.staged;
        this.overwrite = other.overwrite;
        this.staticPartition = new LinkedHashMap<>(other.staticPartition);
        this.queryInsertOnly = other.queryInsertOnly;
        this.rowLevelWrite = other.rowLevelWrite;
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        if (rowLevelWrite != null) {
            // the planner marks deleted rows DELETE and changed rows UPDATE_AFTER
            return ChangelogMode.all();
        }
        recordQueryChangelogMode(requestedMode);
        if (overwriting() || settings.bulkInsert()) {
            return ChangelogMode.insertOnly();
        }
        if (settings.upsert()) {
            // An insert-only query needs no changelog contract: the writers upsert every row by the
            // table's key anyway. Declaring upsert for it would make Flink 2.3's planner (FLIP-558)
            // demand an ON CONFLICT clause whenever the query's own key differs from the table's,
            // although the writers resolve those conflicts the same way (the last row wins).
            // Deletes carry full rows, except on Flink 1.20, which cannot ask for that (see
            // ChangelogModes).
            return requestedMode.containsOnly(RowKind.INSERT)
                    ? ChangelogMode.insertOnly()
                    : ChangelogModes.upsertWithFullDeletes();
        }
        return settings.formatVersion() >= 2 ? ChangelogMode.all() : ChangelogMode.insertOnly();
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        if (rowLevelWrite != null) {
            return rowLevelWrite.runtimeProvider();
        }
        IcebergSink sink = createSink();
        Integer parallelism = settings.writeParallelism();
        if (!sink.operatorUids()) {
            return SinkV2Provider.of(sink, parallelism);
        }
        // uid-suffix gives the sink's own operators uids; Flink then needs a uid on the sink
        // itself, which SinkV2Provider cannot set
        // (an anonymous class: on Flink 1.20 DataStreamSinkProvider is not a functional interface)
        return new DataStreamSinkProvider() {
            @Override
            public DataStreamSink<?> consumeDataStream(
                    ProviderContext providerContext, DataStream<RowData> input) {
                DataStreamSink<?> result = input.sinkTo(sink).uid(sink.writerUid());
                if (parallelism != null) {
                    result.setParallelism(parallelism);
                }
                return result;
            }
        };
    }

    /** The {@link IcebergSink} for this statement, from the settings resolved while planning. */
    IcebergSink createSink() {
        boolean staticOverwrite =
                overwrite
                        && !partitionColumns.isEmpty()
                        && staticPartition.keySet().containsAll(partitionColumns);
        SinkPlan.Request request =
                new SinkPlan.Request(
                        ResolvedSchema.physical(
                                declared.getFieldNames(),
                                declared.getChildren().stream()
                                        .map(TypeConversions::fromLogicalToDataType)
                                        .toList()),
                        settings.primaryKey(),
                        insertOnlyInput(),
                        staticOverwrite ? staticPartition : null,
                        Map.of());
        try {
            SinkPlan plan =
                    SinkPlan.resolve(
                            settings.table(),
                            settings.writeConf().withOverwrite(overwriting()),
                            request);
            return staged
                    ? SinkAssembly.assembleStaged(loader, plan, staging.stagingLocation())
                    : SinkAssembly.assemble(loader, plan);
        } catch (WriteRuleViolation e) {
            throw SqlWriteRules.toValidation(
                    settings.tableName(), e, settings.upsertEnabledBy(), overwriteBy());
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ValidationException(
                    String.format(
                            "Cannot write to table %s: %s", settings.tableName(), e.getMessage()),
                    e);
        }
    }

    /**
     * Atomic {@code CREATE TABLE ... AS SELECT} and {@code [CREATE OR] REPLACE TABLE ... AS SELECT}
     * ({@code table.rtas-ctas.atomicity-enabled}): the sink records its files instead of committing
     * them, and the returned {@link StagedTable} creates or replaces the table with them in one
     * Iceberg transaction when the job has finished ({@link TableStaging}).
     */
    @Override
    public StagedTable applyStaging(StagingContext context) {
        if (staging == null) {
            throw new TableException(
                    String.format(
                            "Table %s cannot be created or replaced atomically: only tables of an"
                                    + " Iceberg catalog can. SET"
                                    + " 'table.rtas-ctas.atomicity-enabled'='false'",
                            settings.tableName()));
        }
        StagedTable stagedTable = staging.stage(context.getStagingPurpose());
        staged = true;
        return stagedTable;
    }

    @Override
    public void applyStaticPartition(Map<String, String> partition) {
        this.staticPartition = new LinkedHashMap<>(partition);
    }

    @Override
    public void applyOverwrite(boolean newOverwrite) {
        if (newOverwrite) {
            checkOverwrite("INSERT OVERWRITE");
        }
        this.overwrite = newOverwrite;
    }

    private void checkOverwrite(String what) {
        if (streamingMode) {
            throw new ValidationException(
                    String.format(
                            "Table %s: %s is supported in batch mode only (it replaces"
                                    + " partitions atomically at the end of a bounded job);"
                                    + " SET 'execution.runtime-mode'='batch', or use INSERT INTO",
                            settings.tableName(), what));
        }
        try {
            WriteModeRules.checkModes(true, settings.upsert(), false, false, false);
        } catch (WriteRuleViolation e) {
            throw SqlWriteRules.toValidation(
                    settings.tableName(), e, settings.upsertEnabledBy(), what);
        }
    }

    /**
     * Records what a {@link #getChangelogMode} call says about the query's rows. The planner's
     * changelog inference passes the query's own mode; planner rules also probe the sink with
     * {@link ChangelogMode#all()} whatever the query (Flink 2.1's {@code DuplicateChangesInferRule}
     * does), so that mode tells nothing and is ignored. A query whose real mode is all() then stays
     * unknown, which takes the changelog path: the safe side.
     */
    private void recordQueryChangelogMode(ChangelogMode requestedMode) {
        if (requestedMode.equals(ChangelogMode.all())) {
            return;
        }
        boolean insertOnly = requestedMode.containsOnly(RowKind.INSERT);
        queryInsertOnly = insertOnly && (queryInsertOnly == null || queryInsertOnly);
    }

    /**
     * Whether the statement's rows are known to be inserts only, so the sink can take the plain
     * append path (no keyed de-duplication, no delete writer) even on a table with a primary key:
     * upsert is off and either the statement runs in batch mode (a batch {@code INSERT} produces
     * only inserts), the planner's changelog mode of the query was insert-only, or {@code
     * 'write.operation'='bulk_insert'} made the sink accept inserts only. Unknown (a plan restored
     * without asking for the changelog mode) means a changelog.
     */
    boolean insertOnlyInput() {
        if (settings.upsert()) {
            return false;
        }
        if (settings.bulkInsert()) {
            return true;
        }
        return !streamingMode || Boolean.TRUE.equals(queryInsertOnly);
    }

    private boolean overwriting() {
        return overwrite || settings.overwriteOption();
    }

    private String overwriteBy() {
        return overwrite ? "INSERT OVERWRITE" : "option 'overwrite-enabled'='true'";
    }

    /** The static partition of the {@code PARTITION} clause (empty for none). */
    Map<String, String> staticPartition() {
        return Map.copyOf(staticPartition);
    }

    /**
     * Tables declared with {@code DISTRIBUTED BY HASH(c) INTO N BUCKETS} are partitioned by {@code
     * bucket(N, c)}: the partition spec puts every row into its bucket, whatever the writer, so the
     * sink meets Flink's bucketing contract without a shuffle of its own.
     */
    @Override
    public Set<TableDistribution.Kind> listAlgorithms() {
        return Set.of(TableDistribution.Kind.HASH);
    }

    @Override
    public boolean requiresBucketCount() {
        return true;
    }

    /**
     * {@code TRUNCATE TABLE} (batch mode): one snapshot that removes every data file of the branch
     * the write options name ({@code main} by default), committed on the client without a job. A
     * table without a snapshot on that branch is already empty and gets none.
     */
    @Override
    public void executeTruncation() {
        Table table = settings.table();
        table.refresh();
        String branch = settings.writeConf().branch();
        if (table.snapshot(branch) == null) {
            return;
        }
        try {
            table.newDelete()
                    .deleteFromRowFilter(Expressions.alwaysTrue())
                    .toBranch(branch)
                    .commit();
        } catch (RuntimeException e) {
            throw new TableException(
                    String.format(
                            "Cannot truncate table %s: %s", settings.tableName(), e.getMessage()),
                    e);
        }
    }

    @Override
    public RowLevelDeleteInfo applyRowLevelDelete(RowLevelModificationScanContext context) {
        rowLevelWrite = planRowLevelWrite(DmlOperation.DELETE, List.of(), context);
        return rowLevelWrite.deleteInfo();
    }

    @Override
    public RowLevelUpdateInfo applyRowLevelUpdate(
            List<Column> updatedColumns, RowLevelModificationScanContext context) {
        rowLevelWrite = planRowLevelWrite(DmlOperation.UPDATE, updatedColumns, context);
        return rowLevelWrite.updateInfo();
    }

    private RowLevelWrite planRowLevelWrite(
            DmlOperation operation,
            List<Column> updatedColumns,
            RowLevelModificationScanContext context) {
        return RowLevelWrite.plan(
                settings.tableName(),
                loader,
                settings.table(),
                settings.formatVersion(),
                declared,
                settings.primaryKey(),
                settings.upsert(),
                settings.writeConf().branch(),
                streamingMode,
                operation,
                updatedColumns,
                context);
    }

    @Override
    public DynamicTableSink copy() {
        return new IcebergTableSink(this);
    }

    @Override
    public String asSummaryString() {
        return "Iceberg table sink";
    }
}
