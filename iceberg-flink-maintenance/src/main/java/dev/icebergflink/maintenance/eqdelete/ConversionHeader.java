package dev.icebergflink.maintenance.eqdelete;

import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DeleteFile;

/**
 * What the commit of an equality-delete conversion needs from its plan: the snapshot planned from
 * and the equality delete files the commit removes. The units travel separately, to the workers.
 *
 * @param startingSnapshotId the snapshot planned from; -1 when the table had none
 * @param removedEqualityDeletes the equality delete files to remove, with their data sequence
 *     numbers (the commit's validation needs them)
 */
@Internal
public record ConversionHeader(long startingSnapshotId, List<DeleteFile> removedEqualityDeletes) {

    public ConversionHeader {
        removedEqualityDeletes = List.copyOf(removedEqualityDeletes);
    }
}
