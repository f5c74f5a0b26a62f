package dev.icebergflink.maintenance.api;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.cleanup.DeleteFilesWork;
import dev.icebergflink.maintenance.cleanup.DeletionSummary;
import dev.icebergflink.maintenance.cleanup.ExpirePlanning;
import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Expires old snapshots inside a running Flink job and deletes the files only they referenced.
 *
 * <p>Iceberg's own expiration decides what goes (it honours branches, tags, {@code gc.enabled} and
 * the table's retention properties) and commits on one subtask; the files it frees are deleted in
 * batches spread over the task's parallelism. The newest snapshot that records a Flink writer's
 * checkpoint is never expired, nor anything newer: a restarted writer finds its last committed
 * checkpoint there.
 */
@PublicEvolving
public final class ExpireSnapshots {

    /** Files per deletion batch by default. */
    public static final int DEFAULT_DELETE_BATCH_SIZE = 1000;

    private ExpireSnapshots() {}

    /** A builder of the task; add it with {@link TableMaintenance.Builder#add}. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds an {@link ExpireSnapshots} task. */
    @PublicEvolving
    public static final class Builder extends MaintenanceTaskBuilder<Builder> {

        private Duration maxSnapshotAge;
        private Integer retainLast;
        private int deleteBatchSize = DEFAULT_DELETE_BATCH_SIZE;
        private int planningWorkerPoolSize;
        private boolean cleanExpiredMetadata;

        private Builder() {}

        /**
         * Snapshots older than this expire (default: the table's {@code
         * history.expire.max-snapshot-age-ms}, 5 days if unset).
         */
        public Builder maxSnapshotAge(Duration age) {
            if (age == null || age.isNegative()) {
                throw new IllegalArgumentException(
                        "maxSnapshotAge must be a duration of 0 or more, got " + age);
            }
            this.maxSnapshotAge = age;
            return this;
        }

        /**
         * At least this many ancestors of the current snapshot are kept, however old (default: the
         * table's {@code history.expire.min-snapshots-to-keep}, 1 if unset).
         */
        public Builder retainLast(int snapshots) {
            if (snapshots < 1) {
                throw new IllegalArgumentException(
                        "retainLast must be at least 1 (the current snapshot), got " + snapshots);
            }
            this.retainLast = snapshots;
            return this;
        }

        /** The number of files one deleting worker deletes in one go (default 1000). */
        public Builder deleteBatchSize(int files) {
            this.deleteBatchSize = positive("deleteBatchSize", files);
            return this;
        }

        /** Threads reading manifests while planning (default: Iceberg's shared worker pool). */
        public Builder planningWorkerPoolSize(int threads) {
            this.planningWorkerPoolSize = positive("planningWorkerPoolSize", threads);
            return this;
        }

        /**
         * Whether schemas and partition specs no retained snapshot uses are removed (default
         * false).
         */
        public Builder cleanExpiredMetadata(boolean clean) {
            this.cleanExpiredMetadata = clean;
            return this;
        }

        @Override
        String taskName() {
            return "ExpireSnapshots";
        }

        @Override
        Steps steps(TableLoader loader) {
            return new Steps(
                    new ExpirePlanning(
                            loader.clone(),
                            maxSnapshotAge,
                            retainLast,
                            deleteBatchSize,
                            planningWorkerPoolSize,
                            cleanExpiredMetadata),
                    new DeleteFilesWork(loader.clone()),
                    new DeletionSummary(taskName()));
        }
    }
}
