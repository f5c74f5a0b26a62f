package dev.icebergflink.maintenance;

import dev.icebergflink.maintenance.rewrite.PlannedRewrite;
import dev.icebergflink.maintenance.rewrite.RewriteCommitter;
import dev.icebergflink.maintenance.rewrite.RewriteJob;
import dev.icebergflink.maintenance.rewrite.RewritePlanner;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.actions.SizeBasedFileRewritePlanner;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;

/**
 * Rewrites small data files into files of about the target size, with their delete files applied,
 * as one Flink {@code BATCH} job and ONE atomic Iceberg commit.
 *
 * <p>Steps of {@link #execute()}: refresh the table and remember its current snapshot; plan file
 * groups per partition with Iceberg's bin-packing planner (files outside the desired size range or
 * with too many deletes; {@link #minInputFiles} and the other Iceberg rewrite options decide which
 * groups are worth it); read every group with the source's reader (deletes applied) and write it
 * with the sink's writers in the table's format and current partition spec; commit one {@code
 * RewriteFiles} that validates from the starting snapshot. Appends committed meanwhile are kept; a
 * conflicting delete fails the rewrite with a {@link
 * org.apache.iceberg.exceptions.ValidationException}, the table unchanged and the new files
 * deleted.
 *
 * <p>Settings are plain builder calls; Iceberg's own rewrite options (for example {@code
 * min-file-size-bytes}, {@code max-file-group-size-bytes}, {@code delete-file-threshold}, {@code
 * rewrite-all}) pass through {@link #option}. An action can be executed more than once; each run
 * plans afresh.
 */
@PublicEvolving
public final class RewriteDataFilesAction {

    private final StreamExecutionEnvironment env;
    private final Table table;
    private final Map<String, String> options = new HashMap<>();
    private Expression filter = Expressions.alwaysTrue();
    private long splitOpenFileCost = 0L;
    private boolean caseSensitive = true;
    private Integer maxParallelism;
    private boolean useStartingSequenceNumber = true;
    private Runnable beforeCommit;

    RewriteDataFilesAction(StreamExecutionEnvironment env, Table table) {
        this.env = env;
        this.table = table;
    }

    /**
     * The size output files are rolled at (default: the table's {@code
     * write.target-file-size-bytes}, 512 MB if unset). Files well below it (or above 1.8 times it)
     * are rewritten.
     *
     * @throws IllegalArgumentException if not positive
     */
    public RewriteDataFilesAction targetSizeInBytes(long targetSizeInBytes) {
        if (targetSizeInBytes <= 0) {
            throw new IllegalArgumentException(
                    "targetSizeInBytes must be positive, got " + targetSizeInBytes);
        }
        options.put(
                SizeBasedFileRewritePlanner.TARGET_FILE_SIZE_BYTES,
                Long.toString(targetSizeInBytes));
        return this;
    }

    /**
     * Limits the rewrite to files that may contain rows matching {@code expression} (typically a
     * partition filter); those files are rewritten whole. Several calls are combined with AND.
     */
    public RewriteDataFilesAction filter(Expression expression) {
        Objects.requireNonNull(expression, "filter expression must not be null");
        this.filter = Expressions.and(filter, expression);
        return this;
    }

    /**
     * The minimum weight of a file when the files of a group are combined into tasks (default 0:
     * files are packed by their actual size, so that each task writes about one target-size file).
     * A positive cost spreads many tiny files over more tasks, each writing a smaller file; the
     * table's {@code read.split.open-file-cost} (4 MB by default) is meant for reads and would put
     * nearly every small file in a task of its own.
     *
     * @throws IllegalArgumentException if negative
     */
    public RewriteDataFilesAction splitOpenFileCost(long splitOpenFileCost) {
        if (splitOpenFileCost < 0) {
            throw new IllegalArgumentException(
                    "splitOpenFileCost must not be negative, got " + splitOpenFileCost);
        }
        this.splitOpenFileCost = splitOpenFileCost;
        return this;
    }

