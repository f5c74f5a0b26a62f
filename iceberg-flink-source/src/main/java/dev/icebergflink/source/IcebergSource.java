package dev.icebergflink.source;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import dev.icebergflink.source.assigner.SimpleSplitAssignerFactory;
import dev.icebergflink.source.assigner.SplitAssigner;
import dev.icebergflink.source.assigner.SplitAssignerFactory;
import dev.icebergflink.source.assigner.WatermarkOrderedSplitAssignerFactory;
import dev.icebergflink.source.enumerator.ContinuousIcebergEnumerator;
import dev.icebergflink.source.enumerator.IcebergEnumeratorState;
import dev.icebergflink.source.enumerator.IcebergEnumeratorStateSerializer;
import dev.icebergflink.source.enumerator.StaticIcebergEnumerator;
import dev.icebergflink.source.planning.ContinuousSplitPlanner;
import dev.icebergflink.source.planning.SplitPager;
import dev.icebergflink.source.planning.SplitPlanner;
import dev.icebergflink.source.planning.TableIdentity;
import dev.icebergflink.source.reader.AvroGenericRecordConverter;
import dev.icebergflink.source.reader.ColumnStatsWatermarkExtractor;
import dev.icebergflink.source.reader.IcebergReaderFunction;
import dev.icebergflink.source.reader.IcebergSourceReader;
import dev.icebergflink.source.reader.IdentityRowDataConverter;
import dev.icebergflink.source.reader.RowConverter;
import dev.icebergflink.source.reader.SplitWatermarkExtractor;
import dev.icebergflink.source.split.IcebergSourceSplit;
import dev.icebergflink.source.split.IcebergSourceSplitSerializer;
import dev.icebergflink.tasks.codec.LoadingTableMetadata;
import dev.icebergflink.tasks.reader.RowDataFileTaskReader;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.util.ThreadPools;

/**
 * The FLIP-27 source of Iceberg tables: bounded reads (current snapshot, time travel, bounded
 * incremental ranges) and unbounded reads that keep picking up new snapshots.
 *
 * <p>Start with {@link #forRowData()} (or {@link #forRow()}, {@link #forGenericRecord()}, {@link
 * #builder(ConverterFactory)}), set a {@link Builder#tableLoader table loader} and options, and
 * pass the built source to {@code env.fromSource(..)}. The builder only collects settings; {@link
 * Builder#build()} loads the table once, resolves every option ({@link ScanContext}) and rejects
 * contradictions before any job runs.
 *
 * <p>Splits are planned by an enumerator on the JobManager (off the coordinator thread) and pulled
 * by readers; both checkpoint with versioned serializers, so a restore resumes mid-split without
 * loss or duplicates.
 *
 * <p><b>Schema.</b> The projection, and so the type of the emitted records, is resolved from the
 * table's schema in {@link Builder#build()} and kept for the life of the job. Schema changes while
 * a read runs do not stop it: files are read by field id, so an added column is not emitted, a
 * renamed one keeps its old name, and a widened one ({@code int} to {@code long}, {@code float} to
 * {@code double}, a decimal's precision) is read back in its old type (a value that does not fit
 * fails the job). A job built again (restarted, also from a savepoint) emits the new schema.
 *
 * <p><b>Table identity.</b> The enumerator's checkpoints keep the table's UUID; a table dropped and
 * re-created under the same name fails the read, without restarts, instead of stalling or reading
 * the new table ({@link dev.icebergflink.source.planning.TableIdentity}).
 *
 * @param <T> the emitted record type
 */
