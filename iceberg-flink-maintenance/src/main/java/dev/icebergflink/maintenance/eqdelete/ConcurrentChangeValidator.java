package dev.icebergflink.maintenance.eqdelete;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotAncestryValidator;
import org.apache.iceberg.SnapshotChanges;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.ContentFileUtil;

/**
 * Checks, inside Iceberg's commit (on every retry, against the table the commit would apply to),
 * that nothing committed since planning makes the conversion wrong. Iceberg's own validation of a
 * {@code RewriteFiles} only fails on a missing file to remove (an equality delete or replaced
 * deletion vector removed meanwhile); this adds what converting deletes needs:
 *
 * <ul>
 *   <li>no data file was added, in the scope of a removed equality delete, with a data sequence
 *       number below that delete's: the delete applied to it and its rows were never scanned. A
 *       writer's appends get new, higher sequence numbers and pass; only a rewrite committed with
 *       an older sequence number (a compaction started before the delete) fails the conversion;
 *   <li>no data file the new deletes refer to was removed (they would dangle);
 *   <li>on format v3, no deletion vector was added for a data file that gets a new one (a data file
 *       may have only one).
 * </ul>
 *
 * <p>A failed check fails the commit with a {@code ValidationException}: the table is unchanged.
 */
@Internal
public final class ConcurrentChangeValidator implements SnapshotAncestryValidator {

    private final Table table;
    private final Map<Integer, PartitionSpec> specs;
    private final long startingSnapshotId;
    private final Map<DeleteScope, Long> highestRemoved = new HashMap<>();
    private final Set<String> referencedDataFiles;
    private final Set<String> newVectorTargets;
    private String error = "";

    /**
     * @param table the table, to read the manifests of new snapshots with its specs
     * @param startingSnapshotId the snapshot the conversion was planned from
     * @param removedEqualityDeletes the equality deletes the commit removes, with sequence numbers
     * @param referencedDataFiles the data files the new deletes refer to
     * @param newVectorTargets the data files that get a new deletion vector (empty on format v2)
     */
    public ConcurrentChangeValidator(
            Table table,
            long startingSnapshotId,
            Collection<DeleteFile> removedEqualityDeletes,
            Collection<String> referencedDataFiles,
            Collection<String> newVectorTargets) {
        this.table = table;
        this.specs = table.specs();
        this.startingSnapshotId = startingSnapshotId;
        for (DeleteFile delete : removedEqualityDeletes) {
            highestRemoved.merge(
                    DeleteScope.of(delete, specs), delete.dataSequenceNumber(), Math::max);
        }
        this.referencedDataFiles = new HashSet<>(referencedDataFiles);
        this.newVectorTargets = new HashSet<>(newVectorTargets);
    }

    @Override
    public boolean validate(Iterable<Snapshot> ancestorsOfParent) {
        for (Snapshot snapshot : ancestorsOfParent) {
            if (snapshot.snapshotId() == startingSnapshotId) {
                return true;
            }
            if (!validate(snapshot)) {
                return false;
            }
        }
        error =
                "the starting snapshot "
                        + startingSnapshotId
                        + " is no longer an ancestor of the table's current snapshot";
        return false;
    }

    private boolean validate(Snapshot snapshot) {
        SnapshotChanges changes = SnapshotChanges.builderFor(table).snapshot(snapshot).build();
        for (DataFile added : changes.addedDataFiles()) {
            long sequenceNumber =
                    added.dataSequenceNumber() == null
                            ? snapshot.sequenceNumber()
                            : added.dataSequenceNumber();
            long applying = highestApplying(added);
            if (sequenceNumber < applying) {
                error =
                        String.format(
                                "snapshot %d added data file %s with data sequence number %d, to"
                                        + " which a removed equality delete (sequence number %d)"
                                        + " applies",
                                snapshot.snapshotId(), added.location(), sequenceNumber, applying);
                return false;
            }
        }
        for (DataFile removed : changes.removedDataFiles()) {
            if (referencedDataFiles.contains(removed.location())) {
                error =
                        String.format(
                                "snapshot %d removed data file %s, which the new deletes refer to",
                                snapshot.snapshotId(), removed.location());
                return false;
            }
        }
        if (!newVectorTargets.isEmpty()) {
            for (DeleteFile added : changes.addedDeleteFiles()) {
                if (ContentFileUtil.isDV(added)
                        && newVectorTargets.contains(added.referencedDataFile())) {
                    error =
                            String.format(
                                    "snapshot %d added a deletion vector for data file %s, which"
                                            + " gets a new one",
                                    snapshot.snapshotId(), added.referencedDataFile());
                    return false;
                }
            }
        }
        return true;
    }

    private long highestApplying(DataFile file) {
        long global = highestRemoved.getOrDefault(DeleteScope.GLOBAL, Long.MIN_VALUE);
        if (highestRemoved.size() == (global == Long.MIN_VALUE ? 0 : 1)) {
            return global;
        }
        long partition =
                highestRemoved.getOrDefault(DeleteScope.partitionOf(file, specs), Long.MIN_VALUE);
        return Math.max(global, partition);
    }

    @Override
    public String errorMessage() {
        return error;
    }
}
