package dev.icebergflink.sink.distribution;

import java.io.Serializable;
import java.util.Arrays;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink's pre-write topology: how rows reach the writer subtasks, and the keyed de-duplication
 * of upsert and keyed changelog input.
 *
 * <ul>
 *   <li>With equality fields and de-duplication: {@code keyBy(equality key)} into the {@link
 *       ChangelogDeduplicator}; then, for {@code hash} on a partitioned table, {@code
 *       keyBy(partition)} (partition source columns are part of the key in upsert mode, so all
 *       changes of a key still meet in one writer); otherwise forward.
 *   <li>{@code none}: forward when the writer parallelism equals the input's, else rebalance.
 *   <li>{@code hash}: by partition on partitioned tables; by equality key on unpartitioned tables
 *       with equality fields; otherwise like {@code none}, with a log line.
 *   <li>{@code range}: rejected by the builder (not supported yet).
 * </ul>
 *
 * <p>It exists so that the sink's {@code addPreWriteTopology} is one call and the rules above are
 * in one place. Serializable because it is part of the sink object.
 */
public final class DistributionTopology implements Serializable {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(DistributionTopology.class);

    /** The role part of the de-duplication operator's uid. */
    public static final String DEDUP_ROLE = "iceberg-dedup";

    private final DistributionMode mode;
    private final RowType rowType;
    private final int[] keyPositions;
    private final ChangelogDeduplicator.Mode dedupMode;
    private final PartitionKeySelector partitionSelector;
    private final Integer writeParallelism;
    private final String uidSuffix;

    /**
     * @param mode the distribution mode (not RANGE)
     * @param rowType the input row type
     * @param schema the table schema
     * @param spec the table's partition spec
     * @param keyPositions top-level positions of the equality fields; empty for none
     * @param dedupMode the de-duplication to apply, or null for none (needs key positions)
     * @param writeParallelism the writer parallelism, or null for the input's
     * @param uidSuffix the suffix of operator uids
     */
    public DistributionTopology(
            DistributionMode mode,
            RowType rowType,
            Schema schema,
            PartitionSpec spec,
            int[] keyPositions,
            ChangelogDeduplicator.Mode dedupMode,
            Integer writeParallelism,
            String uidSuffix) {
        if (mode == DistributionMode.RANGE) {
            throw new IllegalArgumentException(
                    "distribution-mode 'range' is not supported yet; use 'none' or 'hash'");
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
        if (dedupMode != null) {
            EqualityKeySelector keys = new EqualityKeySelector(rowType, keyPositions);
            SingleOutputStreamOperator<RowData> deduplicated =
                    input.keyBy(keys, keys.keyType())
                            .transform(
                                    dedupUid(),
                                    InternalTypeInfo.of(rowType),
                                    new ChangelogDeduplicator(rowType, dedupMode))
                            .setParallelism(parallelism);
            if (setUid) {
                deduplicated.uid(dedupUid());
            }
            if (mode == DistributionMode.HASH && partitionSelector != null) {
                return deduplicated.keyBy(partitionSelector);
            }
            return deduplicated;
        }
        if (mode == DistributionMode.HASH) {
            if (partitionSelector != null) {
                return input.keyBy(partitionSelector);
            }
            if (keyPositions.length > 0) {
                EqualityKeySelector keys = new EqualityKeySelector(rowType, keyPositions);
                return input.keyBy(keys, keys.keyType());
            }
            LOG.info(
                    "distribution-mode 'hash' on an unpartitioned table without equality fields"
                            + " has nothing to hash by; distributing as 'none'");
        }
        return parallelism == input.getParallelism() ? input : input.rebalance();
    }
}
