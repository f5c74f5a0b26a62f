package dev.icebergflink.maintenance.eqdelete;

import org.apache.flink.annotation.Internal;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.deletes.PositionDeleteIndex;

/**
 * The rows of one data file that a unit's equality deletes delete and no position delete or
 * deletion vector deleted yet.
 *
 * @param task the data file, with its spec, partition and data sequence number
 * @param positions the rows' positions, ascending
 * @param sequenceNumber the highest data sequence number of an equality delete that deletes one of
 *     the rows; above the data file's own, so position deletes with it apply to the file
 * @param existing the file's positions already deleted by its position deletes or deletion vector
 *     (empty when none), which a new deletion vector must keep
 */
@Internal
public record FileDeletes(
        FileScanTask task, long[] positions, long sequenceNumber, PositionDeleteIndex existing) {

    /** The data file's location. */
    public String location() {
        return task.file().location();
    }
}
