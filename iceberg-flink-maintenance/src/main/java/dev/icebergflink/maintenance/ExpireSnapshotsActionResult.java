package dev.icebergflink.maintenance;

import java.util.List;
import org.apache.flink.annotation.PublicEvolving;

/**
 * What an {@link ExpireSnapshotsAction} removed: the expired snapshot ids and how many files of
 * each kind were deleted.
 *
 * <p>It exists so that scheduled maintenance can log and measure its effect.
 */
@PublicEvolving
public final class ExpireSnapshotsActionResult {

    private final List<Long> expiredSnapshotIds;
    private final long deletedDataFiles;
    private final long deletedDeleteFiles;
    private final long deletedManifests;
    private final long deletedManifestLists;
    private final long deletedStatisticsFiles;

    ExpireSnapshotsActionResult(
            List<Long> expiredSnapshotIds,
            long deletedDataFiles,
            long deletedDeleteFiles,
            long deletedManifests,
            long deletedManifestLists,
            long deletedStatisticsFiles) {
        this.expiredSnapshotIds = List.copyOf(expiredSnapshotIds);
        this.deletedDataFiles = deletedDataFiles;
        this.deletedDeleteFiles = deletedDeleteFiles;
        this.deletedManifests = deletedManifests;
        this.deletedManifestLists = deletedManifestLists;
        this.deletedStatisticsFiles = deletedStatisticsFiles;
    }

    /** The ids of the snapshots that were expired. */
    public List<Long> expiredSnapshotIds() {
        return expiredSnapshotIds;
    }

    /** The number of snapshots expired. */
    public int expiredSnapshotsCount() {
        return expiredSnapshotIds.size();
    }

    /** The number of data files deleted. */
    public long deletedDataFilesCount() {
        return deletedDataFiles;
    }

    /** The number of position- and equality-delete files deleted. */
    public long deletedDeleteFilesCount() {
        return deletedDeleteFiles;
    }

    /** The number of manifest files deleted. */
    public long deletedManifestsCount() {
        return deletedManifests;
    }

    /** The number of manifest lists deleted. */
    public long deletedManifestListsCount() {
        return deletedManifestLists;
    }

    /** The number of statistics files deleted. */
    public long deletedStatisticsFilesCount() {
        return deletedStatisticsFiles;
    }

    @Override
    public String toString() {
        return "ExpireSnapshotsActionResult{expiredSnapshots="
                + expiredSnapshotIds.size()
                + ", deletedDataFiles="
                + deletedDataFiles
                + ", deletedDeleteFiles="
                + deletedDeleteFiles
                + ", deletedManifests="
                + deletedManifests
                + ", deletedManifestLists="
                + deletedManifestLists
                + ", deletedStatisticsFiles="
                + deletedStatisticsFiles
                + "}";
    }
}
