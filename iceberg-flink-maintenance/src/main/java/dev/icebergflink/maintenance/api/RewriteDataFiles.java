package dev.icebergflink.maintenance.api;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.rewrite.RewriteCommit;
import dev.icebergflink.maintenance.rewrite.RewritePlanning;
import dev.icebergflink.maintenance.rewrite.RewriteWork;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.actions.BinPackRewriteFilePlanner;
import org.apache.iceberg.actions.SizeBasedFileRewritePlanner;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;

/**
 * Compacts small files inside a running Flink job: bin-packs the data files of each partition that
 * are outside the desired size range (or carry too many deletes) into files of the target size,
 * applying every delete on the way, and commits the result as one validated {@code replace}
 * snapshot per run (or, with partial progress, up to {@code partialProgressMaxCommits} snapshots
 * that stand alone). Position deletes and deletion vectors that referred only to rewritten files
 * are removed in the same commit. The main branch is compacted unless {@code branch} names another.
 *
 * <p>Planning runs on one subtask and reads manifests only; the units of work (about one output
 * file each) are rewritten in parallel; the commit runs on one subtask. A run that loses a race
 * with a concurrent writer's delete is given up (the table unchanged, its new files deleted) and
 * the next run plans again; concurrent appends never conflict.
 */
@PublicEvolving
public final class RewriteDataFiles {

    /** The default of {@link Builder#partialProgressMaxCommits}, as Iceberg's. */
    public static final int DEFAULT_PARTIAL_PROGRESS_MAX_COMMITS = 10;

    private RewriteDataFiles() {}

    /** A builder of the task; add it with {@link TableMaintenance.Builder#add}. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link RewriteDataFiles} task. */
    @PublicEvolving
    public static final class Builder extends MaintenanceTaskBuilder<Builder> {

        private final Map<String, String> options = new HashMap<>();
        private Expression filter = Expressions.alwaysTrue();
        private long maxRewriteBytes = Long.MAX_VALUE;
        private boolean caseSensitive = true;
        private boolean partialProgressEnabled = false;
        private int partialProgressMaxCommits = DEFAULT_PARTIAL_PROGRESS_MAX_COMMITS;
        private String branch;

        private Builder() {}

        /**
         * The size of the files written (default: the table's {@code
         * write.target-file-size-bytes}).
         */
        public Builder targetFileSizeBytes(long bytes) {
            return option(SizeBasedFileRewritePlanner.TARGET_FILE_SIZE_BYTES, bytes);
        }

        /** Files smaller than this are rewritten (default: 75% of the target size). */
        public Builder minFileSizeBytes(long bytes) {
            return option(SizeBasedFileRewritePlanner.MIN_FILE_SIZE_BYTES, bytes);
        }

        /** Files larger than this are rewritten (default: 180% of the target size). */
        public Builder maxFileSizeBytes(long bytes) {
            return option(SizeBasedFileRewritePlanner.MAX_FILE_SIZE_BYTES, bytes);
        }

        /** A partition's files are rewritten only when at least this many qualify (default 5). */
        public Builder minInputFiles(int files) {
            return option(SizeBasedFileRewritePlanner.MIN_INPUT_FILES, files);
        }

        /** Files with at least this many delete files are rewritten whatever their size. */
        public Builder deleteFileThreshold(int deleteFiles) {
            return option(BinPackRewriteFilePlanner.DELETE_FILE_THRESHOLD, deleteFiles);
        }

        /** Rewrites every file, whatever its size (default false). */
        public Builder rewriteAll(boolean rewriteAll) {
            options.put(SizeBasedFileRewritePlanner.REWRITE_ALL, Boolean.toString(rewriteAll));
            return this;
        }

        /** The largest group of files rewritten together (default 100 GB). */
        public Builder maxFileGroupSizeBytes(long bytes) {
            return option(SizeBasedFileRewritePlanner.MAX_FILE_GROUP_SIZE_BYTES, bytes);
        }

        /**
         * The most bytes one run rewrites (default unlimited): the largest file groups that fit are
         * taken, the others wait for the next run. Bounds a run's duration on a large backlog.
         */
        public Builder maxRewriteBytes(long bytes) {
            this.maxRewriteBytes = positive("maxRewriteBytes", bytes);
            return this;
        }

        /** Only files that may hold rows matching the filter are rewritten (default: all). */
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

        /**
         * Whether a run commits its file groups in several independent commits (default false): a
         * conflict with a concurrent commit then loses only the groups of the commit it hits, while
         * the other commits land. The run still fails when a group is lost.
         */
        public Builder partialProgressEnabled(boolean enabled) {
            this.partialProgressEnabled = enabled;
            return this;
        }

        /**
         * The most commits one run makes with partial progress (default {@value
         * #DEFAULT_PARTIAL_PROGRESS_MAX_COMMITS}); the file groups are spread evenly over them.
         */
        public Builder partialProgressMaxCommits(int maxCommits) {
            if (maxCommits <= 0) {
                throw new IllegalArgumentException(
                        "partialProgressMaxCommits must be positive, got " + maxCommits);
            }
            this.partialProgressMaxCommits = maxCommits;
            return this;
        }

        /**
         * Compacts this branch instead of the main branch: plans from the branch's head and commits
         * to the branch. A run fails when the table has no such branch.
         */
        public Builder branch(String branchName) {
            if (branchName == null || branchName.isBlank()) {
                throw new IllegalArgumentException(
                        "branch must be a branch name, got "
                                + (branchName == null ? "null" : "'" + branchName + "'"));
            }
            this.branch = branchName;
            return this;
        }

        private Builder option(String key, long value) {
            if (value <= 0) {
                throw new IllegalArgumentException(
                        "RewriteDataFiles option " + key + " must be positive, got " + value);
            }
            options.put(key, Long.toString(value));
            return this;
        }

        @Override
        String taskName() {
            return "RewriteDataFiles";
        }

        @Override
        Steps steps(TableLoader loader) {
            return new Steps(
                    new RewritePlanning(
                            loader.clone(),
                            filter,
                            caseSensitive,
                            TableProperties.SPLIT_OPEN_FILE_COST_DEFAULT,
                            options,
                            maxRewriteBytes,
                            branch),
                    new RewriteWork(loader.clone()),
                    new RewriteCommit(
                            loader.clone(),
                            branch,
                            partialProgressEnabled,
                            partialProgressMaxCommits));
        }
    }
}
