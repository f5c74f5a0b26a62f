package dev.icebergflink.maintenance.eqdelete;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DeleteFile;

/**
 * What a worker made of one {@link ConversionUnit}: the position delete files or deletion vectors
 * it wrote (not yet committed), each with the data sequence number the commit must give it, and the
 * deletion vectors they replace (format v3 allows one per data file, so a new one holds the old
 * one's positions too).
 *
 * @param added the new delete files with their data sequence numbers
 * @param replaced the existing deletion vectors (and file-scoped position deletes) merged into new
 *     ones; the commit removes them
 * @param referencedDataFiles the locations of the data files the new deletes refer to
 * @param deletedRows how many rows the new deletes delete that were not deleted by position before
 */
@Internal
public record ConvertedDeletes(
        List<AddedDelete> added,
        List<DeleteFile> replaced,
        List<String> referencedDataFiles,
        long deletedRows) {

    public ConvertedDeletes {
        added = List.copyOf(added);
        replaced = List.copyOf(replaced);
        referencedDataFiles = List.copyOf(referencedDataFiles);
    }

    /** Nothing written. */
    public static final ConvertedDeletes NONE =
            new ConvertedDeletes(List.of(), List.of(), List.of(), 0L);

    /** The results of several units as one. */
    public static ConvertedDeletes combine(Collection<ConvertedDeletes> results) {
        List<AddedDelete> added = new ArrayList<>();
        List<DeleteFile> replaced = new ArrayList<>();
        List<String> referenced = new ArrayList<>();
        long rows = 0L;
        for (ConvertedDeletes result : results) {
            added.addAll(result.added());
            replaced.addAll(result.replaced());
            referenced.addAll(result.referencedDataFiles());
            rows += result.deletedRows();
        }
        return new ConvertedDeletes(added, replaced, referenced, rows);
    }

    /**
     * A new delete file and the data sequence number it is committed with.
     *
     * @param file the position delete file or deletion vector
     * @param dataSequenceNumber at least the data sequence number of every data file it refers to
     */
    public record AddedDelete(DeleteFile file, long dataSequenceNumber) {}
}
