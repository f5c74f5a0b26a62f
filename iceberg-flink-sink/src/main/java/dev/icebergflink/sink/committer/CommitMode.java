package dev.icebergflink.sink.committer;

import org.apache.flink.annotation.Internal;

/**
 * How the committer turns one checkpoint's files into one Iceberg snapshot.
 *
 * <p>It exists so that the writer side (which knows the user's overwrite/upsert choice) and the
 * commit side agree on a single, explicit operation per sink instead of guessing it from the files.
 */
@Internal
public enum CommitMode {
    /** Fast append of the data files ({@code AppendFiles}); delete files are not allowed. */
    APPEND,
    /**
     * Replace every partition the checkpoint's data files touch ({@code ReplacePartitions}); the
     * whole table when it is unpartitioned. Delete files are not allowed.
     */
    DYNAMIC_OVERWRITE,
    /**
     * Delete the rows the static overwrite filter matches and add the checkpoint's data files
     * ({@code OverwriteFiles.overwriteByRowFilter}). The first commit of a job/operator empties the
     * filtered partition even when the checkpoint holds no files.
     */
    STATIC_OVERWRITE,
    /**
     * Add data and delete files together ({@code RowDelta}), validating that data files referenced
     * by position deletes still exist. Used for upsert and changelog input. A checkpoint without
     * delete files is committed as a fast append ({@code AppendFiles}), exactly as {@link #APPEND}.
     */
    ROW_DELTA,
    /**
     * Commit nothing into the catalog: record each checkpoint's committable (its temporary
     * manifests) in the staging location of {@link CommitterSettings#stagingLocation()}, for a
     * caller that commits them later in one transaction of its own (Flink's atomic {@code CREATE
     * TABLE ... AS SELECT}, whose table does not exist while the job runs). See {@link
     * StagedCheckpoints}.
     */
    STAGE
}
