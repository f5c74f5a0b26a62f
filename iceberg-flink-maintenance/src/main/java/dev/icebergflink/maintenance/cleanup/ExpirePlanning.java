package dev.icebergflink.maintenance.cleanup;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.task.TaskPlanner;
import dev.icebergflink.maintenance.task.TaskTables;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first step of the streaming snapshot expiration: commits the expiration with Iceberg's {@link
 * ExpireSnapshots} (which knows what retained snapshots, branches and tags still need), collecting
 * the files it would delete instead of deleting them, and hands those to the deleting workers in
 * batches. The newest Flink checkpoint commit is never expired ({@link RetainedFlinkCommit}).
 *
 * <p>Committing here, before the files are deleted, is the safe order: a run cut short leaves
 * unreferenced files behind (orphan deletion removes them), never metadata pointing at deleted
 * files.
 */
@Internal
public final class ExpirePlanning implements TaskPlanner {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(ExpirePlanning.class);

    private final TableLoader loader;
    private final Duration maxSnapshotAge;
    private final Integer retainLast;
    private final int deleteBatchSize;
    private final int planningWorkerPoolSize;
    private final boolean cleanExpiredMetadata;

    private transient Table table;

    /**
     * @param loader the table
     * @param maxSnapshotAge snapshots older than this expire; null for the table's default
     * @param retainLast the number of ancestors always kept; null for the table's default
     * @param deleteBatchSize files per deletion work item
     * @param planningWorkerPoolSize threads reading manifests while planning; 0 for Iceberg's
     *     shared pool
     * @param cleanExpiredMetadata whether schemas and specs no snapshot uses are removed too
     */
    public ExpirePlanning(
            TableLoader loader,
            Duration maxSnapshotAge,
            Integer retainLast,
            int deleteBatchSize,
            int planningWorkerPoolSize,
            boolean cleanExpiredMetadata) {
        this.loader = loader;
        this.maxSnapshotAge = maxSnapshotAge;
        this.retainLast = retainLast;
        this.deleteBatchSize = deleteBatchSize;
        this.planningWorkerPoolSize = planningWorkerPoolSize;
        this.cleanExpiredMetadata = cleanExpiredMetadata;
    }

    @Override
    public void open() {
        loader.open();
    }

    @Override
    public Plan plan(long triggerTimestamp) throws Exception {
        table = TaskTables.current(loader, table);
        Set<Long> before = snapshotIds(table);
        ConcurrentLinkedQueue<String> deletable = new ConcurrentLinkedQueue<>();
        ExecutorService pool =
                planningWorkerPoolSize > 0
                        ? Executors.newFixedThreadPool(planningWorkerPoolSize)
                        : null;
        try {
            ExpireSnapshots expire =
                    table.expireSnapshots()
                            .cleanExpiredMetadata(cleanExpiredMetadata)
                            .deleteWith(deletable::add);
            if (pool != null) {
                expire.planWith(pool);
            }
            Long requested =
                    maxSnapshotAge == null
                            ? null
                            : System.currentTimeMillis() - maxSnapshotAge.toMillis();
            Long olderThan = RetainedFlinkCommit.olderThan(table, requested);
            if (olderThan != null) {
                expire.expireOlderThan(olderThan);
            }
            if (retainLast != null) {
                expire.retainLast(retainLast);
            }
            expire.commit();
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            }
        }
        table.refresh();
        Set<Long> expired = new HashSet<>(before);
        expired.removeAll(snapshotIds(table));
        LOG.info(
                "Expired {} snapshots of table {}; {} files to delete",
                expired.size(),
                table.name(),
                deletable.size());
        return new Plan(
                new byte[0],
                PathBatchSerializer.batches(new ArrayList<>(deletable), deleteBatchSize));
    }

    private static Set<Long> snapshotIds(Table table) {
        Set<Long> ids = new HashSet<>();
        for (Snapshot snapshot : table.snapshots()) {
            ids.add(snapshot.snapshotId());
        }
        return ids;
    }

    @Override
    public void close() throws Exception {
        loader.close();
    }
}
