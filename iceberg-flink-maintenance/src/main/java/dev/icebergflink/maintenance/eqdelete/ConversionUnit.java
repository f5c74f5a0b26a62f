package dev.icebergflink.maintenance.eqdelete;

import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;

/**
 * One work item of an equality-delete conversion: data files of one partition and the equality
 * deletes of the run that may delete rows of them.
 *
 * <p>It exists so that one worker can read a partition's equality deletes once and scan several of
 * its data files against them. Every equality delete of a unit applies to every data file of the
 * unit by scope (same spec and partition, or a global delete); whether it applies to a row is then
 * decided by sequence numbers alone: a delete with data sequence number {@code S} deletes matching
 * rows of a data file whose data sequence number is below {@code S}.
 *
 * @param equalityDeletes the unit's equality delete files, with their data sequence numbers
 * @param dataFiles one task per whole data file, with its data sequence number; its deletes are the
 *     file's position deletes and deletion vectors only (equality deletes are in {@code
 *     equalityDeletes})
 */
@Internal
public record ConversionUnit(List<DeleteFile> equalityDeletes, List<FileScanTask> dataFiles) {

    public ConversionUnit {
        equalityDeletes = List.copyOf(equalityDeletes);
        dataFiles = List.copyOf(dataFiles);
    }

    /** The total size of the unit's data files. */
    public long dataBytes() {
        return dataFiles.stream().mapToLong(task -> task.file().fileSizeInBytes()).sum();
    }
}
