package dev.icebergflink.maintenance.api;

import java.io.Serializable;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;

/**
 * What commits added to a table: the input of the maintenance triggers.
 *
 * <p>{@link TableMaintenance#forTable} computes the changes itself by watching the table's
 * snapshots; {@link TableMaintenance#forChangeStream} takes them from a stream the user provides
 * (for example one derived from a writer's commits). Each trigger sums the changes since its task
 * last ran and compares the sums with its thresholds.
 */
@PublicEvolving
public final class TableChange implements Serializable {

    private static final long serialVersionUID = 1L;

    private static final TableChange EMPTY = new TableChange(0, 0L, 0, 0L, 0, 0L, 0);

    private final int dataFileCount;
    private final long dataFileSizeInBytes;
    private final int posDeleteFileCount;
    private final long posDeleteRecordCount;
    private final int eqDeleteFileCount;
    private final long eqDeleteRecordCount;
    private final int commitCount;

    private TableChange(
            int dataFileCount,
            long dataFileSizeInBytes,
            int posDeleteFileCount,
            long posDeleteRecordCount,
            int eqDeleteFileCount,
            long eqDeleteRecordCount,
            int commitCount) {
        this.dataFileCount = dataFileCount;
        this.dataFileSizeInBytes = dataFileSizeInBytes;
        this.posDeleteFileCount = posDeleteFileCount;
        this.posDeleteRecordCount = posDeleteRecordCount;
        this.eqDeleteFileCount = eqDeleteFileCount;
        this.eqDeleteRecordCount = eqDeleteRecordCount;
        this.commitCount = commitCount;
    }

    /** No change at all. */
    public static TableChange empty() {
        return EMPTY;
    }

    /** A builder of a change; every count starts at 0. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The change one commit made, read from its snapshot summary: added data files and their size,
     * added position delete files (deletion vectors included) and deleted positions, added equality
     * delete files and their records, and one commit.
     *
     * <p>Snapshot summaries give one size for every file a commit added: in a commit that adds data
     * and delete files (an upsert), the data size includes the delete files' bytes; a commit that
     * adds no data file adds no data bytes.
     */
    public static TableChange of(Snapshot snapshot) {
        java.util.Map<String, String> summary =
                snapshot.summary() == null ? java.util.Map.of() : snapshot.summary();
        long dataFiles = count(summary, SnapshotSummary.ADDED_FILES_PROP);
        return builder()
                .dataFileCount((int) dataFiles)
                .dataFileSizeInBytes(
                        dataFiles == 0 ? 0L : count(summary, SnapshotSummary.ADDED_FILE_SIZE_PROP))
                .posDeleteFileCount(
                        (int)
                                (count(summary, SnapshotSummary.ADD_POS_DELETE_FILES_PROP)
                                        + count(summary, SnapshotSummary.ADDED_DVS_PROP)))
                .posDeleteRecordCount(count(summary, SnapshotSummary.ADDED_POS_DELETES_PROP))
                .eqDeleteFileCount((int) count(summary, SnapshotSummary.ADD_EQ_DELETE_FILES_PROP))
                .eqDeleteRecordCount(count(summary, SnapshotSummary.ADDED_EQ_DELETES_PROP))
                .commitCount(1)
                .build();
    }

    private static long count(java.util.Map<String, String> summary, String key) {
        String value = summary.get(key);
        if (value == null) {
            return 0L;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return 0L;
        }
    }

    /** The sum of this change and {@code other}. */
    public TableChange merge(TableChange other) {
        return new TableChange(
                dataFileCount + other.dataFileCount,
                dataFileSizeInBytes + other.dataFileSizeInBytes,
                posDeleteFileCount + other.posDeleteFileCount,
                posDeleteRecordCount + other.posDeleteRecordCount,
                eqDeleteFileCount + other.eqDeleteFileCount,
                eqDeleteRecordCount + other.eqDeleteRecordCount,
                commitCount + other.commitCount);
    }

