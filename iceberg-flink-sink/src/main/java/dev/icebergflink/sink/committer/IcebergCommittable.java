package dev.icebergflink.sink.committer;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.ManifestFile;

/**
 * What the committer commits for one checkpoint of one sink: the temporary manifests the
 * aggregation wrote, and who produced them (job id, operator id, checkpoint id).
 *
 * <p>It exists because exactly-once needs the identity of the data to travel with the data: the
 * {@link #owner() owner} (job id, operator id and the sink's run id) is the one the data was
 * written under, which survives restores in the committer's state, so a restored job still finds
 * the commit an earlier run made, and never takes an earlier run's commits for its own new
 * checkpoints.
 *
 * <p>{@link #endOfInput()} marks the committable that the end of bounded input produced; its
 * checkpoint id is the one Flink gave the final results (the last checkpoint plus one, or the
 * aggregation's own substitute for {@code Long.MAX_VALUE}). See {@link IcebergCommitter} for how it
 * is recorded so that later jobs with the same job id are not affected.
 */
@Internal
public final class IcebergCommittable {

    private final CommitOwner owner;
    private final long checkpointId;
    private final boolean endOfInput;
    private final List<ManifestFile> dataManifests;
    private final List<ManifestFile> deleteManifests;
    private final List<ManifestFile> rewrittenDeleteManifests;
    private final List<String> referencedDataFiles;

    /** A committable; the lists are copied. */
    public IcebergCommittable(
            CommitOwner owner,
            long checkpointId,
            boolean endOfInput,
            List<ManifestFile> dataManifests,
            List<ManifestFile> deleteManifests,
            List<ManifestFile> rewrittenDeleteManifests,
            List<String> referencedDataFiles) {
        this.owner = Objects.requireNonNull(owner, "owner");
        this.checkpointId = checkpointId;
        this.endOfInput = endOfInput;
        this.dataManifests = List.copyOf(dataManifests);
        this.deleteManifests = List.copyOf(deleteManifests);
        this.rewrittenDeleteManifests = List.copyOf(rewrittenDeleteManifests);
        this.referencedDataFiles = List.copyOf(referencedDataFiles);
    }

    /** Who produced the data: job id, operator id and the sink's run id. */
    public CommitOwner owner() {
        return owner;
    }

    /** The Flink job id the data was written under. */
    public String jobId() {
        return owner.jobId();
    }

    /** The id of the aggregation operator that wrote the manifests (stable through its uid). */
    public String operatorId() {
        return owner.operatorId();
    }

    /** The checkpoint whose data this is. */
    public long checkpointId() {
        return checkpointId;
    }

    /** Whether these are the final results at the end of bounded input. */
    public boolean endOfInput() {
        return endOfInput;
    }

    /** Temporary manifests of data files, one per partition spec. */
    public List<ManifestFile> dataManifests() {
        return dataManifests;
    }

    /** Temporary manifests of delete files, one per partition spec. */
    public List<ManifestFile> deleteManifests() {
        return deleteManifests;
    }

    /** Temporary manifests of delete files that the new delete files replace (v3 DVs). */
    public List<ManifestFile> rewrittenDeleteManifests() {
        return rewrittenDeleteManifests;
    }

    /** Data files the checkpoint's position deletes refer to; they must still exist at commit. */
    public List<String> referencedDataFiles() {
        return referencedDataFiles;
    }

    /** Whether the checkpoint produced no files at all. */
    public boolean isEmpty() {
        return dataManifests.isEmpty()
                && deleteManifests.isEmpty()
                && rewrittenDeleteManifests.isEmpty();
    }

    /** Every temporary manifest of this committable. */
    public List<ManifestFile> allManifests() {
        return java.util.stream.Stream.of(dataManifests, deleteManifests, rewrittenDeleteManifests)
                .flatMap(List::stream)
                .collect(Collectors.toList());
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof IcebergCommittable)) {
            return false;
        }
        IcebergCommittable that = (IcebergCommittable) o;
        return checkpointId == that.checkpointId
                && endOfInput == that.endOfInput
                && owner.equals(that.owner)
                && paths(dataManifests).equals(paths(that.dataManifests))
                && paths(deleteManifests).equals(paths(that.deleteManifests))
                && paths(rewrittenDeleteManifests).equals(paths(that.rewrittenDeleteManifests))
                && referencedDataFiles.equals(that.referencedDataFiles);
    }

    @Override
    public int hashCode() {
        return Objects.hash(owner, checkpointId, endOfInput, paths(dataManifests));
    }

    private static List<String> paths(List<ManifestFile> manifests) {
        return manifests.stream().map(ManifestFile::path).collect(Collectors.toList());
    }

    @Override
    public String toString() {
        return "IcebergCommittable{"
                + owner
                + ", checkpoint="
                + checkpointId
                + (endOfInput ? " (end of input)" : "")
                + ", dataManifests="
                + paths(dataManifests)
                + ", deleteManifests="
                + paths(deleteManifests)
                + ", rewrittenDeleteManifests="
                + paths(rewrittenDeleteManifests)
                + ", referencedDataFiles="
                + referencedDataFiles.size()
                + "}";
    }
}
