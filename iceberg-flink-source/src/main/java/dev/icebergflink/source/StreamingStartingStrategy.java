package dev.icebergflink.source;

import org.apache.flink.annotation.PublicEvolving;

/**
 * Where a streaming {@link IcebergSource} starts reading; the names of Iceberg's own connector,
 * with the semantics of the user documentation.
 *
 * <p>It exists so that users choose the first data of an unbounded read explicitly. "Inclusive"
 * means that the rows appended by the start snapshot itself are read (the position starts at the
 * snapshot's parent); "exclusive" means that only appends committed after it are read. Only {@code
 * append} snapshots contribute rows to the incremental part; {@code replace} snapshots are skipped
 * and {@code overwrite}/{@code delete} snapshots fail the read unless the matching skip option is
 * set ({@link FlinkReadOptions#STREAMING_SKIP_OVERWRITE_SNAPSHOTS}, {@link
 * FlinkReadOptions#STREAMING_SKIP_DELETE_SNAPSHOTS}).
 */
@PublicEvolving
public enum StreamingStartingStrategy {
    /**
     * The default: a full scan of the current snapshot (of the branch when one is set), then every
     * later append; the increments exclude the scanned snapshot. On an empty table every future
     * append is read.
     */
    TABLE_SCAN_THEN_INCREMENTAL,

    /** Appends from the current snapshot on, the current snapshot included (inclusive). */
    INCREMENTAL_FROM_LATEST_SNAPSHOT,

    /** Appends committed after the current snapshot (exclusive): only new data. */
    INCREMENTAL_FROM_LATEST_SNAPSHOT_EXCLUSIVE,

    /** Appends from the oldest ancestor of the current snapshot on (inclusive). */
    INCREMENTAL_FROM_EARLIEST_SNAPSHOT,

    /**
     * Appends from the snapshot {@code start-snapshot-id} on, that snapshot included (inclusive).
     * Needs {@code start-snapshot-id} and no {@code start-snapshot-timestamp}; fails when the
     * snapshot is not an ancestor of the current snapshot.
     */
    INCREMENTAL_FROM_SNAPSHOT_ID,

    /**
     * Appends from the oldest ancestor committed at or after {@code start-snapshot-timestamp} on,
     * that snapshot included (inclusive). Needs {@code start-snapshot-timestamp} and no {@code
     * start-snapshot-id}; fails when no such snapshot exists on a non-empty table.
     */
    INCREMENTAL_FROM_SNAPSHOT_TIMESTAMP
}
