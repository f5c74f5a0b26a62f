package dev.icebergflink.sink.dynamic;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.options.ConnectorOption;
import dev.icebergflink.options.OptionValidation;
import dev.icebergflink.sink.FlinkWriteOptions;
import dev.icebergflink.sink.compat.WriterInitContextSink;
import dev.icebergflink.sink.writer.SpillDirectory;
import dev.icebergflink.sink.writer.WriterMetrics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessageTypeInfo;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.iceberg.SnapshotRef;

/**
 * One Iceberg sink for many tables whose schemas and partition specs change while the job runs:
 * each input record becomes {@link DynamicRecord}s that name their table, branch, schema and spec,
 * and the sink creates missing tables, evolves schemas and specs, and writes every table exactly
 * once per checkpoint.
 *
 * <pre>{@code
 * DynamicIcebergSink.forInput(changeEvents)
 *     .generator(new ChangeEventToDynamicRecord())
 *     .catalogLoader(CatalogLoader.rest("rest", hadoopConf, Map.of("uri", "http://catalog:8181")))
 *     .writeParallelism(4)
 *     .uidPrefix("replication")
 *     .append();
 * }</pre>
 *
 * <p>Topology:
 *
 * <pre>
 *  input --> generator + resolution --------------------------> writers --> aggregation --> committer
 *            (records whose table takes them as it is)     ^    (all tables)  (1 subtask)    (per table
 *               |                                          |                                 and branch)
 *               +--> table changes, keyed by table --------+
 *                    (create, evolve schema, replace spec, create branch)
 * </pre>
 *
 * <p>Records whose table needs no change go straight to the writers; the others pass one operator
 * keyed by table, so that one instance makes every change of a table and parallel writers never
 * race in the catalog ({@link Builder#immediateTableUpdate} makes the changes in the first operator
 * instead). Schemas evolve where Iceberg allows it without rewriting data: new optional columns,
 * int to long, float to double, wider decimals, required to optional, and, with {@link
 * Builder#dropUnusedColumns}, dropping columns the input no longer has; a narrower input type is
 * written converted. Any other difference fails the job with an {@link IncompatibleSchemaException}
 * naming table, column and both types. Specs become the record's spec; existing files keep theirs.
 *
 * <p>Each table is committed as the single-table {@code IcebergSink} commits: one snapshot per
 * checkpoint and branch, with the same snapshot summary keys ({@code flink.job-id}, {@code
 * flink.operator-id}, {@code flink.max-committed-checkpoint-id}, ...), so a restore never commits a
 * checkpoint twice or skips one. Rows written by key (upsert mode, or equality fields) go to
 * writers by a hash of the key and need format version 2 or later.
 *
 * <p>Memory: each writer subtask keeps at most {@link Builder#maxOpenWriters} file writers open
 * across tables (opening one more completes the least recently used one); each open writer holds
 * its format's buffers (for Parquet about one row group page per column), and the writers that
 * write by key share the subtask's {@code upsert-key-memory}. Table metadata is cached per operator
 * instance, at most {@link Builder#cacheMaxSize} tables, reloaded after {@link
 * Builder#cacheRefreshMs}.
 */
