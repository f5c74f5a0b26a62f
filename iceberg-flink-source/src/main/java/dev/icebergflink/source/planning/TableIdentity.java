package dev.icebergflink.source.planning;

import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;

/**
 * Which table a read belongs to: the table's UUID ({@code table-uuid} of its metadata), kept in the
 * enumerator's checkpointed state and compared with the loaded table on restore and in every
 * planning round of a streaming read.
 *
 * <p>It exists because a name or location does not identify a table across a drop and re-create: a
 * Hadoop catalog (or a path-based table) reuses the metadata file names {@code v1.metadata.json},
 * {@code v2.metadata.json}, ... of the new table, and a read that only refreshed its table by name
 * would stall on the old metadata or plan snapshots and files of a table that no longer exists.
 */
@Internal
public final class TableIdentity {

    private TableIdentity() {}

    /**
     * The table's UUID, or {@code null} when its metadata has none (tables written by very old
     * Iceberg versions); such tables are not checked.
     */
    public static String uuidOf(Table table) {
        if (table instanceof HasTableOperations ops) {
            TableMetadata metadata = ops.operations().current();
            return metadata == null ? null : metadata.uuid();
        }
        try {
            return Objects.toString(table.uuid(), null);
        } catch (RuntimeException noUuid) {
            return null;
        }
    }

    /**
     * The UUID a read is pinned to: the restored one, or the loaded table's when the state has none
     * (a fresh start, or a state written before the UUID was kept).
     */
    public static String pinned(String restoredUuid, String loadedUuid) {
        return restoredUuid != null ? restoredUuid : loadedUuid;
    }

    /** Whether both UUIDs are known and differ. */
    public static boolean differ(String expectedUuid, String actualUuid) {
        return expectedUuid != null && actualUuid != null && !expectedUuid.equals(actualUuid);
    }

    /**
     * Throws {@link #recreated} when the table's UUID differs from the one the read is pinned to.
     */
    public static void check(Object table, String expectedUuid, String actualUuid) {
        if (differ(expectedUuid, actualUuid)) {
            throw recreated(table, expectedUuid, actualUuid, null);
        }
    }

    /** The failure of a read whose table was dropped and re-created. */
    public static UnrecoverablePlanningException recreated(
            Object table, String expectedUuid, String actualUuid, Throwable cause) {
        return new UnrecoverablePlanningException(
                String.format(
                        "Table %s was dropped and re-created: this read belongs to the table with"
                                + " UUID %s, but the table there now has UUID %s. A read cannot go"
                                + " on in a re-created table (its state names snapshots and files"
                                + " of the old one), so the job fails without restarting. To read"
                                + " the new table, start the job again without this read's state:"
                                + " without the checkpoint or savepoint, or with a new uid for the"
                                + " source and --allowNonRestoredState; it then starts from its"
                                + " starting strategy (for example TABLE_SCAN_THEN_INCREMENTAL or"
                                + " INCREMENTAL_FROM_EARLIEST_SNAPSHOT).",
                        table, expectedUuid, actualUuid),
                cause);
    }
}
