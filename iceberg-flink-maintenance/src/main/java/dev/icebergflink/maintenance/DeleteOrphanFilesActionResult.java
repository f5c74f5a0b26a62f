package dev.icebergflink.maintenance;

import java.util.List;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The orphan files a {@link DeleteOrphanFilesAction} found, and whether it deleted them.
 *
 * <p>It exists so that a dry run can be reviewed before a real one: {@link #orphanFileLocations()}
 * lists exactly the files a real run would delete.
 */
@PublicEvolving
public final class DeleteOrphanFilesActionResult {

    private final List<String> orphanFileLocations;
    private final boolean dryRun;

    DeleteOrphanFilesActionResult(List<String> orphanFileLocations, boolean dryRun) {
        this.orphanFileLocations = List.copyOf(orphanFileLocations);
        this.dryRun = dryRun;
    }

    /** The orphan files, sorted: deleted, or to be deleted when this was a dry run. */
    public List<String> orphanFileLocations() {
        return orphanFileLocations;
    }

    /** The number of orphan files found. */
    public int orphanFilesCount() {
        return orphanFileLocations.size();
    }

    /** The number of files deleted: 0 for a dry run. */
    public int deletedFilesCount() {
        return dryRun ? 0 : orphanFileLocations.size();
    }

    /** Whether this was a dry run (nothing deleted). */
    public boolean dryRun() {
        return dryRun;
    }

    @Override
    public String toString() {
        return "DeleteOrphanFilesActionResult{orphans="
                + orphanFileLocations.size()
                + ", dryRun="
                + dryRun
                + "}";
    }
}
