package dev.icebergflink.sink.distribution;

import java.io.Serializable;
import java.util.Arrays;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.common.typeinfo.BasicTypeInfo;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.typeutils.TupleTypeInfo;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.MathUtils;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.SortOrderParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink's pre-write topology: how rows reach the writer subtasks, and the keyed de-duplication
 * of upsert and keyed changelog input.
 *
 * <ul>
 *   <li>With equality fields and de-duplication in BATCH execution (except {@code range}): the
 *       writers track keys themselves ({@link #writersTrackKeys}), so rows only need to reach the
 *       writer of their key, in input order: a custom partitioning by the hash of the equality key
 *       (for {@code hash} upserts into a partitioned table by the hash of the partition, whose
 *       source columns are part of an upsert key). No keyed exchange, so Flink does not sort the
 *       rows.
 *   <li>With equality fields and de-duplication otherwise: {@code keyBy(equality key)} into the
 *       {@link ChangelogDeduplicator} (in AUTOMATIC execution, which may become BATCH, after an
 *       {@link InputOrderStamper}, which keeps one key's changes in input order through Flink's
 *       sort); then, for {@code hash} on a partitioned table, by the hash of the partition
 *       (partition source columns are part of the key in upsert mode, so all changes of a key still
 *       meet in one writer); otherwise forward.
 *   <li>{@code none}: forward when the writer parallelism equals the input's, else rebalance.
 *   <li>{@code hash}: by partition on partitioned tables; by equality key on unpartitioned tables
 *       with equality fields; otherwise like {@code none}, with a log line. Hashing is a custom
 *       partitioning ({@link KeyHashPartitioner}), not a {@code keyBy}: the writers keep no keyed
 *       state, and a keyed writer input would make BATCH execution sort every row by key first.
 *   <li>{@code range}: by ranges of the table's sort order (else of its partition fields, as a sort
 *       order): a statistics operator ({@link RangeStatisticsOperator}, at the input's parallelism,
 *       after the de-duplication when there is one) samples the keys and tags each row with its
 *       range's writer, using boundaries its {@link RangeStatisticsCoordinator} computes from all
 *       subtasks' samples at every checkpoint; {@code partitionCustom} then sends the row to that
 *       writer. Rows go round robin until the first boundaries exist. Statistics: a reservoir
 *       sample of at most {@value #RANGE_SAMPLE_PER_WRITER} keys per writer (capped at {@value
 *       #RANGE_MAX_SAMPLE}) per subtask and checkpoint, weighted by the subtask's record count;
 *       {@code range-distribution-sort-key-base-weight} adds weight to every distinct key; a key
 *       heavier than one writer's share is spread over several writers.
 * </ul>
 *
 * <p>It exists so that the sink's {@code addPreWriteTopology} is one call and the rules above are
 * in one place. Serializable because it is part of the sink object.
 */
@Internal
public final class DistributionTopology implements Serializable {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(DistributionTopology.class);

    /** The role part of the range statistics operator's uid. */
    public static final String RANGE_STATS_ROLE = "iceberg-range-stats";

    /** The role part of the uid of the operator that drops the range tag before the writers. */
    public static final String RANGE_UNTAG_ROLE = "iceberg-range-untag";

    /** Sampled keys per writer and statistics subtask and checkpoint. */
    static final int RANGE_SAMPLE_PER_WRITER = 256;

    /** Upper bound of the sample of one statistics subtask and checkpoint. */
    static final int RANGE_MAX_SAMPLE = 8192;

    /** The role part of the uid of the operator that keeps one key's changes in input order. */
    public static final String INPUT_ORDER_ROLE = "iceberg-input-order";

    /** The role part of the de-duplication operator's uid. */
    public static final String DEDUP_ROLE = "iceberg-dedup";

    private final DistributionMode mode;
    private final RowType rowType;
    private final int[] keyPositions;
    private final ChangelogDeduplicator.Mode dedupMode;
    private final PartitionKeySelector partitionSelector;
    private final Integer writeParallelism;
    private final String uidSuffix;
    private final String schemaJson;
    private final String rangeOrderJson;
    private final double rangeBaseWeight;

    /**
     * @param mode the distribution mode
     * @param rowType the input row type
     * @param schema the table schema
     * @param spec the table's partition spec
     * @param keyPositions top-level positions of the equality fields; empty for none
     * @param dedupMode the de-duplication to apply, or null for none (needs key positions)
     * @param writeParallelism the writer parallelism, or null for the input's
     * @param uidSuffix the suffix of operator uids
     * @param rangeOrder the sort order defining range keys (RANGE only, else null)
     * @param rangeBaseWeight the range sort-key base weight (>= 0)
     */
    public DistributionTopology(
            DistributionMode mode,
            RowType rowType,
            Schema schema,
            PartitionSpec spec,
            int[] keyPositions,
            ChangelogDeduplicator.Mode dedupMode,
            Integer writeParallelism,
            String uidSuffix,
            SortOrder rangeOrder,
            double rangeBaseWeight) {
        if (mode == DistributionMode.RANGE && (rangeOrder == null || rangeOrder.isUnsorted())) {
            throw new IllegalArgumentException(
                    "distribution-mode 'range' needs a sort order or a partition spec on the"
                            + " table to take key ranges from; this table has neither (use 'none'"
                            + " or 'hash', or set a sort order: ALTER TABLE ... WRITE ORDERED BY)");
        }
        if (mode == DistributionMode.RANGE) {
            // fail here, not in the job, for keys the statistics cannot carry
            new SortKeyCodec(schema, rangeOrder);
        }
        if (dedupMode != null && keyPositions.length == 0) {
            throw new IllegalArgumentException("De-duplication needs equality fields");
        }
        this.mode = mode;
        this.rowType = rowType;
        this.keyPositions = Arrays.copyOf(keyPositions, keyPositions.length);
        this.dedupMode = dedupMode;
        this.partitionSelector =
                spec.isUnpartitioned() ? null : new PartitionKeySelector(schema, spec, rowType);
        this.writeParallelism = writeParallelism;
        this.uidSuffix = uidSuffix;
        this.schemaJson = SchemaParser.toJson(schema);
        this.rangeOrderJson = rangeOrder == null ? null : SortOrderParser.toJson(rangeOrder);
        this.rangeBaseWeight = rangeBaseWeight;
    }

    /** The uid of the range statistics operator. */
    public String rangeStatsUid() {
        return RANGE_STATS_ROLE + "-" + uidSuffix;
    }

    /** The uid of the de-duplication operator. */
    public String dedupUid() {
        return DEDUP_ROLE + "-" + uidSuffix;
    }

    /**
     * Adds the distribution (and de-duplication) in front of the writers; {@code setUid} gives the
     * de-duplication operator its uid (only allowed when the sink has a uid).
     */
    public DataStream<RowData> apply(DataStream<RowData> input, boolean setUid) {
        int parallelism = writeParallelism != null ? writeParallelism : input.getParallelism();
        if (writersTrackKeys(input.getExecutionEnvironment())) {
            if (mode == DistributionMode.HASH
                    && partitionSelector != null
                    && dedupMode == ChangelogDeduplicator.Mode.UPSERT) {
                return byHash(input, partitionSelector);
            }
            return byEqualityKey(input);
        }
        if (dedupMode != null) {
            EqualityKeySelector keys = new EqualityKeySelector(rowType, keyPositions);
            SingleOutputStreamOperator<RowData> deduplicated =
                    inInputOrder(input, setUid)
                            .keyBy(keys, keys.keyType())
                            .transform(
                                    dedupUid(),
                                    InternalTypeInfo.of(rowType),
                                    new ChangelogDeduplicator(rowType, dedupMode))
                            .setParallelism(parallelism);
            if (setUid) {
                deduplicated.uid(dedupUid());
            }
            if (mode == DistributionMode.RANGE) {
                return range(deduplicated, parallelism, setUid);
            }
            if (mode == DistributionMode.HASH && partitionSelector != null) {
                return byHash(deduplicated, partitionSelector);
            }
            return deduplicated;
        }
        if (mode == DistributionMode.RANGE) {
            return range(input, parallelism, setUid);
        }
        if (mode == DistributionMode.HASH) {
            if (partitionSelector != null) {
                return byHash(input, partitionSelector);
            }
            if (keyPositions.length > 0) {
                return byEqualityKey(input);
            }
            LOG.info(
                    "distribution-mode 'hash' on an unpartitioned table without equality fields"
                            + " has nothing to hash by; distributing as 'none'");
        }
        return parallelism == input.getParallelism() ? input : input.rebalance();
    }

    /**
     * Whether the writers of a job in {@code env} resolve several changes of one key themselves
     * ({@code RowDataTaskWriterFactory#withKeyTracking}) instead of a keyed de-duplication in front
     * of them: for de-duplicated input in BATCH execution, unless the distribution is {@code range}
     * (whose ranges would separate the changes of a key).
     *
     * <p>A keyed exchange in BATCH execution sorts all rows by key before the first one is written;
     * tracking keys in the writer needs only the keys and row positions, and only at the end.
     * Streaming execution keeps the keyed de-duplication: its state is empty at every checkpoint,
     * and the state backend bounds its memory.
     */
    public boolean writersTrackKeys(StreamExecutionEnvironment env) {
        return dedupMode != null
                && mode != DistributionMode.RANGE
                && runtimeMode(env) == RuntimeExecutionMode.BATCH;
    }

    private static RuntimeExecutionMode runtimeMode(StreamExecutionEnvironment env) {
        return env.getConfiguration().get(ExecutionOptions.RUNTIME_MODE);
    }

    /**
     * The input of the keyed de-duplication: in BATCH execution (and AUTOMATIC, which may become
     * BATCH) each row is stamped with its position in its subtask's input ({@link
     * InputOrderStamper}), because Flink sorts a keyed batch input by key and record timestamp with
     * an unstable sort, which would otherwise mix up the order of one key's changes. Streaming
     * execution keeps each channel's order by itself and gets the input unchanged.
     */
    private DataStream<RowData> inInputOrder(DataStream<RowData> input, boolean setUid) {
        if (runtimeMode(input.getExecutionEnvironment()) == RuntimeExecutionMode.STREAMING) {
            return input;
        }
        SingleOutputStreamOperator<RowData> stamped =
                input.transform(INPUT_ORDER_ROLE, input.getType(), new InputOrderStamper())
                        .setParallelism(input.getParallelism());
        if (setUid) {
            stamped.uid(INPUT_ORDER_ROLE + "-" + uidSuffix);
        }
        return stamped;
    }

    /**
     * Sends every row to the writer its key's hash picks, without making the stream keyed: the
     * writers keep no keyed state, and a keyed writer input makes Flink sort all rows by key before
     * the writer in BATCH execution (the sort was half of a partitioned append's CPU time).
     */
    private static <K> DataStream<RowData> byHash(
            DataStream<RowData> input, KeySelector<RowData, K> keys) {
        return input.partitionCustom(new KeyHashPartitioner<>(), keys);
    }

    /**
     * Sends every row to the writer its equality key's hash picks (the same writer as {@link
     * KeyHashPartitioner} over {@link EqualityKey}s), encoding keys into a reused buffer.
     */
    private DataStream<RowData> byEqualityKey(DataStream<RowData> input) {
        return input.partitionCustom(
                new EqualityKeyPartitioner(rowType, keyPositions), new WholeRow());
    }

    private DataStream<RowData> range(DataStream<RowData> input, int writers, boolean setUid) {
        Schema schema = SchemaParser.fromJson(schemaJson);
        RangeSpec spec =
                new RangeSpec(
                        schema,
                        SortOrderParser.fromJson(schema, rangeOrderJson),
                        rowType,
                        writers,
                        Math.min(RANGE_MAX_SAMPLE, RANGE_SAMPLE_PER_WRITER * writers),
                        rangeBaseWeight);
        InternalTypeInfo<RowData> rowInfo = InternalTypeInfo.of(rowType);
        SingleOutputStreamOperator<Tuple2<Integer, RowData>> tagged =
                input.transform(
                                rangeStatsUid(),
                                new TupleTypeInfo<>(BasicTypeInfo.INT_TYPE_INFO, rowInfo),
                                new RangeStatisticsOperatorFactory(spec))
                        .setParallelism(input.getParallelism());
        SingleOutputStreamOperator<RowData> routed =
                tagged.partitionCustom(new ByTag(), new Tag())
                        .map(new Untag())
                        .returns(rowInfo)
                        .name(RANGE_UNTAG_ROLE + "-" + uidSuffix)
                        .setParallelism(writers);
        if (setUid) {
            tagged.uid(rangeStatsUid());
            routed.uid(RANGE_UNTAG_ROLE + "-" + uidSuffix);
        }
        return routed;
    }

    /**
     * Picks a writer from a key's hash code; keys must hash the same in every JVM (the partition
     * hash of {@link PartitionKeySelector} and the binary equality key do).
     */
    static final class KeyHashPartitioner<K> implements Partitioner<K> {
        private static final long serialVersionUID = 1L;

        @Override
        public int partition(K key, int numPartitions) {
            return MathUtils.murmurHash(key.hashCode()) % numPartitions;
        }
    }

    /** Picks a writer from the hash of a row's equality key. */
    static final class EqualityKeyPartitioner implements Partitioner<RowData> {
        private static final long serialVersionUID = 1L;

        private final RowType rowType;
        private final int[] positions;
        private transient EqualityKeyBytes keys;

        EqualityKeyPartitioner(RowType rowType, int[] positions) {
            this.rowType = rowType;
            this.positions = positions;
        }

        @Override
        public int partition(RowData row, int numPartitions) {
            if (keys == null) {
                keys = new EqualityKeyBytes(rowType, positions);
            }
            keys.encode(row);
            return MathUtils.murmurHash(keys.hash()) % numPartitions;
        }
    }

    /** The row itself, for partitioners that read the row. */
    private static final class WholeRow implements KeySelector<RowData, RowData> {
        private static final long serialVersionUID = 1L;

        @Override
        public RowData getKey(RowData row) {
            return row;
        }
    }

    /** Sends a tagged row to the writer its tag names. */
    private static final class ByTag implements Partitioner<Integer> {
        private static final long serialVersionUID = 1L;

        @Override
        public int partition(Integer tag, int numPartitions) {
            return Math.floorMod(tag, numPartitions);
        }
    }

    /** The writer tag of a row. */
    private static final class Tag implements KeySelector<Tuple2<Integer, RowData>, Integer> {
        private static final long serialVersionUID = 1L;

        @Override
        public Integer getKey(Tuple2<Integer, RowData> tagged) {
            return tagged.f0;
        }
    }

    /** Drops the writer tag. */
    private static final class Untag implements MapFunction<Tuple2<Integer, RowData>, RowData> {
        private static final long serialVersionUID = 1L;

        @Override
        public RowData map(Tuple2<Integer, RowData> tagged) {
            return tagged.f1;
        }
    }
}
