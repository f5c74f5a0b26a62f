package dev.icebergflink.source.reader;

import dev.icebergflink.tasks.changelog.ChangeFileScanTask;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.iceberg.FileScanTask;

/**
 * A value a read can append to every row it emits, next to the table's columns: facts about where
 * the row comes from rather than data stored in it. SQL tables read them as {@code METADATA FROM
 * '<key>'} columns.
 *
 * <p>The changelog facts ({@link #SNAPSHOT_ID}, {@link #COMMIT_TIME}) name the snapshot whose
 * commit made the change a row reports, so they exist only in changelog reads ({@code
 * 'changelog-mode' = 'all'}), where each split holds the changes of one snapshot. The rows of a
 * changelog read's initial table scan ({@code TABLE_SCAN_THEN_INCREMENTAL}) are the table's state,
 * not the change of one snapshot: they carry NULL.
 */
@Internal
public enum ReadMetadataColumn {

    /** The id of the snapshot whose commit made the change (BIGINT). */
    SNAPSHOT_ID("snapshot_id", new BigIntType(true)) {
        @Override
        Object valueOf(FileScanTask task) {
            return task instanceof ChangeFileScanTask change ? change.commitSnapshotId() : null;
        }
    },

    /** When that snapshot was committed (TIMESTAMP_LTZ(3)). */
    COMMIT_TIME("commit_time", new LocalZonedTimestampType(true, 3)) {
        @Override
        Object valueOf(FileScanTask task) {
            return task instanceof ChangeFileScanTask change
                    ? TimestampData.fromEpochMillis(change.commitTimestampMillis())
                    : null;
        }
    };

    private final String key;
    private final LogicalType type;

    ReadMetadataColumn(String key, LogicalType type) {
        this.key = key;
        this.type = type;
    }

    /** The name SQL uses in {@code METADATA FROM '<key>'}. */
    public String key() {
        return key;
    }

    /** The type of the values, in Flink's internal representation. */
    public LogicalType type() {
        return type;
    }

    /** The value for every row of {@code task}, in Flink's internal data format. */
    abstract Object valueOf(FileScanTask task);

    /**
     * The column with {@code key}.
     *
     * @throws IllegalArgumentException naming the known keys when there is none
     */
    public static ReadMetadataColumn ofKey(String key) {
        for (ReadMetadataColumn column : values()) {
            if (column.key.equals(key)) {
                return column;
            }
        }
        throw new IllegalArgumentException(
                "Unknown metadata column '"
                        + key
                        + "'; the Iceberg source provides "
                        + Arrays.stream(values())
                                .map(column -> "'" + column.key + "'")
                                .collect(Collectors.joining(", ")));
    }
}
