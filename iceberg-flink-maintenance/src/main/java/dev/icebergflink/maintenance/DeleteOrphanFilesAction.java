package dev.icebergflink.maintenance;

import dev.icebergflink.maintenance.cleanup.FileLocations;
import dev.icebergflink.maintenance.cleanup.ReachableFiles;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.BulkDeletionFailureException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsBulkOperations;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds files under the table location (or {@link #location}) that no table metadata refers to, and
 * deletes them unless {@link #dryRun(boolean) dry-running}.
 *
 * <p>Care for concurrent writers: a file is an orphan only when it is older than {@link #olderThan}
 * (default: 3 days ago), so files that running writers have written but not yet committed
 * (including a Flink sink's temporary manifests of pending checkpoints) are left alone as long as
 * no write takes longer than that. The directory is listed first and the metadata read afterwards,
 * so a file committed while the listing runs is seen as referenced. Everything any snapshot of any
 * branch or tag refers to is referenced: metadata JSON files (current and logged), the version
 * hint, manifest lists, manifests, data and delete files, statistics files. Hidden files (names
 * starting with {@code .} or {@code _}, such as Hadoop checksums) are never touched. Locations are
 * compared by path, ignoring scheme and authority (see {@link FileLocations}).
 *
 * <p>The listing uses the table's {@link FileIO} prefix listing ({@link SupportsPrefixOperations});
 * the Hadoop, S3, GCS and ADLS FileIOs of Iceberg support it.
 */
@PublicEvolving
public final class DeleteOrphanFilesAction {

    private static final Logger LOG = LoggerFactory.getLogger(DeleteOrphanFilesAction.class);

    /** How old an unreferenced file must be to be an orphan, when not set. */
    public static final Duration DEFAULT_MIN_AGE = Duration.ofDays(3);

    private final Table table;
    private Long olderThanMillis;
    private String location;
    private boolean dryRun;

    DeleteOrphanFilesAction(Table table) {
        this.table = table;
    }

    /** Only files last modified before this timestamp can be orphans (default: 3 days ago). */
    public DeleteOrphanFilesAction olderThan(long timestampMillis) {
        this.olderThanMillis = timestampMillis;
        return this;
    }

    /** The folder to look for orphans in (default: the table location). */
    public DeleteOrphanFilesAction location(String newLocation) {
        this.location = Objects.requireNonNull(newLocation, "location must not be null");
        return this;
    }

    /** When true, orphans are only listed, not deleted (default false). */
    public DeleteOrphanFilesAction dryRun(boolean dryRun) {
        this.dryRun = dryRun;
        return this;
    }

    /**
     * Lists the orphans and, unless dry-running, deletes them.
     *
     * @throws IllegalStateException if the table's FileIO cannot list files
     */
    public DeleteOrphanFilesActionResult execute() {
        FileIO io = table.io();
        if (!(io instanceof SupportsPrefixOperations listing)) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot find orphan files of table %s: its FileIO %s cannot list files"
                                    + " (it does not implement SupportsPrefixOperations)",
                            table.name(), io.getClass().getName()));
        }
        long threshold =
                olderThanMillis != null
                        ? olderThanMillis
                        : System.currentTimeMillis() - DEFAULT_MIN_AGE.toMillis();
        if (System.currentTimeMillis() - threshold < Duration.ofDays(1).toMillis()) {
            LOG.warn(
                    "Looking for orphan files of table {} younger than a day: files of writes in"
                            + " progress may be taken for orphans",
                    table.name());
        }
        table.refresh();
        String root = location != null ? location : table.location();

        // List first, read the metadata afterwards: a file committed meanwhile is then referenced.
        List<String> candidates = new ArrayList<>();
        for (FileInfo file : listing.listPrefix(root)) {
            if (file.createdAtMillis() < threshold
                    && !FileLocations.isHidden(root, file.location())) {
                candidates.add(file.location());
            }
        }
        table.refresh();
        Set<String> referenced = new ReachableFiles(table).allKeys();
        List<String> orphans = new ArrayList<>();
        for (String candidate : candidates) {
            if (!referenced.contains(FileLocations.key(candidate))) {
                orphans.add(candidate);
            }
        }
        orphans.sort(null);
        if (!dryRun && !orphans.isEmpty()) {
            delete(io, orphans);
        }
        return new DeleteOrphanFilesActionResult(orphans, dryRun);
    }

    private void delete(FileIO io, List<String> orphans) {
        LOG.info("Deleting {} orphan files of table {}", orphans.size(), table.name());
        if (io instanceof SupportsBulkOperations bulk) {
            try {
                bulk.deleteFiles(orphans);
            } catch (BulkDeletionFailureException e) {
                throw new IllegalStateException(
                        String.format(
                                "Deleted only %d of %d orphan files of table %s",
                                orphans.size() - e.numberFailedObjects(),
                                orphans.size(),
                                table.name()),
                        e);
            }
            return;
        }
        for (String orphan : orphans) {
            io.deleteFile(orphan);
        }
    }
}
