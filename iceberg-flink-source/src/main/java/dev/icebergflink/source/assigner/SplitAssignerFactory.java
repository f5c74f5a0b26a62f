package dev.icebergflink.source.assigner;

import dev.icebergflink.source.split.IcebergSourceSplit;
import java.io.Serializable;
import java.util.Collection;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.iceberg.Table;

/**
 * Creates the {@link SplitAssigner} of an enumerator, fresh or from checkpointed pending splits.
 *
 * <p>It exists because the source is serialized into the job graph while the assigner lives in the
 * enumerator: the builder takes a factory ({@code IcebergSource.Builder#assignerFactory}).
 */
@PublicEvolving
public interface SplitAssignerFactory extends Serializable {

    /**
     * Checks that this assigner can work with the table and the split settings; called by {@code
     * IcebergSource.Builder#build()} before any job runs.
     *
     * @param table the table to read, loaded
     * @param splitSize the resolved {@code split-size}
     * @param splitOpenFileCost the resolved {@code split-file-open-cost}
     * @throws IllegalArgumentException naming what does not fit
     */
    default void validate(Table table, long splitSize, long splitOpenFileCost) {}

    /** An assigner with no pending splits. */
    SplitAssigner createAssigner();

    /** An assigner holding restored pending splits. */
    default SplitAssigner createAssigner(Collection<IcebergSourceSplit> pendingSplits) {
        SplitAssigner assigner = createAssigner();
        assigner.onDiscoveredSplits(pendingSplits);
        return assigner;
    }
}