    public int dataFileCount() {
        return dataFileCount;
    }

    public long dataFileSizeInBytes() {
        return dataFileSizeInBytes;
    }

    public int posDeleteFileCount() {
        return posDeleteFileCount;
    }

    public long posDeleteRecordCount() {
        return posDeleteRecordCount;
    }

    public int eqDeleteFileCount() {
        return eqDeleteFileCount;
    }

    public long eqDeleteRecordCount() {
        return eqDeleteRecordCount;
    }

    public int commitCount() {
        return commitCount;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof TableChange other)) {
            return false;
        }
        return dataFileCount == other.dataFileCount
                && dataFileSizeInBytes == other.dataFileSizeInBytes
                && posDeleteFileCount == other.posDeleteFileCount
                && posDeleteRecordCount == other.posDeleteRecordCount
                && eqDeleteFileCount == other.eqDeleteFileCount
                && eqDeleteRecordCount == other.eqDeleteRecordCount
                && commitCount == other.commitCount;
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                dataFileCount,
                dataFileSizeInBytes,
                posDeleteFileCount,
                posDeleteRecordCount,
                eqDeleteFileCount,
                eqDeleteRecordCount,
                commitCount);
    }

    @Override
    public String toString() {
        return "TableChange{dataFiles="
                + dataFileCount
                + ", dataBytes="
                + dataFileSizeInBytes
                + ", posDeleteFiles="
                + posDeleteFileCount
                + ", posDeletes="
                + posDeleteRecordCount
                + ", eqDeleteFiles="
                + eqDeleteFileCount
                + ", eqDeletes="
                + eqDeleteRecordCount
                + ", commits="
                + commitCount
                + '}';
    }

    /** Builds a {@link TableChange}; counts must not be negative. */
    @PublicEvolving
    public static final class Builder {
        private int dataFileCount;
        private long dataFileSizeInBytes;
        private int posDeleteFileCount;
        private long posDeleteRecordCount;
        private int eqDeleteFileCount;
        private long eqDeleteRecordCount;
        private int commitCount;

        private Builder() {}

        public Builder dataFileCount(int count) {
            this.dataFileCount = count;
            return this;
        }

        public Builder dataFileSizeInBytes(long bytes) {
            this.dataFileSizeInBytes = bytes;
            return this;
        }

        public Builder posDeleteFileCount(int count) {
            this.posDeleteFileCount = count;
            return this;
        }

        public Builder posDeleteRecordCount(long count) {
            this.posDeleteRecordCount = count;
            return this;
        }

        public Builder eqDeleteFileCount(int count) {
            this.eqDeleteFileCount = count;
            return this;
        }

        public Builder eqDeleteRecordCount(long count) {
            this.eqDeleteRecordCount = count;
            return this;
        }

        public Builder commitCount(int count) {
            this.commitCount = count;
            return this;
        }

        /**
         * @throws IllegalArgumentException naming the first negative count
         */
        public TableChange build() {
            nonNegative("dataFileCount", dataFileCount);
            nonNegative("dataFileSizeInBytes", dataFileSizeInBytes);
            nonNegative("posDeleteFileCount", posDeleteFileCount);
            nonNegative("posDeleteRecordCount", posDeleteRecordCount);
            nonNegative("eqDeleteFileCount", eqDeleteFileCount);
            nonNegative("eqDeleteRecordCount", eqDeleteRecordCount);
            nonNegative("commitCount", commitCount);
            return new TableChange(
                    dataFileCount,
                    dataFileSizeInBytes,
                    posDeleteFileCount,
                    posDeleteRecordCount,
                    eqDeleteFileCount,
                    eqDeleteRecordCount,
                    commitCount);
        }

        private static void nonNegative(String name, long value) {
            if (value < 0) {
                throw new IllegalArgumentException(
                        "TableChange " + name + " must not be negative, got " + value);
            }
        }
    }
}