@PublicEvolving
public final class DynamicIcebergSink
        implements WriterInitContextSink<ResolvedRecord>,
                SupportsCommitter<DynamicCommittable>,
                SupportsPreCommitTopology<DynamicWriteResult, DynamicCommittable> {

    private static final long serialVersionUID = 1L;

    private final DynamicSinkSettings settings;

    DynamicIcebergSink(DynamicSinkSettings settings) {
        this.settings = settings;
    }

    /** Starts a dynamic sink for {@code input}. */
    public static <T> Builder<T> forInput(DataStream<T> input) {
        return new Builder<>(input);
    }

    @Override
    public SinkWriter<ResolvedRecord> createWriter(WriterInitContext context) {
        int subtask = context.getTaskInfo().getIndexOfThisSubtask();
        return new DynamicWriter(
                settings,
                new WriterMetrics(context.metricGroup()),
                subtask,
                context.getTaskInfo().getAttemptNumber(),
                configured -> SpillDirectory.resolve(configured, context, subtask));
    }

    @Override
    public SimpleVersionedSerializer<DynamicWriteResult> getWriteResultSerializer() {
        return new DynamicWriteResultSerializer(settings.catalogLoader());
    }

    @Override
    public DataStream<CommittableMessage<DynamicCommittable>> addPreCommitTopology(
            DataStream<CommittableMessage<DynamicWriteResult>> writeResults) {
        String name = "Iceberg dynamic aggregator";
        SingleOutputStreamOperator<CommittableMessage<DynamicCommittable>> aggregated =
                writeResults
                        .global()
                        .transform(
                                name,
                                CommittableMessageTypeInfo.of(DynamicCommittableSerializer::new),
                                new DynamicWriteResultAggregator(
                                        settings, UUID.randomUUID().toString()))
                        .setParallelism(1)
                        .setMaxParallelism(1);
        if (settings.uidPrefix() != null) {
            aggregated.uid(settings.uidPrefix() + "-aggregator");
        }
        return aggregated.global();
    }

    @Override
    public Committer<DynamicCommittable> createCommitter(CommitterInitContext context) {
        return new DynamicCommitter(settings, context.metricGroup());
    }

    @Override
    public SimpleVersionedSerializer<DynamicCommittable> getCommittableSerializer() {
        return new DynamicCommittableSerializer();
    }

    @Override
    public String toString() {
        return "DynamicIcebergSink{catalog=" + settings.catalogLoader() + "}";
    }

    /**
     * Collects the dynamic sink's settings; {@link #append()} checks them and adds the sink to the
     * job. Every setting that is wrong is reported with an {@link IllegalArgumentException} naming
     * it and what is allowed.
     *
     * @param <T> the input record type
     */
    public static final class Builder<T> {

        /** Write options that a {@link DynamicRecord} or a builder method decides instead. */
        private static final Map<String, String> DECIDED_ELSEWHERE =
                Map.of(
                        FlinkWriteOptions.UPSERT_ENABLED.key(),
                        "DynamicRecord.setUpsertMode",
                        FlinkWriteOptions.DISTRIBUTION_MODE.key(),
                        "DynamicRecord's distribution mode",
                        FlinkWriteOptions.BRANCH.key(),
                        "DynamicRecord's branch or toBranch(...)",
                        FlinkWriteOptions.WRITE_PARALLELISM.key(),
                        "writeParallelism(...) and DynamicRecord.writeParallelism",
                        FlinkWriteOptions.OVERWRITE_ENABLED.key(),
                        "overwrite(...)",
                        FlinkWriteOptions.UID_SUFFIX.key(),
                        "uidPrefix(...)",
                        FlinkWriteOptions.TABLE_REFRESH_INTERVAL.key(),
                        "cacheRefreshMs(...)");

        private final DataStream<T> input;
        private DynamicRecordGenerator<T> generator;
        private CatalogLoader catalogLoader;
        private final Map<String, String> options = new LinkedHashMap<>();
        private final Map<String, String> snapshotProperties = new LinkedHashMap<>();
        private ReadableConfig flinkConf;
        private boolean overwrite;
        private TableCreator tableCreator = TableCreator.DEFAULT;
        private Integer writeParallelism;
        private String uidPrefix;
        private String branch;
        private boolean immediateTableUpdate;
        private boolean dropUnusedColumns;
        private int cacheMaxSize = 100;
        private long cacheRefreshMs = 1_000;
        private int inputSchemasPerTableCacheMaxSize = 10;
        private boolean caseSensitive = true;
        private int maxOpenWriters = 100;
        private boolean incompatibleRecordsToSideOutput;
        private DataStream<IncompatibleRecord> incompatibleRecords;

        private Builder(DataStream<T> input) {
            this.input = input;
        }

        /** Turns input records into {@link DynamicRecord}s (required). */
        public Builder<T> generator(DynamicRecordGenerator<T> newGenerator) {
            this.generator = newGenerator;
            return this;
        }

        /** The catalog of the tables (required). */
        public Builder<T> catalogLoader(CatalogLoader loader) {
            this.catalogLoader = loader;
            return this;
        }

        /**
         * Sets a write option by key ({@code write-format}, {@code target-file-size-bytes}, the
         * compression options, {@code upsert-key-memory}, {@code upsert-spill-directory}); it
         * applies to every table, before the Flink configuration and each table's properties.
         */
        public Builder<T> set(String key, String value) {
            if (key == null) {
                throw new IllegalArgumentException("set(key, value) needs an option key; got null");
            }
            options.put(key, value);
            return this;
        }

        /** Sets write options by key (see {@link #set}). */
        public Builder<T> setAll(Map<String, String> newOptions) {
            newOptions.forEach(this::set);
            return this;
        }

        /** Overwrite mode: each checkpoint replaces the partitions it writes, per table. */
        public Builder<T> overwrite(boolean enabled) {
            this.overwrite = enabled;
            return this;
        }

        /** The Flink configuration layer of the write options (the job's configuration). */
        public Builder<T> flinkConf(ReadableConfig config) {
            this.flinkConf = config;
            return this;
        }

        /** Creates missing tables (default: {@link TableCreator#DEFAULT}). */
        public Builder<T> tableCreator(TableCreator creator) {
            this.tableCreator = creator;
            return this;
        }

        /** The writers' parallelism (default: the input's). */
        public Builder<T> writeParallelism(int parallelism) {
            this.writeParallelism = parallelism;
            return this;
        }

        /**
         * Gives the sink's operators stable uids {@code <prefix>-generator}, {@code
         * <prefix>-updater}, {@code <prefix>-writer} and {@code <prefix>-aggregator}, so that
         * savepoints map to them whatever else changes in the job.
         */
        public Builder<T> uidPrefix(String prefix) {
            this.uidPrefix = prefix;
            return this;
        }

        /** Adds a snapshot-summary property to every commit (the sink's flink.* keys win). */
        public Builder<T> setSnapshotProperty(String key, String value) {
            if (key == null || value == null) {
                throw new IllegalArgumentException(
                        "setSnapshotProperty(key, value) needs a key and a value; got "
                                + key
                                + "="
                                + value);
            }
            snapshotProperties.put(key, value);
            return this;
        }

        /** Adds snapshot-summary properties to every commit. */
        public Builder<T> snapshotProperties(Map<String, String> properties) {
            properties.forEach(this::setSnapshotProperty);
            return this;
        }

        /** The branch of records that name none (default: main). */
        public Builder<T> toBranch(String newBranch) {
            this.branch = newBranch;
            return this;
        }

        /**
         * Makes table changes in the first operator, where records are generated, instead of in an
         * operator keyed by table (default false). Saves a hop for the records that need a change;
         * parallel instances that change one table at once converge by retrying.
         */
        public Builder<T> immediateTableUpdate(boolean enabled) {
            this.immediateTableUpdate = enabled;
            return this;
        }

        /**
         * Drops table columns the records' schema no longer has (default false: they stay, NULL in
         * the new rows). Dropping is a metadata change; old files keep the data.
         */
        public Builder<T> dropUnusedColumns(boolean enabled) {
            this.dropUnusedColumns = enabled;
            return this;
        }

        /** How many tables each operator instance keeps metadata of (default 100). */
        public Builder<T> cacheMaxSize(int maxSize) {
            this.cacheMaxSize = maxSize;
            return this;
        }

        /**
         * How old cached table metadata may get before it is loaded again (default 1000 ms):
         * changes made elsewhere (another job, {@code ALTER TABLE}) reach the sink within it.
         */
        public Builder<T> cacheRefreshMs(long refreshMs) {
            this.cacheRefreshMs = refreshMs;
            return this;
        }

        /** How many input schemas per table are remembered with their conversion (default 10). */
        public Builder<T> inputSchemasPerTableCacheMaxSize(int maxSize) {
            this.inputSchemasPerTableCacheMaxSize = maxSize;
            return this;
        }

        /** Whether column names match exactly (default true). */
        public Builder<T> caseSensitive(boolean enabled) {
            this.caseSensitive = enabled;
            return this;
        }

        /** How many file writers each writer subtask keeps open across tables (default 100). */
        public Builder<T> maxOpenWriters(int max) {
            this.maxOpenWriters = max;
            return this;
        }

        /**
         * Emits records whose schema cannot be written to their table as {@link
         * IncompatibleRecord}s on {@link #incompatibleRecords()} instead of failing the job
         * (default false: the job fails with an {@link IncompatibleSchemaException}).
         */
        public Builder<T> incompatibleRecordsToSideOutput(boolean enabled) {
            this.incompatibleRecordsToSideOutput = enabled;
            return this;
        }

        /**
         * The records that were not written because their schema cannot be written to their table;
         * call after {@link #append()}, with {@link #incompatibleRecordsToSideOutput} on.
         *
         * @throws IllegalStateException when the sink was not appended yet or the side output is
         *     off
         */
        public DataStream<IncompatibleRecord> incompatibleRecords() {
            if (!incompatibleRecordsToSideOutput) {
                throw new IllegalStateException(
                        "Incompatible records are not emitted: call"
                                + " incompatibleRecordsToSideOutput(true) before append()");
            }
            if (incompatibleRecords == null) {
                throw new IllegalStateException(
                        "The sink is not in the job yet: call append() before"
                                + " incompatibleRecords()");
            }
            return incompatibleRecords;
        }

        /**
         * Checks the settings and adds the sink to the job.
         *
         * @throws IllegalArgumentException naming the setting at fault
         */
        public DataStreamSink<ResolvedRecord> append() {
            DynamicSinkSettings settings = settings();
            SerializerTypeInfo<ResolvedRecord> resolvedType =
                    new SerializerTypeInfo<>(ResolvedRecord.class, ResolvedRecordSerializer::new);
            SingleOutputStreamOperator<ResolvedRecord> generated =
                    input.process(new DynamicRecordProcessor<>(generator, settings), resolvedType)
                            .name("Iceberg dynamic records");
            if (input.getParallelism() > 0) {
                // the input's order reaches the writers: no rebalance in front of the generator
                generated.setParallelism(input.getParallelism());
            }
            uid(generated, "generator");
            DataStream<ResolvedRecord> resolved = generated;
            incompatibleRecords = generated.getSideOutput(DynamicRecordProcessor.INCOMPATIBLE);
            if (!immediateTableUpdate) {
                SingleOutputStreamOperator<ResolvedRecord> updated =
                        generated
                                .getSideOutput(DynamicRecordProcessor.TABLE_UPDATES)
                                .keyBy(TableUpdateFunction::tableKey, Types.STRING)
                                .process(new TableUpdateFunction(settings), resolvedType)
                                .name("Iceberg table changes");
                uid(updated, "updater");
                resolved = generated.union(updated);
                incompatibleRecords =
                        incompatibleRecords.union(
                                updated.getSideOutput(DynamicRecordProcessor.INCOMPATIBLE));
            }
            DataStreamSink<ResolvedRecord> sink =
                    resolved.partitionCustom(new WriterPartitioner(), new WriterPartitioner.Self())
                            .sinkTo(new DynamicIcebergSink(settings))
                            .name("Iceberg dynamic sink");
            if (uidPrefix != null) {
                sink.uid(uidPrefix + "-writer");
            }
            if (writeParallelism != null) {
                sink.setParallelism(writeParallelism);
            }
            return sink;
        }

        private void uid(SingleOutputStreamOperator<?> operator, String role) {
            if (uidPrefix != null) {
                operator.uid(uidPrefix + "-" + role);
            }
        }

        /** The validated settings. */
        DynamicSinkSettings settings() {
            require(generator != null, "DynamicIcebergSink needs a generator: call generator(...)");
            require(
                    catalogLoader != null,
                    "DynamicIcebergSink needs a catalog: call catalogLoader(...)");
            require(tableCreator != null, "tableCreator(...) needs a creator; got null");
            require(
                    writeParallelism == null || writeParallelism >= 1,
                    "writeParallelism must be at least 1, got " + writeParallelism);
            require(cacheMaxSize >= 1, "cacheMaxSize must be at least 1, got " + cacheMaxSize);
            require(
                    cacheRefreshMs >= 0,
                    "cacheRefreshMs must not be negative, got " + cacheRefreshMs);
            require(
                    inputSchemasPerTableCacheMaxSize >= 1,
                    "inputSchemasPerTableCacheMaxSize must be at least 1, got "
                            + inputSchemasPerTableCacheMaxSize);
            require(
                    maxOpenWriters >= 1,
                    "maxOpenWriters must be at least 1, got " + maxOpenWriters);
            require(
                    uidPrefix == null || !uidPrefix.isBlank(),
                    "uidPrefix must not be blank; leave it unset for no uids");
            for (String key : options.keySet()) {
                String instead = DECIDED_ELSEWHERE.get(key);
                require(
                        instead == null,
                        "Write option '"
                                + key
                                + "' is not taken by DynamicIcebergSink: it is decided per record"
                                + " or by the builder ("
                                + instead
                                + ")");
            }
            List<ConnectorOption<?>> known = FlinkWriteOptions.all();
            OptionValidation.checkKnownKeys(options.keySet(), known);
            DynamicSinkSettings settings =
                    new DynamicSinkSettings(
                            catalogLoader,
                            tableCreator,
                            Map.copyOf(options),
                            DynamicSinkSettings.copyWriteOptions(flinkConf),
                            overwrite,
                            Map.copyOf(snapshotProperties),
                            branch == null || branch.isBlank() ? SnapshotRef.MAIN_BRANCH : branch,
                            immediateTableUpdate,
                            dropUnusedColumns,
                            cacheMaxSize,
                            cacheRefreshMs,
                            inputSchemasPerTableCacheMaxSize,
                            caseSensitive,
                            maxOpenWriters,
                            incompatibleRecordsToSideOutput,
                            uidPrefix);
            // resolve the options once now, so that a bad value fails here instead of in the job
            settings.writeConf(Map.of());
            return settings;
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw new IllegalArgumentException(message);
            }
        }
    }
}