@PublicEvolving
public final class IcebergSource<T>
        implements Source<T, IcebergSourceSplit, IcebergEnumeratorState>, ResultTypeQueryable<T> {

    private static final long serialVersionUID = 1L;

    private final TableLoader tableLoader;
    private final String tableName;
    private final ScanContext scanContext;
    private final SplitAssignerFactory assignerFactory;
    private final IcebergReaderFunction<T> readerFunction;
    private final SplitWatermarkExtractor watermarkExtractor;

    private IcebergSource(
            TableLoader tableLoader,
            String tableName,
            ScanContext scanContext,
            SplitAssignerFactory assignerFactory,
            IcebergReaderFunction<T> readerFunction,
            SplitWatermarkExtractor watermarkExtractor) {
        this.tableLoader = tableLoader;
        this.tableName = tableName;
        this.scanContext = scanContext;
        this.assignerFactory = assignerFactory;
        this.readerFunction = readerFunction;
        this.watermarkExtractor = watermarkExtractor;
    }

    /** A builder of a source emitting Flink {@link RowData} (internal data structures). */
    public static Builder<RowData> forRowData() {
        return new Builder<>(
                schema -> new IdentityRowDataConverter(FlinkSchemaUtil.convert(schema)));
    }

    /** A builder of a source emitting Flink {@link Row}s (external data structures). */
    public static Builder<Row> forRow() {
        return new Builder<>(schema -> new RowConverter(FlinkSchemaUtil.convert(schema)));
    }

    /** A builder of a source emitting Avro {@link GenericRecord}s of the projected schema. */
    public static Builder<GenericRecord> forGenericRecord() {
        return new Builder<>(schema -> new AvroGenericRecordConverter(schema, "record"));
    }

    /** A builder of a source emitting whatever the converter makes of each row. */
    public static <T> Builder<T> builder(ConverterFactory<T> converterFactory) {
        return new Builder<>(converterFactory);
    }

    /** The resolved read configuration. */
    public ScanContext scanContext() {
        return scanContext;
    }

    @Override
    public Boundedness getBoundedness() {
        return scanContext.streaming() ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<T, IcebergSourceSplit> createReader(SourceReaderContext readerContext) {
        return new IcebergSourceReader<>(
                readerFunction, scanContext.limit(), watermarkExtractor, readerContext);
    }

    @Override
    public SplitEnumerator<IcebergSourceSplit, IcebergEnumeratorState> createEnumerator(
            SplitEnumeratorContext<IcebergSourceSplit> enumContext) {
        return enumerator(enumContext, null);
    }

    @Override
    public SplitEnumerator<IcebergSourceSplit, IcebergEnumeratorState> restoreEnumerator(
            SplitEnumeratorContext<IcebergSourceSplit> enumContext,
            IcebergEnumeratorState checkpoint) {
        return enumerator(enumContext, checkpoint);
    }

    /**
     * A new or restored enumerator. It owns a table loader and, with {@code planParallelism}, a
     * planning thread pool, which it releases when it closes; when building it fails (the table
     * cannot be loaded, the assigner cannot take the restored splits), both are released here
     * before the failure propagates, so a failed restore leaks no loader and no pool.
     */
    private SplitEnumerator<IcebergSourceSplit, IcebergEnumeratorState> enumerator(
            SplitEnumeratorContext<IcebergSourceSplit> enumContext,
            IcebergEnumeratorState restored) {
        TableLoader loader = tableLoader.clone();
        ExecutorService pool = null;
        try {
            Table table = loader.loadTable();
            // restore the assigner before the pool exists: a restore that fails starts nothing
            SplitAssigner assigner =
                    restored == null
                            ? assignerFactory.createAssigner()
                            : assignerFactory.createAssigner(restored.pendingSplits());
            pool =
                    scanContext.planParallelism() == null
                            ? null
                            : ThreadPools.newFixedThreadPool(
                                    "iceberg-plan-" + tableName, scanContext.planParallelism());
            return enumerator(enumContext, restored, loader, table, assigner, pool);
        } catch (RuntimeException | Error e) {
            if (pool != null) {
                pool.shutdownNow();
            }
            try {
                loader.close();
            } catch (IOException | RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    private SplitEnumerator<IcebergSourceSplit, IcebergEnumeratorState> enumerator(
            SplitEnumeratorContext<IcebergSourceSplit> enumContext,
            IcebergEnumeratorState restored,
            TableLoader loader,
            Table table,
            SplitAssigner assigner,
            ExecutorService pool) {
        SplitPlanner planner = new SplitPlanner(table, scanContext, pool);
        var position = restored == null ? null : restored.position();
        var cursor = restored == null ? null : restored.pagedScan();
        String restoredUuid = restored == null ? null : restored.tableUuid();
        String loadedUuid = TableIdentity.uuidOf(table);
        SplitPager pager = new SplitPager(planner);
        AutoCloseable resources =
                () -> {
                    try (pager) {
                        if (pool != null) {
                            pool.shutdownNow();
                        }
                    } finally {
                        loader.close();
                    }
                };
        if (scanContext.streaming()) {
            ContinuousSplitPlanner continuous =
                    new ContinuousSplitPlanner(
                            planner,
                            scanContext,
                            TableIdentity.pinned(restoredUuid, loadedUuid),
                            loader::loadTable,
                            ContinuousSplitPlanner.IDENTITY_CHECK_INTERVAL,
                            System::nanoTime);
            ContinuousIcebergEnumerator enumerator =
                    new ContinuousIcebergEnumerator(
                            enumContext,
                            assigner,
                            continuous::planNext,
                            position,
                            scanContext.monitorInterval(),
                            scanContext.maxAllowedPlanningFailures());
            enumerator.closeWith(resources);
            enumerator.pinTable(tableName, restoredUuid, loadedUuid);
            enumerator.limitTo(scanContext.limit());
            if (scanContext.splitPlanningPageSize() > 0) {
                enumerator.pageWith(pager, scanContext.splitPlanningPageSize(), cursor);
            }
            return enumerator;
        }
        StaticIcebergEnumerator enumerator =
                new StaticIcebergEnumerator(
                        enumContext,
                        assigner,
                        () -> planner.planBounded(enumContext.currentParallelism()),
                        position);
        enumerator.closeWith(resources);
        enumerator.pinTable(tableName, restoredUuid, loadedUuid);
        enumerator.limitTo(scanContext.limit());
        if (scanContext.splitPlanningPageSize() > 0) {
            enumerator.pageWith(pager, scanContext.splitPlanningPageSize(), cursor);
        }
        return enumerator;
    }

    @Override
    public IcebergSourceSplitSerializer getSplitSerializer() {
        return new IcebergSourceSplitSerializer(new LoadingTableMetadata(tableLoader));
    }

    @Override
    public IcebergEnumeratorStateSerializer getEnumeratorCheckpointSerializer() {
        return new IcebergEnumeratorStateSerializer(getSplitSerializer());
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return readerFunction.producedType();
    }

    @Override
    public String toString() {
        return "IcebergSource{table=" + tableName + ", streaming=" + scanContext.streaming() + "}";
    }

    /**
     * Collects the settings of an {@link IcebergSource}. Every named setter is a shortcut for
     * {@link #set(String, String)} with the matching {@link FlinkReadOptions} key; the last call
     * for a key wins. Validation happens in {@link #build()}.
     *
     * @param <T> the emitted record type
     */
    public static final class Builder<T> {
        private final ConverterFactory<T> converterFactory;
        private final Map<String, String> options = new HashMap<>();
        private TableLoader tableLoader;
        private SplitAssignerFactory assignerFactory;
        private Schema projection;
        private final List<Expression> filters = new ArrayList<>();
        private ReadableConfig flinkConfig = new Configuration();
        private int batchSize = IcebergReaderFunction.DEFAULT_BATCH_SIZE;

        private Builder(ConverterFactory<T> converterFactory) {
            this.converterFactory = Objects.requireNonNull(converterFactory, "converterFactory");
        }

        /** The table to read (required). */
        public Builder<T> tableLoader(TableLoader loader) {
            this.tableLoader = loader;
            return this;
        }

        /**
         * How pending splits are ordered for readers; {@link SimpleSplitAssignerFactory} (FIFO) by
         * default. Not together with {@link #watermarkColumn}, which orders by watermark itself.
         * {@code build()} lets the factory check the table and split settings (e.g. {@link
         * dev.icebergflink.source.assigner.OrderedSplitAssignerFactory} needs format v2+ and one
         * file per split). Assigners order the pending splits only: with paged planning ({@code
         * split-planning-page-size}) that is one page of a full scan at a time.
         */
        public Builder<T> assignerFactory(SplitAssignerFactory factory) {
            this.assignerFactory = factory;
            return this;
        }

        /** The Flink configuration options fall back to (e.g. the environment's). */
        public Builder<T> flinkConfig(ReadableConfig config) {
            this.flinkConfig = Objects.requireNonNull(config, "config");
            return this;
        }

        /** Sets any read option by key ({@link FlinkReadOptions}); unknown keys fail in build. */
        public Builder<T> set(String key, String value) {
            options.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, key));
            return this;
        }

        /** Sets read options by key; see {@link #set}. */
        public Builder<T> setAll(Map<String, String> values) {
            values.forEach(this::set);
            return this;
        }

        private Builder<T> set(String key, Object value) {
            if (value == null) {
                options.remove(key);
            } else {
                options.put(key, value.toString());
            }
            return this;
        }

        /** Whether the read is unbounded ({@code streaming}). */
        public Builder<T> streaming(boolean streaming) {
            return set(FlinkReadOptions.STREAMING.key(), streaming);
        }

        /** Where a streaming read starts ({@code starting-strategy}). */
        public Builder<T> streamingStartingStrategy(StreamingStartingStrategy strategy) {
            return set(FlinkReadOptions.STARTING_STRATEGY.key(), strategy);
        }

        /** {@code start-snapshot-id}: exclusive unless the strategy says otherwise. */
        public Builder<T> startSnapshotId(Long snapshotId) {
            return set(FlinkReadOptions.START_SNAPSHOT_ID.key(), snapshotId);
        }

        /** {@code start-snapshot-timestamp} in epoch milliseconds. */
        public Builder<T> startSnapshotTimestamp(Long timestampMillis) {
            return set(FlinkReadOptions.START_SNAPSHOT_TIMESTAMP.key(), timestampMillis);
        }

        /** {@code end-snapshot-id}: inclusive end of a bounded incremental read. */
        public Builder<T> endSnapshotId(Long snapshotId) {
            return set(FlinkReadOptions.END_SNAPSHOT_ID.key(), snapshotId);
        }

        /** {@code start-tag}: exclusive start of a bounded incremental read. */
        public Builder<T> startTag(String tag) {
            return set(FlinkReadOptions.START_TAG.key(), tag);
        }

        /** {@code end-tag}: inclusive end of a bounded incremental read. */
        public Builder<T> endTag(String tag) {
            return set(FlinkReadOptions.END_TAG.key(), tag);
        }

        /** {@code snapshot-id}: batch time travel. */
        public Builder<T> snapshotId(Long snapshotId) {
            return set(FlinkReadOptions.SNAPSHOT_ID.key(), snapshotId);
        }

        /** {@code as-of-timestamp}: batch time travel, epoch milliseconds. */
        public Builder<T> asOfTimestamp(Long timestampMillis) {
            return set(FlinkReadOptions.AS_OF_TIMESTAMP.key(), timestampMillis);
        }

        /** {@code branch}: read (and in streaming follow) this branch. */
        public Builder<T> branch(String branch) {
            return set(FlinkReadOptions.BRANCH.key(), branch);
        }

        /** {@code tag}: batch read of a tagged snapshot. */
        public Builder<T> tag(String tag) {
            return set(FlinkReadOptions.TAG.key(), tag);
        }

        /** {@code monitor-interval}: how often a streaming read looks for snapshots. */
        public Builder<T> monitorInterval(Duration interval) {
            return set(
                    FlinkReadOptions.MONITOR_INTERVAL.key(),
                    interval == null ? null : interval.toMillis() + " ms");
        }

        /** The top-level columns to read, in this order; fields are matched by name. */
        public Builder<T> project(Schema schema) {
            this.projection = schema;
            return this;
        }

        /** Iceberg filters: they prune files and are applied to every row read (residuals). */
        public Builder<T> filters(List<Expression> expressions) {
            this.filters.clear();
            this.filters.addAll(expressions);
            return this;
        }

        /**
         * {@code limit}: the most rows the source emits in total.
         *
         * <p>The trade-off of an exact limit: a limited read hands every split to one reader
         * subtask and finishes the others at once, so it reads with the throughput of one subtask.
         * Once the limit is reached the read ends, in streaming mode too. The count is not
         * checkpointed: after a restore from a checkpoint, up to {@code limit} rows may be emitted
         * again from the restored positions.
         */
        public Builder<T> limit(Long limit) {
            return set(FlinkReadOptions.LIMIT.key(), limit);
        }

        /** {@code split-size} in bytes. */
        public Builder<T> splitSize(Long bytes) {
            return set(FlinkReadOptions.SPLIT_SIZE.key(), bytes);
        }

        /** {@code split-lookback}. */
        public Builder<T> splitLookback(Integer lookback) {
            return set(FlinkReadOptions.SPLIT_LOOKBACK.key(), lookback);
        }

        /** {@code split-file-open-cost} in bytes. */
        public Builder<T> splitOpenFileCost(Long bytes) {
            return set(FlinkReadOptions.SPLIT_FILE_OPEN_COST.key(), bytes);
        }

        /** {@code max-planning-snapshot-count}. */
        public Builder<T> maxPlanningSnapshotCount(int count) {
            return set(FlinkReadOptions.MAX_PLANNING_SNAPSHOT_COUNT.key(), count);
        }

        /** {@code max-allowed-planning-failures} (-1: never fail). */
        public Builder<T> maxAllowedPlanningFailures(int failures) {
            return set(FlinkReadOptions.MAX_ALLOWED_PLANNING_FAILURES.key(), failures);
        }

        /** {@code case-sensitive}. */
        public Builder<T> caseSensitive(boolean caseSensitive) {
            return set(FlinkReadOptions.CASE_SENSITIVE.key(), caseSensitive);
        }

        /** {@code include-column-stats}. */
        public Builder<T> includeColumnStats(boolean include) {
            return set(FlinkReadOptions.INCLUDE_COLUMN_STATS.key(), include);
        }

        /** {@code watermark-column}: order splits by it and emit split watermarks. */
        public Builder<T> watermarkColumn(String column) {
            return set(FlinkReadOptions.WATERMARK_COLUMN.key(), column);
        }

        /** {@code watermark-column-time-unit} of a long watermark column. */
        public Builder<T> watermarkColumnTimeUnit(TimeUnit unit) {
            return set(FlinkReadOptions.WATERMARK_COLUMN_TIME_UNIT.key(), unit);
        }

        /** The name mapping for files without field ids ({@code schema.name-mapping.default}). */
        public Builder<T> nameMapping(NameMapping mapping) {
            return set(
                    FlinkReadOptions.NAME_MAPPING.key(),
                    mapping == null ? null : NameMappingParser.toJson(mapping));
        }

        /**
         * {@code split-planning-page-size}: the most pending splits a full scan is planned ahead
         * (-1: plan the whole scan at once and keep it in state).
         */
        public Builder<T> splitPlanningPageSize(int splits) {
            return set(FlinkReadOptions.SPLIT_PLANNING_PAGE_SIZE.key(), splits);
        }

        /**
         * Planning threads ({@code table.exec.iceberg.worker-pool-size}) for scans that are not
         * paged: streaming increments, and full scans with {@code split-planning-page-size} = -1.
         * Paged scans plan on one thread, which keeps their split order deterministic.
         */
        public Builder<T> planParallelism(int threads) {
            return set(FlinkReadOptions.PLAN_PARALLELISM.key(), threads);
        }

        /** Records per batch handed from the fetcher thread to the reader. */
        public Builder<T> batchSize(int records) {
            this.batchSize = records;
            return this;
        }

        /**
         * Loads the table, resolves and validates every setting, and creates the source.
         *
         * @throws IllegalArgumentException naming the options when settings are invalid or
         *     contradict each other
         * @throws IllegalStateException when no table loader was set
         */
        public IcebergSource<T> build() {
            if (tableLoader == null) {
                throw new IllegalStateException(
                        "IcebergSource needs a table: call tableLoader(..) before build()");
            }
            TableLoader loader = tableLoader.clone();
            Table table;
            try {
                table = loader.loadTable();
            } finally {
                try {
                    loader.close();
                } catch (java.io.IOException e) {
                    // Only metadata was read.
                }
            }
            ScanContext context =
                    ScanContext.resolve(options, flinkConfig, table, projection, filters);
            SplitAssignerFactory assigners = assignerFactory;
            SplitWatermarkExtractor extractor = null;
            if (context.watermarkColumn() != null) {
                if (assignerFactory != null) {
                    throw new IllegalArgumentException(
                            "Option 'watermark-column' = '"
                                    + context.watermarkColumn()
                                    + "' orders splits by watermark itself and cannot be combined"
                                    + " with assignerFactory("
                                    + assignerFactory.getClass().getSimpleName()
                                    + ")");
                }
                extractor =
                        new ColumnStatsWatermarkExtractor(
                                context.tableSchema(),
                                context.watermarkColumn(),
                                context.watermarkColumnTimeUnit(),
                                context.caseSensitive());
                assigners = new WatermarkOrderedSplitAssignerFactory(extractor);
            } else if (assigners == null) {
                assigners = new SimpleSplitAssignerFactory();
            }
            assigners.validate(table, context.splitSize(), context.splitOpenFileCost());
            NameMapping mapping =
                    context.nameMapping() == null
                            ? null
                            : NameMappingParser.fromJson(context.nameMapping());
            RowDataFileTaskReader fileReader =
                    new RowDataFileTaskReader(
                            context.tableSchema(),
                            context.projectedSchema(),
                            mapping,
                            context.caseSensitive(),
                            table.io(),
                            table.encryption());
            IcebergReaderFunction<T> readerFunction =
                    new IcebergReaderFunction<>(
                            fileReader,
                            converterFactory.create(context.projectedSchema()),
                            batchSize);
            return new IcebergSource<>(
                    tableLoader.clone(),
                    table.name(),
                    context,
                    assigners,
                    readerFunction,
                    extractor);
        }
    }
}