    /** Whether column names in {@link #filter} are case-sensitive (default true). */
    public RewriteDataFilesAction caseSensitive(boolean caseSensitive) {
        this.caseSensitive = caseSensitive;
        return this;
    }

    /**
     * The maximum parallelism of the rewrite job (default: the environment's parallelism); the job
     * never runs more tasks than it has work units.
     *
     * @throws IllegalArgumentException if not positive
     */
    public RewriteDataFilesAction maxParallelism(int maxParallelism) {
        if (maxParallelism <= 0) {
            throw new IllegalArgumentException(
                    "maxParallelism must be positive, got " + maxParallelism);
        }
        this.maxParallelism = maxParallelism;
        return this;
    }

    /**
     * The minimum number of files a file group needs to be rewritten (Iceberg's {@code
     * min-input-files}, default 5); a group with fewer files is still rewritten when it holds more
     * than a target file's worth of data or a file with too many deletes.
     *
     * @throws IllegalArgumentException if not positive
     */
    public RewriteDataFilesAction minInputFiles(int minInputFiles) {
        if (minInputFiles <= 0) {
            throw new IllegalArgumentException(
                    "minInputFiles must be positive, got " + minInputFiles);
        }
        options.put(SizeBasedFileRewritePlanner.MIN_INPUT_FILES, Integer.toString(minInputFiles));
        return this;
    }

    /**
     * Whether new files take the data sequence number of the snapshot the rewrite started from
     * (default true). Then equality deletes committed while the rewrite runs still apply to the
     * rewritten rows and do not make the commit fail. Set false only to let the new files carry the
     * commit's own sequence number.
     */
    public RewriteDataFilesAction useStartingSequenceNumber(boolean useStartingSequenceNumber) {
        this.useStartingSequenceNumber = useStartingSequenceNumber;
        return this;
    }

    /**
     * Sets one of Iceberg's rewrite options, for example {@code min-file-size-bytes}, {@code
     * max-file-size-bytes}, {@code max-file-group-size-bytes}, {@code delete-file-threshold} or
     * {@code rewrite-all}. Unknown keys fail {@link #execute()} with the list of valid ones.
     */
    public RewriteDataFilesAction option(String key, String value) {
        Objects.requireNonNull(key, "option key must not be null");
        Objects.requireNonNull(value, "value of option '" + key + "' must not be null");
        options.put(key, value);
        return this;
    }

    /** Runs right before the commit; tests use it to commit concurrently. */
    RewriteDataFilesAction beforeCommit(Runnable hook) {
        this.beforeCommit = hook;
        return this;
    }

    /**
     * Plans, runs the rewrite job and commits.
     *
     * @return the replaced and added files; empty when there was nothing to rewrite
     * @throws org.apache.iceberg.exceptions.ValidationException if a concurrent commit conflicts
     *     (the table is unchanged, new files deleted)
     * @throws IllegalArgumentException for an invalid option
     * @throws RuntimeException if the Flink job fails (the table is unchanged)
     */
    public RewriteDataFilesActionResult execute() {
        table.refresh();
        PlannedRewrite plan =
                new RewritePlanner(table, filter, caseSensitive, splitOpenFileCost, options).plan();
        if (plan.isEmpty()) {
            return RewriteDataFilesActionResult.empty();
        }
        int parallelism = maxParallelism != null ? maxParallelism : env.getParallelism();
        List<DataFile> added;
        try {
            added =
                    RewriteJob.run(
                            env, table, plan, parallelism, "Rewrite data files of " + table.name());
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(
                    "The rewrite job of table " + table.name() + " failed; the table is unchanged",
                    e);
        }
        Snapshot committed =
                new RewriteCommitter(table, useStartingSequenceNumber, beforeCommit)
                        .commit(plan, added);
        return new RewriteDataFilesActionResult(
                List.copyOf(plan.rewrittenDataFiles()),
                List.copyOf(added),
                List.copyOf(plan.danglingDeleteFiles()),
                plan.groupCount(),
                committed.snapshotId());
    }
}
