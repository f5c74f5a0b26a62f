package dev.icebergflink.sink;

import dev.icebergflink.TableLoader;
import dev.icebergflink.options.OptionValidation;
import dev.icebergflink.sink.committer.CommitMode;
import dev.icebergflink.sink.committer.CommitTopology;
import dev.icebergflink.sink.committer.CommitterSettings;
import dev.icebergflink.sink.committer.IcebergCommittable;
import dev.icebergflink.sink.committer.IcebergCommittableSerializer;
import dev.icebergflink.sink.committer.IcebergCommitter;
import dev.icebergflink.sink.committer.WriteResultSerializer;
import dev.icebergflink.sink.distribution.ChangelogDeduplicator;
import dev.icebergflink.sink.distribution.DistributionTopology;
import dev.icebergflink.sink.writer.IcebergSinkWriter;
import dev.icebergflink.sink.writer.RowDataTaskWriterFactory;
import dev.icebergflink.sink.writer.SpillDirectory;
import dev.icebergflink.sink.writer.WriterMetrics;
import dev.icebergflink.sink.writer.WriterMode;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreWriteTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.transformations.SinkTransformation;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.util.SortOrderUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Iceberg sink for Flink's Sink V2 API: {@code stream.sinkTo(IcebergSink.forRowData()
 * .tableLoader(loader).build())}.
 *
 * <p>Topology: optional distribution and keyed de-duplication ({@link DistributionTopology}) ->
 * writer subtasks ({@link IcebergSinkWriter}, one {@link WriteResult} per subtask and checkpoint)
 * -> one aggregation per table that writes the manifests once ({@link CommitTopology}) -> the
 * {@link IcebergCommitter}, which makes exactly one Iceberg snapshot per checkpoint, exactly once.
 *
 * <p>Modes: append (default); insert-only input ({@link Builder#insertOnly}: the plain append path,
 * no de-duplication, even on tables with identifier fields); overwrite (dynamic: the partitions the
 * checkpoint touches, the whole table when unpartitioned; static: {@link
 * Builder#overwritePartition}); upsert into format v2+ tables; changelog input (non-insert row
 * kinds) into format v2+ tables. See {@link Builder}.
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
        implements Sink<RowData>,
                SupportsCommitter<IcebergCommittable>,
                SupportsPreCommitTopology<WriteResult, IcebergCommittable>,
                SupportsPreWriteTopology<RowData> {

    private static final long serialVersionUID = 1L;

    /** The role part of the writer's uid (used by {@link FlinkSink} on the sink transformation). */
    public static final String WRITER_ROLE = "iceberg-writer";

    private final TableLoader tableLoader;
    private final FlinkWriteConf conf;
    private CommitterSettings committerSettings;
    private final RowDataTaskWriterFactory writerFactory;
    private final DistributionTopology distribution;
    private final String uidSuffix;
    private final String tableName;

    /**
     * Whether the writers resolve repeated keys themselves: settled by {@link
     * #addPreWriteTopology}, which knows the execution mode, before Flink serializes the sink.
     */
    private boolean writersTrackKeys;

    private IcebergSink(
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
                context.getTaskInfo().getAttemptNumber());
    }

    @Override
    public DataStream<RowData> addPreWriteTopology(DataStream<RowData> input) {
        adjustSinkTransformation(input);
        writersTrackKeys = distribution.writersTrackKeys(input.getExecutionEnvironment());
        return distribution.apply(input, operatorUids());
    }

    /**
     * Settles what only the sink transformation can carry, before Flink reads it for the writer and
     * committer: with operator uids on, the sink needs a uid too (Flink rejects uids inside a sink
     * topology otherwise, and the writer's and committer's uids derive from it), so when the user
     * gave none it takes {@link #writerUid()}; and {@code write-parallelism} becomes the writer's
     * parallelism unless the user set one on the sink. Two Iceberg sinks of one job with the same
     * uids are rejected here, naming the option, instead of failing later with a hash collision.
     */
    private void adjustSinkTransformation(DataStream<RowData> input) {
        for (Transformation<?> t : input.getExecutionEnvironment().getTransformations()) {
            if (!(t instanceof SinkTransformation)) {
                continue;
            }
            SinkTransformation<?, ?> sinkTransformation = (SinkTransformation<?, ?>) t;
            Sink<?> other = sinkTransformation.getSink();
            if (other == this) {
                if (operatorUids() && sinkTransformation.getUid() == null) {
                    sinkTransformation.setUid(writerUid());
                }
                if (conf.writeParallelism() != null
                        && !sinkTransformation.isParallelismConfigured()) {
                    sinkTransformation.setParallelism(conf.writeParallelism(), true);
                }
            } else if (!operatorUids()) {
                continue;
            } else if (other instanceof IcebergSink
                    && ((IcebergSink) other).operatorUids()
                    && ((IcebergSink) other).uidSuffix.equals(uidSuffix)) {
                throw new IllegalStateException(
                        "Two Iceberg sinks in one job use the uid suffix '"
                                + uidSuffix
                                + "' (tables "
                                + ((IcebergSink) other).tableName
                                + " and "
                                + tableName
                                + "); give each a distinct option 'uid-suffix'");
            }
        }
    }

    @Override
    public DataStream<CommittableMessage<IcebergCommittable>> addPreCommitTopology(
            DataStream<CommittableMessage<WriteResult>> writeResults) {
        return CommitTopology.addPreCommitTopology(writeResults, committerSettings);
    }

    /**
     * Gives every operator of the sink's topology a stable uid derived from the uid suffix (see the
     * class comment). Setting {@code uid-suffix} on the builder turns this on; {@link FlinkSink}
     * always does.
     */
    public IcebergSink withOperatorUids() {
        this.committerSettings = committerSettings.withOperatorUids(true);
        return this;
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

    @Override
    public String toString() {
        return "IcebergSink{table=" + tableName + ", conf=" + conf + "}";
    }

    /**
     * Collects the sink's settings; {@link #build()} validates them against the table.
     *
     * <p>Rejected in {@code build()}, with a message naming the option or column: overwrite
     * together with upsert; upsert without equality fields or on a format v1 table; upsert on a
     * partitioned table whose partition source columns are not all equality fields; an input schema
     * ({@link #tableSchema}) that does not fit the table (missing, extra or reordered column, wrong
     * type, nullable into required); unknown option keys; bad option values; {@code
     * distribution-mode} 'range' on a table with neither sort order nor partition spec.
     *
     * <p>Equality fields come from {@link #equalityFieldColumns}, else from the table's identifier
     * fields. On a format v2+ table with equality fields, the input is keyed by them and passes the
     * de-duplication operator (see the class comment for its memory behaviour), unless it is
     * declared {@link #insertOnly insert-only}.
     *
     * <p>Which writer and commit: insert-only input, format v1 tables and overwrite use the append
     * writer; upsert and changelog input into v2+ tables the delta writer, whose INSERT rows take
     * the same path as the append writer's. A checkpoint without delete files is always committed
     * as a fast append ({@code AppendFiles}), so an insert-only stream into a v2 table makes
     * 'append' snapshots whatever the mode.
     */
    public static final class Builder {
        private TableLoader tableLoader;
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
            return set(FlinkWriteOptions.DISTRIBUTION_MODE.key(), mode.modeName());
        }

        /** The writer parallelism ({@link FlinkWriteOptions#WRITE_PARALLELISM}). */
        public Builder writeParallelism(int parallelism) {
            return set(FlinkWriteOptions.WRITE_PARALLELISM.key(), Integer.toString(parallelism));
        }

        /** The branch to commit to ({@link FlinkWriteOptions#BRANCH}). */
        public Builder toBranch(String branch) {
            return set(FlinkWriteOptions.BRANCH.key(), branch);
        }

        /** The uid suffix ({@link FlinkWriteOptions#UID_SUFFIX}). */
        public Builder uidSuffix(String suffix) {
            return set(FlinkWriteOptions.UID_SUFFIX.key(), suffix);
        }

        /** Adds a snapshot-summary property to every commit (the sink's flink.* keys win). */
        public Builder setSnapshotProperty(String key, String value) {
            snapshotProperties.put(key, value);
            return this;
        }

        /** Adds snapshot-summary properties to every commit. */
        public Builder setSnapshotProperties(Map<String, String> properties) {
            snapshotProperties.putAll(properties);
            return this;
        }

        /** Sets a write option by key (see {@link FlinkWriteOptions}). */
        public Builder set(String key, String value) {
            options.put(key, value);
            return this;
        }

        /** Sets write options by key (see {@link FlinkWriteOptions}). */
        public Builder setAll(Map<String, String> newOptions) {
            options.putAll(newOptions);
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
         * Validates the settings against the table and creates the sink.
         *
         * @throws IllegalArgumentException naming the option, column or value at fault
         */
        public IcebergSink build() {
            if (tableLoader == null) {
                throw new IllegalArgumentException(
                        "IcebergSink needs a table: call tableLoader(TableLoader)");
            }
            OptionValidation.checkKnownKeys(options.keySet(), FlinkWriteOptions.all());
            Table table;
            TableLoader loader = tableLoader.clone();
            try {
                table = loader.loadTable();
            } finally {
                try {
                    loader.close();
                } catch (IOException e) {
                    LOG.debug("Closing the table loader failed", e);
                }
            }
            FlinkWriteConf conf = FlinkWriteConf.resolve(options, flinkConf, table.properties());
            if (conf.overwrite() && conf.upsert()) {
                throw new IllegalArgumentException(
                        "Options 'overwrite-enabled' and 'upsert-enabled' cannot both be true:"
                                + " overwrite replaces partitions, upsert replaces rows by key");
            }
            if (insertOnly && conf.upsert()) {
                throw new IllegalArgumentException(
                        "insertOnly(true) cannot be combined with option 'upsert-enabled' = true:"
                                + " upsert input replaces rows by key, insert-only input only"
                                + " adds rows; drop one of them");
            }
            if (conf.upsertUniqueKeys() && !conf.upsert()) {
                throw new IllegalArgumentException(
                        "Option 'upsert-unique-keys' = true applies to upsert mode only: set"
                                + " 'upsert-enabled' = true (upsert(true)) or drop it");
            }
            RowType rowType = SinkValidation.inputType(table.schema(), tableSchema);
            int formatVersion = TableUtil.formatVersion(table);
            List<Integer> equalityIds =
                    SinkValidation.equalityFieldIds(table.schema(), equalityFieldColumns);
            if (conf.upsert()) {
                SinkValidation.checkUpsert(
                        formatVersion, table.schema(), table.spec(), equalityIds);
            } else if (equalityFieldColumns != null
                    && !equalityFieldColumns.isEmpty()
                    && !table.schema().identifierFieldIds().isEmpty()
                    && !table.schema().identifierFieldIds().containsAll(equalityIds)) {
                LOG.info(
                        "Equality field columns {} differ from the identifier fields of table {};"
                                + " using the equality field columns",
                        equalityFieldColumns,
                        table.name());
            }

            WriterMode writerMode;
            CommitMode commitMode;
            ChangelogDeduplicator.Mode dedup = null;
            Expression staticFilter = null;
            if (conf.overwrite()) {
                writerMode = insertOnly ? WriterMode.INSERT_ONLY : WriterMode.APPEND;
                if (staticPartition != null) {
                    staticFilter =
                            SinkValidation.staticPartitionFilter(
                                    table.schema(), table.spec(), staticPartition);
                    commitMode = CommitMode.STATIC_OVERWRITE;
                } else {
                    commitMode = CommitMode.DYNAMIC_OVERWRITE;
                }
            } else if (staticPartition != null) {
                throw new IllegalArgumentException(
                        "overwritePartition(...) needs option 'overwrite-enabled' = true");
            } else if (insertOnly) {
                writerMode = WriterMode.INSERT_ONLY;
                commitMode = CommitMode.APPEND;
            } else if (conf.upsert()) {
                writerMode = WriterMode.UPSERT;
                commitMode = CommitMode.ROW_DELTA;
                // with the user's promise of unique keys there is nothing to de-duplicate
                dedup = conf.upsertUniqueKeys() ? null : ChangelogDeduplicator.Mode.UPSERT;
            } else if (formatVersion >= 2) {
                writerMode = WriterMode.CHANGELOG;
                commitMode = CommitMode.ROW_DELTA;
                dedup = equalityIds.isEmpty() ? null : ChangelogDeduplicator.Mode.CHANGELOG;
            } else {
                writerMode = WriterMode.APPEND;
                commitMode = CommitMode.APPEND;
            }
            List<Integer> deleteKey = writerMode.appendsOnly() ? List.of() : equalityIds;

            String suffix = conf.uidSuffix().isEmpty() ? table.name() : conf.uidSuffix();
            CommitterSettings.Builder settings =
                    CommitterSettings.builder(tableLoader.clone())
                            .branch(conf.branch())
                            .snapshotProperties(snapshotProperties)
                            .uidSuffix(suffix)
                            .operatorUids(!conf.uidSuffix().isEmpty())
                            .mode(commitMode);
            if (staticFilter != null) {
                settings.staticOverwrite(staticFilter);
            }
            RowDataTaskWriterFactory factory =
                    new RowDataTaskWriterFactory(
                            table,
                            rowType,
                            conf.format(),
                            conf.targetFileSizeBytes(),
                            conf.writeProperties(),
                            writerMode,
                            deleteKey);
            DistributionTopology distribution =
                    new DistributionTopology(
                            conf.distributionMode(),
                            rowType,
                            table.schema(),
                            table.spec(),
                            SinkValidation.positions(table.schema(), equalityIds),
                            dedup,
                            conf.writeParallelism(),
                            suffix,
                            conf.distributionMode() == DistributionMode.RANGE
                                    ? rangeOrder(table)
                                    : null,
                            conf.rangeSortKeyBaseWeight());
            LOG.info(
                    "Iceberg sink for table {}: writer mode {}, commit mode {}, equality fields"
                            + " {}, {}",
                    table.name(),
                    writerMode,
                    commitMode,
                    Arrays.toString(
                            equalityIds.stream().map(table.schema()::findColumnName).toArray()),
                    conf);
            return new IcebergSink(
                    tableLoader.clone(),
                    conf,
                    settings.build(),
                    factory,
                    distribution,
                    suffix,
                    table.name());
        }
    }

    /**
     * The keys of range distribution: the table's sort order, else its partition fields as a sort
     * order (unsorted when the table has neither; the distribution then rejects 'range').
     */
    static SortOrder rangeOrder(Table table) {
        if (table.sortOrder().isSorted()) {
            return table.sortOrder();
        }
        return SortOrderUtil.buildSortOrder(table.schema(), table.spec(), SortOrder.unsorted());
    }

    private static final Logger LOG = LoggerFactory.getLogger(IcebergSink.class);
}
