package dev.icebergflink.table.dml;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;

/**
 * What the writers of one row-level statement produced, and what the commit must replace.
 *
 * @param addedDataFiles new data files: the changed rows of an {@code UPDATE}, and on format v1 the
 *     rewritten files
 * @param addedDeleteFiles new position delete files (v2) or deletion vectors (v3)
 * @param removedDataFiles data files replaced by their rewrite (v1)
 * @param removedDeleteFiles deletion vectors merged into a new one (v3: at most one per data file)
 * @param referencedDataFiles the data files whose rows the statement deletes; they must still exist
 *     when it commits
 */
@Internal
public record DmlWriteResult(
        List<DataFile> addedDataFiles,
        List<DeleteFile> addedDeleteFiles,
        List<DataFile> removedDataFiles,
        List<DeleteFile> removedDeleteFiles,
        Set<String> referencedDataFiles) {

    public DmlWriteResult {
        addedDataFiles = List.copyOf(addedDataFiles);
        addedDeleteFiles = List.copyOf(addedDeleteFiles);
        removedDataFiles = List.copyOf(removedDataFiles);
        removedDeleteFiles = List.copyOf(removedDeleteFiles);
        referencedDataFiles = Set.copyOf(referencedDataFiles);
    }

    /** All results of a statement's writers as one. */
    public static DmlWriteResult merge(Collection<DmlWriteResult> results) {
        List<DataFile> addedData = new ArrayList<>();
        List<DeleteFile> addedDeletes = new ArrayList<>();
        List<DataFile> removedData = new ArrayList<>();
        List<DeleteFile> removedDeletes = new ArrayList<>();
        Set<String> referenced = new LinkedHashSet<>();
        for (DmlWriteResult result : results) {
            addedData.addAll(result.addedDataFiles);
            addedDeletes.addAll(result.addedDeleteFiles);
            removedData.addAll(result.removedDataFiles);
            removedDeletes.addAll(result.removedDeleteFiles);
            referenced.addAll(result.referencedDataFiles);
        }
        return new DmlWriteResult(addedData, addedDeletes, removedData, removedDeletes, referenced);
    }

    /** Whether committing changes nothing (the statement matched no row). */
    public boolean isEmpty() {
        return addedDataFiles.isEmpty()
                && addedDeleteFiles.isEmpty()
                && removedDataFiles.isEmpty()
                && removedDeleteFiles.isEmpty();
    }

    /** The locations of the files the statement wrote (to delete when its commit fails). */
    public List<String> writtenLocations() {
        List<String> locations = new ArrayList<>();
        addedDataFiles.forEach(file -> locations.add(file.location()));
        addedDeleteFiles.forEach(file -> locations.add(file.location()));
        return locations;
    }
}
