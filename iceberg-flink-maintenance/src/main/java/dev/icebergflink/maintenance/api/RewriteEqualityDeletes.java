package dev.icebergflink.maintenance.api;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.eqdelete.EqualityDeleteCommit;
import dev.icebergflink.maintenance.eqdelete.EqualityDeletePlanning;
import dev.icebergflink.maintenance.eqdelete.EqualityDeleteWork;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;

/**
 * Turns a table's live equality deletes into position deletes (format v2) or deletion vectors
 * (format v3) inside a running Flink job, so that readers of any engine stop joining every data
 * file with the equality deletes that a streaming upsert writer leaves behind. The table's rows do
 * not change: each run finds the rows its equality deletes delete, deletes them by position
 * instead, and removes the equality delete files, in ONE validated {@code replace} commit.
 *
 * <p>Planning runs on one subtask and reads manifests only (Iceberg's scan decides which data files
 * each equality delete applies to); the data files are scanned in parallel, reading only the
 * equality columns; the commit runs on one subtask. Each new delete file is committed with the
 * sequence number of the equality deletes it replaces, so it applies exactly to the rows they
 * deleted. A run that loses a race with a concurrent commit (typically a compaction committed with
 * an older sequence number) is given up: the table is unchanged, its new files are deleted, and the
 * next run plans again. A streaming writer's own commits never conflict.
 *
 * <p>Typically triggered by {@link #scheduleOnEqDeleteFileCount} or {@link
 * #scheduleOnEqDeleteRecordCount}.
 */
@PublicEvolving
public final class RewriteEqualityDeletes {

    private RewriteEqualityDeletes() {}

    /** A builder of the task; add it with {@link TableMaintenance.Builder#add}. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link RewriteEqualityDeletes} task. */
    @PublicEvolving
    public static final class Builder extends MaintenanceTaskBuilder<Builder> {

        private Expression filter = Expressions.alwaysTrue();
        private boolean caseSensitive = true;
        private long maxRewriteBytes = Long.MAX_VALUE;

        private Builder() {}

        /**
         * The most bytes (equality delete files and the data files they apply to) one run reads
         * (default unlimited): the partitions with the most to read that fit are taken, the others
         * wait for the next run. Bounds a run's duration on a large backlog.
         */
        public Builder maxRewriteBytes(long bytes) {
            this.maxRewriteBytes = positive("maxRewriteBytes", bytes);
            return this;
        }

        /**
         * Only the equality deletes of partitions that may hold rows matching the filter are
         * converted (default: all). Equality deletes of an unpartitioned spec apply to the whole
         * table and are converted only without a filter.
         */
        public Builder filter(Expression expression) {
            if (expression == null) {
                throw new IllegalArgumentException("filter must not be null");
            }
            this.filter = expression;
            return this;
        }

        /** Whether the filter's column names are case-sensitive (default true). */
        public Builder caseSensitive(boolean caseSensitive) {
            this.caseSensitive = caseSensitive;
            return this;
        }

        @Override
        String taskName() {
            return "RewriteEqualityDeletes";
        }

        @Override
        Steps steps(TableLoader loader) {
            return new Steps(
                    new EqualityDeletePlanning(
                            loader.clone(), filter, caseSensitive, maxRewriteBytes),
                    new EqualityDeleteWork(loader.clone()),
                    new EqualityDeleteCommit(loader.clone()));
        }
    }
}
