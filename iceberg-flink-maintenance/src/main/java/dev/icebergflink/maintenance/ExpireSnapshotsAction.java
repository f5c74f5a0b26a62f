package dev.icebergflink.maintenance;

import dev.icebergflink.maintenance.cleanup.ReachableFiles;
import dev.icebergflink.maintenance.cleanup.RetainedFlinkCommit;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;

/**
 * Expires old snapshots and deletes the files only they referenced, with Iceberg's own {@link
 * ExpireSnapshots}.
 *
 * <p>Decision: file deletion is done by Iceberg's cleanup on a bounded thread pool of this process
 * ({@link #maxConcurrentDeletes}), not by a Flink job. Iceberg's cleanup knows which files are
 * still referenced by retained snapshots, branches and tags (and honours {@code gc.enabled}); the
 * work is I/O-bound and a thread pool parallelizes it without a job's scheduling cost.
 *
 * <p>Care for Flink writers ({@link #retainLastFlinkCommit}, default on): the newest snapshot of
 * the main branch that records a Flink checkpoint ({@code flink.max-committed-checkpoint-id}) is
 * never expired, nor anything newer, because a restarted streaming job finds its last committed
 * checkpoint there; expiring it could make the job commit a checkpoint twice.
 *
 * <p>Snapshots referenced by branches and tags follow Iceberg's retention rules; the current
 * snapshot is never expired.
 */
@PublicEvolving
public final class ExpireSnapshotsAction {

    static final String FLINK_CHECKPOINT_KEY = RetainedFlinkCommit.FLINK_CHECKPOINT_KEY;

    private final Table table;
    private Long olderThanMillis;
    private Integer retainLast;
    private int maxConcurrentDeletes = 4;
    private boolean retainLastFlinkCommit = true;

    ExpireSnapshotsAction(Table table) {
        this.table = table;
    }

    /**
     * Expires snapshots older than this timestamp (default: the table's {@code
     * history.expire.max-snapshot-age-ms}, 5 days if unset).
     */
    public ExpireSnapshotsAction expireOlderThan(long timestampMillis) {
        this.olderThanMillis = timestampMillis;
        return this;
    }

    /**
     * Keeps at least this many ancestors of the current snapshot, however old (default: the table's
     * {@code history.expire.min-snapshots-to-keep}, 1 if unset).
     *
     * @throws IllegalArgumentException if less than 1
     */
    public ExpireSnapshotsAction retainLast(int snapshots) {
        if (snapshots < 1) {
            throw new IllegalArgumentException(
                    "retainLast must be at least 1 (the current snapshot), got " + snapshots);
        }
        this.retainLast = snapshots;
        return this;
    }

    /**
     * The number of threads deleting files (default 4).
     *
     * @throws IllegalArgumentException if not positive
     */
    public ExpireSnapshotsAction maxConcurrentDeletes(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException(
                    "maxConcurrentDeletes must be positive, got " + threads);
        }
        this.maxConcurrentDeletes = threads;
        return this;
    }

    /**
     * Whether to keep the newest main-branch snapshot committed by a Flink job, and all newer ones
     * (default true). See the class comment.
     */
    public ExpireSnapshotsAction retainLastFlinkCommit(boolean retain) {
        this.retainLastFlinkCommit = retain;
        return this;
    }

    /** Expires the snapshots and deletes the files no retained snapshot needs. */
    public ExpireSnapshotsActionResult execute() {
        table.refresh();
        Set<Long> before = snapshotIds(table);
        // What kind each deletable file is, known before the expiration removes the metadata.
        ReachableFiles reachable = new ReachableFiles(table);
        Set<String> manifestLists = reachable.manifestLists();
        Set<String> manifests = new HashSet<>(reachable.manifests().keySet());
        Set<String> deleteFiles =
                TableUtil.formatVersion(table) >= 2
                                && reachable.manifests().values().stream()
                                        .map(ManifestFile::content)
                                        .anyMatch(ManifestContent.DELETES::equals)
                        ? reachable.contentFiles(ManifestContent.DELETES)
                        : Set.of();
        Set<String> statistics = reachable.statisticsFiles();

        Map<String, Boolean> deleted = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(maxConcurrentDeletes);
        try {
            ExpireSnapshots expire =
                    table.expireSnapshots()
                            .executeDeleteWith(pool)
                            .deleteWith(
                                    location -> {
                                        table.io().deleteFile(location);
                                        deleted.put(location, Boolean.TRUE);
                                    });
            Long olderThan = effectiveOlderThan();
            if (olderThan != null) {
                expire.expireOlderThan(olderThan);
            }
            if (retainLast != null) {
                expire.retainLast(retainLast);
            }
            expire.commit();
        } finally {
            pool.shutdown();
            try {
                pool.awaitTermination(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        table.refresh();
        Set<Long> expired = new HashSet<>(before);
        expired.removeAll(snapshotIds(table));
        long lists = 0, manifestCount = 0, deletes = 0, stats = 0, data = 0;
        for (String location : deleted.keySet()) {
            if (manifestLists.contains(location)) {
                lists++;
            } else if (manifests.contains(location)) {
                manifestCount++;
            } else if (statistics.contains(location)) {
                stats++;
            } else if (deleteFiles.contains(location)) {
                deletes++;
            } else {
                data++;
            }
        }
        return new ExpireSnapshotsActionResult(
                List.copyOf(expired), data, deletes, manifestCount, lists, stats);
    }

    /**
     * The user's threshold, lowered to the newest Flink checkpoint commit when that is protected.
     */
    private Long effectiveOlderThan() {
        return retainLastFlinkCommit
                ? RetainedFlinkCommit.olderThan(table, olderThanMillis)
                : olderThanMillis;
    }

    private static Set<Long> snapshotIds(Table table) {
        Set<Long> ids = new HashSet<>();
        table.snapshots().forEach(snapshot -> ids.add(snapshot.snapshotId()));
        return ids;
    }
}
