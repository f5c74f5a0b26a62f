package dev.icebergflink.sink.committer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.WriteResult;

/**
 * Turns the writers' results of one checkpoint into one {@link IcebergCommittable}: merges them,
 * writes the temporary manifests once (per kind and partition spec) and names the producer.
 *
 * <p>It exists apart from the aggregation operators so that the manifest step is testable on its
 * own, tests of the committer build real committables the same way the sink does, and the sink for
 * many tables makes each table's committable exactly as the single-table sink does.
 */
@Internal
public final class CommittableFactory {

    private final TemporaryManifests manifests = new TemporaryManifests();

    /**
     * The committable of {@code results}; the table is only loaded when there are files.
     *
     * @param table supplies the current table (for its specs, format version, FileIO, location)
     */
    public IcebergCommittable create(
            Supplier<Table> table,
            CommitOwner owner,
            long checkpointId,
            boolean endOfInput,
            List<WriteResult> results) {
        List<DataFile> dataFiles = new ArrayList<>();
        List<DeleteFile> deleteFiles = new ArrayList<>();
        List<DeleteFile> rewrittenDeletes = new ArrayList<>();
        List<String> referenced = new ArrayList<>();
        for (WriteResult result : results) {
            dataFiles.addAll(Arrays.asList(result.dataFiles()));
            deleteFiles.addAll(Arrays.asList(result.deleteFiles()));
            rewrittenDeletes.addAll(Arrays.asList(result.rewrittenDeleteFiles()));
            for (CharSequence path : result.referencedDataFiles()) {
                referenced.add(path.toString());
            }
        }
        List<ManifestFile> dataManifests = List.of();
        List<ManifestFile> deleteManifests = List.of();
        List<ManifestFile> rewrittenManifests = List.of();
        if (!dataFiles.isEmpty() || !deleteFiles.isEmpty() || !rewrittenDeletes.isEmpty()) {
            Table current = table.get();
            String prefix =
                    "flink-" + owner.jobId() + "-" + owner.operatorId() + "-" + checkpointId;
            dataManifests = manifests.writeDataManifests(current, prefix, dataFiles);
            deleteManifests =
                    manifests.writeDeleteManifests(current, prefix, "delete", deleteFiles);
            rewrittenManifests =
                    manifests.writeDeleteManifests(
                            current, prefix, "rewritten-delete", rewrittenDeletes);
        }
        return new IcebergCommittable(
                owner,
                checkpointId,
                endOfInput,
                dataManifests,
                deleteManifests,
                rewrittenManifests,
                referenced);
    }
}
