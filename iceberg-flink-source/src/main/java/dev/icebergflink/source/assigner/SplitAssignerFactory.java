package dev.icebergflink.source.assigner;

import dev.icebergflink.source.split.IcebergSourceSplit;
import java.io.Serializable;
import java.util.Collection;

/**
 * Creates the {@link SplitAssigner} of an enumerator, fresh or from checkpointed pending splits.
 *
 * <p>It exists because the source is serialized into the job graph while the assigner lives in the
 * enumerator: the builder takes a factory ({@code IcebergSource.Builder#assignerFactory}).
 */
public interface SplitAssignerFactory extends Serializable {

    /** An assigner with no pending splits. */
    SplitAssigner createAssigner();

    /** An assigner holding restored pending splits. */
    default SplitAssigner createAssigner(Collection<IcebergSourceSplit> pendingSplits) {
        SplitAssigner assigner = createAssigner();
        assigner.onDiscoveredSplits(pendingSplits);
        return assigner;
    }
}
