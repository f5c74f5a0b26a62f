package dev.icebergflink.sink;

import dev.icebergflink.TableLoader;
import dev.icebergflink.options.ConnectorOption;
import dev.icebergflink.options.OptionValidation;
import dev.icebergflink.sink.committer.CommitTopology;
import dev.icebergflink.sink.committer.CommitterSettings;
import dev.icebergflink.sink.committer.IcebergCommittable;
import dev.icebergflink.sink.committer.IcebergCommittableSerializer;
import dev.icebergflink.sink.committer.IcebergCommitter;
import dev.icebergflink.sink.committer.WriteResultSerializer;
import dev.icebergflink.sink.compat.WriterInitContextSink;
import dev.icebergflink.sink.distribution.DistributionTopology;
import dev.icebergflink.sink.writer.IcebergSinkWriter;
import dev.icebergflink.sink.writer.RowDataTaskWriterFactory;
import dev.icebergflink.sink.writer.SpillDirectory;
import dev.icebergflink.sink.writer.WriterMetrics;
import dev.icebergflink.sink.writer.WriterMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import org.apache.flink.streaming.api.connector.sink2.SupportsPostCommitTopology;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreWriteTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.WriteResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Iceberg sink for Flink's Sink V2 API.
 *
 * <pre>{@code
 * IcebergSink sink =
 *     IcebergSink.forRowData()
 *         .tableLoader(TableLoader.fromHadoopTable("file:///warehouse/db/events"))
 *         .upsert(true)
 *         .equalityFieldColumns(List.of("id"))
 *         .uidSuffix("events")
 *         .build();
 * stream.sinkTo(sink);
 * }</pre>
 *
 * <p>Topology, per checkpoint:
 *
 * <pre>
 *  input --> distribution ----------> writers ---------> aggregator ------> committer
 *            (none/hash/range,        (n subtasks,       (1 subtask:        (1 Iceberg
 *             keyed de-duplication)    data + delete      manifests once,    snapshot,
 *                                      files)             one committable)   exactly once)
 * </pre>
 *
 * <p>The distribution is {@link DistributionTopology}, the writers {@link IcebergSinkWriter} (one
 * {@link WriteResult} per subtask and checkpoint), the aggregation {@link CommitTopology} and the
 * committer {@link IcebergCommitter}. The builder resolves every option once into a {@link
 * SinkPlan} ({@link Builder#resolve()}), from which {@link SinkAssembly} builds this sink; the sink
 * is not changed afterwards, except for the one decision only Flink's translation can make (see
 * {@link #addPreWriteTopology}).
 *
 * <p>Modes (see {@link WriteModes} for the full table): append (default); insert-only input ({@link
 * Builder#insertOnly}: the plain append path, no de-duplication, even on tables with identifier
 * fields); overwrite (dynamic: the partitions the checkpoint touches, the whole table when
 * unpartitioned; static: {@link Builder#overwritePartition}); upsert into format v2+ tables;
 * changelog input (non-insert row kinds) into format v2+ tables. See {@link Builder}.
 *
 * <p>Operator uids: with {@code uid-suffix} set (or through {@link FlinkSink}) every operator of
 * the sink topology gets a stable uid, so savepoints map to it whatever else changes in the job:
 * the writer {@code iceberg-writer-<suffix>} (also the sink's uid, unless the user set one with
 * {@code sinkTo(sink).uid(...)}, which then takes its place in all uids), the committer {@code Sink
 * Committer: iceberg-writer-<suffix>}, the de-duplication {@code iceberg-writer-<suffix>:
 * iceberg-dedup-<suffix>}, the range statistics {@code iceberg-writer-<suffix>:
 * iceberg-range-stats-<suffix>} and the aggregation {@code iceberg-writer-<suffix>:
 * iceberg-aggregator-<suffix>} (Flink prefixes the uids of a sink's own operators with the sink's
 * uid). Without a suffix a plain {@code stream.sinkTo(sink)} leaves the ids to Flink (generated
 * from the job's shape). Two Iceberg sinks of one job need distinct suffixes.
 *
 * <p>Memory in upsert and keyed changelog mode is bounded: the writers keep no per-key map. Keyed
 * input passes a de-duplication operator whose pending changes (one per key changed since the last
 * checkpoint) live in keyed state, so they are governed by the state backend (RocksDB spills them
 * to disk), and are emitted and cleared before each checkpoint barrier. In batch execution Flink
 * sorts the keyed input by key instead (in managed memory, spilling to disk), and the
 * de-duplication holds one key at a time. Upsert input that holds each key at most once can skip
 * all of that with {@link Builder#upsertUniqueKeys}.
 */
@PublicEvolving
public final class IcebergSink
        implements WriterInitContextSink<RowData>,
                SupportsCommitter<IcebergCommittable>,
                SupportsPreCommitTopology<WriteResult, IcebergCommittable>,
                SupportsPreWriteTopology<RowData>,
                SupportsPostCommitTopology<IcebergCommittable> {

    private static final long serialVersionUID = 1L;

    /** The role part of the writer's uid (used by {@link FlinkSink} on the sink transformation). */
    public static final String WRITER_ROLE = "iceberg-writer";

    private final TableLoader tableLoader;
    private final FlinkWriteConf conf;
    private final CommitterSettings committerSettings;
    private final RowDataTaskWriterFactory writerFactory;
    private final DistributionTopology distribution;
    private final String uidSuffix;
    private final String tableName;

    /**
     * Whether the writers resolve repeated keys themselves. The one field not fixed at build: it
     * depends on the execution mode, which only {@link #addPreWriteTopology} sees (the writers'
     * init context does not carry it), and that call settles it before Flink serializes the sink.
     */
    private boolean writersTrackKeys;

    IcebergSink(
            TableLoader tableLoader,
            FlinkWriteConf conf,
            CommitterSettings committerSettings,
            RowDataTaskWriterFactory writerFactory,
            DistributionTopology distribution,
            String uidSuffix,
            String tableName) {
        this.tableLoader = tableLoader;
        this.conf = conf;
        this.committerSettings = committerSettings;
        this.writerFactory = writerFactory;
        this.distribution = distribution;
        this.uidSuffix = uidSuffix;
        this.tableName = tableName;
    }

    /** Starts a sink for {@link RowData} input. */
    public static Builder forRowData() {
        return new Builder();
    }

    @Override
    public SinkWriter<RowData> createWriter(WriterInitContext context) throws IOException {
        return new IcebergSinkWriter(
                writersTrackKeys
                        ? writerFactory.withKeyTracking(
                                conf.upsertKeyMemoryBytes(),
                                SpillDirectory.resolve(
                                        conf.upsertSpillDirectory(),
                                        context,
                                        context.getTaskInfo().getIndexOfThisSubtask()))
                        : writerFactory,
                new WriterMetrics(context.metricGroup()),
                context.getTaskInfo().getIndexOfThisSubtask(),
                context.getTaskInfo().getAttemptNumber(),
                tableLoader,
                conf.tableRefreshInterval());
    }

    @Override
    public DataStream<RowData> addPreWriteTopology(DataStream<RowData> input) {
        SinkTransformationSetup.apply(this, input.getExecutionEnvironment());
        writersTrackKeys = distribution.writersTrackKeys(input.getExecutionEnvironment());
        return distribution.apply(input, operatorUids());
    }

    @Override
    public DataStream<CommittableMessage<IcebergCommittable>> addPreCommitTopology(
            DataStream<CommittableMessage<WriteResult>> writeResults) {
        return CommitTopology.addPreCommitTopology(writeResults, committerSettings);
    }

    /**
     * Adds the table maintenance the options ask for ({@code compaction-enabled}, {@code
     * flink-maintenance.*}) after the committer, fed by the ids of the checkpoints it committed;
     * nothing when no maintenance is on.
     */
    @Override
    public void addPostCommitTopology(
            DataStream<CommittableMessage<IcebergCommittable>> committables) {
        MaintenanceRequest maintenance = conf.maintenance();
        if (!maintenance.enabled()) {
            return;
        }
        PostCommitMaintenance provider =
                PostCommitMaintenance.provider()
                        .orElseThrow(
                                () ->
                                        new IllegalStateException(
                                                "The maintenance module is no longer on the class"
                                                        + " path"));
        SingleOutputStreamOperator<Long> committed =
                committables
                        .flatMap(new CommittedCheckpoints())
                        .returns(Types.LONG)
                        .name("Committed checkpoints: " + tableName)
                        .setParallelism(1);
        if (operatorUids()) {
            committed.uid("iceberg-committed-checkpoints-" + uidSuffix);
        }
        provider.addAfterCommits(
                committed, tableLoader, maintenance.settings(), operatorUids() ? uidSuffix : null);
    }

    /**
     * A copy of this sink that gives every operator of the sink's topology a stable uid derived
     * from the uid suffix (see the class comment); this sink is left as it is. Setting {@code
     * uid-suffix} on the builder turns this on; {@link FlinkSink} always does.
     */
    public IcebergSink withOperatorUids() {
        if (operatorUids()) {
            return this;
        }
        return new IcebergSink(
                tableLoader,
                conf,
                committerSettings.withOperatorUids(true),
                writerFactory,
                distribution,
                uidSuffix,
                tableName);
    }

    /** Whether the sink's own operators get uids (see {@link #withOperatorUids()}). */
    public boolean operatorUids() {
        return committerSettings.operatorUids();
    }

    @Override
    public SimpleVersionedSerializer<WriteResult> getWriteResultSerializer() {
        return new WriteResultSerializer(tableLoader.clone());
    }

    @Override
    public Committer<IcebergCommittable> createCommitter(CommitterInitContext context) {
        return IcebergCommitter.create(committerSettings, context);
    }

    @Override
    public SimpleVersionedSerializer<IcebergCommittable> getCommittableSerializer() {
        return new IcebergCommittableSerializer();
    }

    /** The resolved write configuration. */
    public FlinkWriteConf writeConf() {
        return conf;
    }

    /** The commit settings handed to the committer side. */
    public CommitterSettings committerSettings() {
        return committerSettings;
    }

    /** The writer mode chosen for the table and options. */
    public WriterMode writerMode() {
        return writerFactory.mode();
    }

    /** The suffix of every operator uid of this sink (the table name unless set). */
    public String uidSuffix() {
        return uidSuffix;
    }

    /** The uid {@link FlinkSink} gives the writer (and, derived by Flink, the committer). */
    public String writerUid() {
        return WRITER_ROLE + "-" + uidSuffix;
    }

    /** The writer parallelism, or null for the input's. */
    public Integer writeParallelism() {
        return conf.writeParallelism();
    }

    /** The table's name, for messages. */
    String tableName() {
        return tableName;
    }

    @Override
    public String toString() {
        return "IcebergSink{table=" + tableName + ", conf=" + conf + "}";
    }

    /**
     * Collects the sink's settings; {@link #resolve()} checks them against the table once and
     * {@link #build()} makes the sink from the result.
     *
     * <p>Rejected, with an {@link IllegalArgumentException} naming the option, column or value:
     * mode combinations and upsert needs that break {@link WriteModeRules}; an input schema ({@link
     * #tableSchema}) that does not fit the table; unknown option keys; bad option values; {@code
     * distribution-mode} 'range' on a table with neither sort order nor partition spec.
     *
     * <p>Equality fields come from {@link #equalityFieldColumns}, else from the table's identifier
     * fields. Which writer, commit and de-duplication follow is the table of {@link WriteModes}.
     */
    public static final class Builder {
        private TableLoader tableLoader;
        private Table table;
        private final Map<String, String> options = new LinkedHashMap<>();
        private final Map<String, String> snapshotProperties = new LinkedHashMap<>();
        private List<String> equalityFieldColumns;
        private ResolvedSchema tableSchema;
        private ReadableConfig flinkConf;
        private Map<String, String> staticPartition;
        private boolean insertOnly;

        Builder() {}

        /** The table to write (required). */
        public Builder tableLoader(TableLoader loader) {
            this.tableLoader = loader;
            return this;
        }

        /**
         * A table already loaded, for building the sink without loading it again: {@code build()}
         * plans with this table as it is then (schema, partition spec, sort order, properties, file
         * IO) instead of loading the table once through the loader, and the writers get a
         * serializable copy of it, as they would of a loaded table; the object itself is not part
         * of the sink, so any {@link Table} works, also one bound to a catalog client. It must be
         * the table the loader loads: the loader stays required, because the committer loads the
         * table through it where it commits, to commit against current metadata (also after a
         * restore). {@code null} clears it.
         */
        public Builder table(Table table) {
            this.table = table;
            return this;
        }

        /** Overwrite mode ({@link FlinkWriteOptions#OVERWRITE_ENABLED}). */
        public Builder overwrite(boolean enabled) {
            return set(FlinkWriteOptions.OVERWRITE_ENABLED.key(), Boolean.toString(enabled));
        }

        /** Upsert mode ({@link FlinkWriteOptions#UPSERT_ENABLED}). */
        public Builder upsert(boolean enabled) {
            return set(FlinkWriteOptions.UPSERT_ENABLED.key(), Boolean.toString(enabled));
        }

        /**
         * Promises that the upsert input holds at most one INSERT, UPDATE_AFTER or DELETE row per
         * equality key ({@link FlinkWriteOptions#UPSERT_UNIQUE_KEYS}, default {@code false}), e.g.
         * a bounded batch of distinct keys. The sink then skips the keyed de-duplication: rows are
         * not shuffled by key (unless the distribution mode asks for it) nor, in batch execution,
         * sorted by key, and each writer writes every row as "delete the key, insert the row" at
         * once. The promise is not checked: a key that comes twice within one checkpoint (or one
         * batch job) leaves both of its rows in the table. Needs upsert mode.
         */
        public Builder upsertUniqueKeys(boolean promised) {
            return set(FlinkWriteOptions.UPSERT_UNIQUE_KEYS.key(), Boolean.toString(promised));
        }

        /**
         * Declares that the input carries only INSERT rows (default {@code false}). The sink then
         * takes the plain append path whatever the table: the append writer, {@code AppendFiles}
         * commits, and no keying by the equality fields and no de-duplication, even when the table
         * has identifier fields. Rows of one key are all written, as they arrive (the key is not
         * enforced, as for Flink's {@code PRIMARY KEY ... NOT ENFORCED}). A row of any other kind
         * fails the job with an error naming this setting. The SQL sink sets it when the planner's
         * changelog mode of the query is insert-only.
         *
         * <p>Without it, on a format v2+ table, the input is treated as a changelog: with equality
         * fields it is keyed by them and de-duplicated per checkpoint (its last change per key is
         * written), and retractions become equality deletes. Cannot be combined with upsert.
         */
        public Builder insertOnly(boolean enabled) {
            this.insertOnly = enabled;
            return this;
        }

        /** The equality-field columns; default: the table's identifier fields. */
        public Builder equalityFieldColumns(List<String> columns) {
            this.equalityFieldColumns = columns == null ? null : List.copyOf(columns);
            return this;
        }

        /** How rows reach the writers ({@link FlinkWriteOptions#DISTRIBUTION_MODE}). */
        public Builder distributionMode(DistributionMode mode) {
            if (mode == null) {
                throw new IllegalArgumentException(
                        "distributionMode(...) needs a mode; allowed are NONE, HASH, RANGE");
            }
            return set(FlinkWriteOptions.DISTRIBUTION_MODE.key(), mode.modeName());
        }

        /** The writer parallelism ({@link FlinkWriteOptions#WRITE_PARALLELISM}). */
        public Builder writeParallelism(int parallelism) {
            return set(FlinkWriteOptions.WRITE_PARALLELISM.key(), Integer.toString(parallelism));
        }

        /** The branch to commit to ({@link FlinkWriteOptions#BRANCH}). */
        public Builder branch(String branch) {
            return set(FlinkWriteOptions.BRANCH.key(), branch);
        }

        /** The same as {@link #branch}: the name Iceberg's own Flink sink uses. */
        public Builder toBranch(String branch) {
            return branch(branch);
        }

        /** The uid suffix ({@link FlinkWriteOptions#UID_SUFFIX}). */
        public Builder uidSuffix(String suffix) {
            return set(FlinkWriteOptions.UID_SUFFIX.key(), suffix);
        }

        /** Adds a snapshot-summary property to every commit (the sink's flink.* keys win). */
        public Builder snapshotProperty(String key, String value) {
            if (key == null) {
                throw new IllegalArgumentException(
                        "snapshotProperty(key, value) needs a key; got null");
            }
            snapshotProperties.put(key, value);
            return this;
        }

        /** Adds snapshot-summary properties to every commit (the sink's flink.* keys win). */
        public Builder snapshotProperties(Map<String, String> properties) {
            properties.forEach(this::snapshotProperty);
            return this;
        }

        /** The same as {@link #snapshotProperty}: the name Iceberg's own Flink sink uses. */
        public Builder setSnapshotProperty(String key, String value) {
            return snapshotProperty(key, value);
        }

        /** The same as {@link #snapshotProperties}: the name Iceberg's own Flink sink uses. */
        public Builder setSnapshotProperties(Map<String, String> properties) {
            return snapshotProperties(properties);
        }

        /**
         * Whether the sink compacts small files after its commits, in the same job (the write
         * option {@code compaction-enabled}; needs the iceberg-flink-maintenance module).
         */
        public Builder compaction(boolean enabled) {
            return set(FlinkWriteOptions.REWRITE_ENABLED.key(), Boolean.toString(enabled));
        }

        /** Compacts small files after the sink's commits, with the default settings. */
        public Builder rewriteDataFiles() {
            return rewriteDataFiles(Map.of());
        }

        /**
         * Compacts small files after the sink's commits; {@code settings} are {@code
         * flink-maintenance.rewrite.*} options, given with or without that prefix (e.g. {@code
         * schedule.commit-count}).
         */
        public Builder rewriteDataFiles(Map<String, String> settings) {
            return maintenanceTask(FlinkWriteOptions.REWRITE_ENABLED, "rewrite.", settings);
        }

        /** Expires old snapshots after the sink's commits, with the default settings. */
        public Builder expireSnapshots() {
            return expireSnapshots(Map.of());
        }

        /**
         * Expires old snapshots after the sink's commits; {@code settings} are {@code
         * flink-maintenance.expire-snapshots.*} options, with or without that prefix.
         */
        public Builder expireSnapshots(Map<String, String> settings) {
            return maintenanceTask(
                    FlinkWriteOptions.EXPIRE_SNAPSHOTS_ENABLED, "expire-snapshots.", settings);
        }

        /** Deletes orphan files after the sink's commits, with the default settings. */
        public Builder deleteOrphanFiles() {
            return deleteOrphanFiles(Map.of());
        }

        /**
         * Deletes orphan files after the sink's commits; {@code settings} are {@code
         * flink-maintenance.delete-orphan-files.*} options, with or without that prefix.
         */
        public Builder deleteOrphanFiles(Map<String, String> settings) {
            return maintenanceTask(
                    FlinkWriteOptions.DELETE_ORPHAN_FILES_ENABLED,
                    "delete-orphan-files.",
                    settings);
        }

        /**
         * Turns the sink's equality deletes into position deletes or deletion vectors after its
         * commits; {@code settings} are {@code flink-maintenance.convert-equality-deletes.*}
         * options, with or without that prefix.
         */
        public Builder convertEqualityDeletes(Map<String, String> settings) {
            return maintenanceTask(
                    FlinkWriteOptions.CONVERT_EQUALITY_DELETES_ENABLED,
                    "convert-equality-deletes.",
                    settings);
        }

        private Builder maintenanceTask(
                ConnectorOption<Boolean> enable, String family, Map<String, String> settings) {
            set(enable.key(), "true");
            String prefix = PostCommitMaintenance.PREFIX + family;
            settings.forEach(
                    (key, value) -> set(key.startsWith(prefix) ? key : prefix + key, value));
            return this;
        }

        /**
         * Sets a write option by key (see {@link FlinkWriteOptions}); unknown keys and bad values
         * are rejected when the sink is resolved, naming the key.
         */
        public Builder set(String key, String value) {
            if (key == null) {
                throw new IllegalArgumentException("set(key, value) needs an option key; got null");
            }
            options.put(key, value);
            return this;
        }

        /**
         * Sets a write option given as its constant, e.g. {@code
         * set(FlinkWriteOptions.OVERWRITE_MODE, "true")}: the same as {@code set(option.key(),
         * value)}.
         */
        public Builder set(ConnectorOption<?> option, String value) {
            if (option == null) {
                throw new IllegalArgumentException(
                        "set(option, value) needs an option (a FlinkWriteOptions constant); got"
                                + " null");
            }
            return set(option.key(), value);
        }

        /** Sets write options by key (see {@link #set}). */
        public Builder setAll(Map<String, String> newOptions) {
            newOptions.forEach(this::set);
            return this;
        }

        /**
         * The Flink-side schema of the input, when it differs from the table's own (e.g. TINYINT or
         * CHAR columns); it must fit the table.
         */
        public Builder tableSchema(ResolvedSchema schema) {
            this.tableSchema = schema;
            return this;
        }

        /**
         * The Flink configuration layer of option resolution (between explicit options and table
         * properties); {@link FlinkSink} passes the job's configuration.
         */
        public Builder flinkConf(ReadableConfig config) {
            this.flinkConf = config;
            return this;
        }

        /**
         * Static partition overwrite (SQL {@code INSERT OVERWRITE ... PARTITION (...)}): replace
         * exactly the rows of this partition, given as identity partition column -> value (string
         * form). Implies overwrite mode.
         */
        public Builder overwritePartition(Map<String, String> partition) {
            this.staticPartition = partition == null ? null : new LinkedHashMap<>(partition);
            if (partition != null) {
                overwrite(true);
            }
            return this;
        }

        /**
         * Checks what needs no table: a table loader is set and every option key is known.
         *
         * @throws IllegalArgumentException naming the missing setting or the unknown key
         */
        public Builder validate() {
            if (tableLoader == null) {
                throw new IllegalArgumentException(
                        table == null
                                ? "IcebergSink needs a table: call tableLoader(TableLoader)"
                                : "IcebergSink needs tableLoader(TableLoader) also with table("
                                        + table.name()
                                        + "): the committer loads the table through it where it"
                                        + " commits; call tableLoader(TableLoader) with a loader"
                                        + " of that table");
            }
            OptionValidation.checkKnownKeys(options.keySet(), knownOptions());
            return this;
        }

        /** The write options, and the maintenance settings when the maintenance module is there. */
        private static List<ConnectorOption<?>> knownOptions() {
            List<ConnectorOption<?>> known = new ArrayList<>(FlinkWriteOptions.all());
            PostCommitMaintenance.provider()
                    .ifPresent(provider -> known.addAll(provider.options()));
            return known;
        }

        /**
         * Validates the settings, loads the table once (unless {@link #table(Table) given}) and
         * resolves everything the sink will do (options, rules of {@link WriteModeRules}, modes of
         * {@link WriteModes}) into a plan.
         *
         * @throws IllegalArgumentException naming the option, column or value at fault
         */
        public SinkPlan resolve() {
            validate();
            Table planned = table != null ? table : loadTable(tableLoader);
            FlinkWriteConf conf = FlinkWriteConf.resolve(options, flinkConf, planned.properties());
            return SinkPlan.resolve(
                    planned,
                    conf,
                    new SinkPlan.Request(
                            tableSchema,
                            equalityFieldColumns,
                            insertOnly,
                            staticPartition,
                            snapshotProperties));
        }

        /**
         * Validates the settings against the table and creates the sink.
         *
         * @throws IllegalArgumentException naming the option, column or value at fault
         */
        public IcebergSink build() {
            return SinkAssembly.assemble(tableLoader, resolve());
        }

        /**
         * Loads the table once per build, through a clone of {@code loader} that is closed again
         * (the caller's loader stays unopened).
         */
        private static Table loadTable(TableLoader loader) {
            TableLoader clone = loader.clone();
            try {
                return clone.loadTable();
            } finally {
                try {
                    clone.close();
                } catch (IOException e) {
                    LOG.debug("Closing the table loader failed", e);
                }
            }
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(IcebergSink.class);
}
