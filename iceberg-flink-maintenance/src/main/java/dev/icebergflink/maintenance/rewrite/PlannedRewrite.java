package dev.icebergflink.maintenance.rewrite;

import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.CombinedScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.Snapshot;

/**
 * What a rewrite will do, decided before any Flink job runs: the snapshot it starts from, the data
 * files it replaces, the delete files that become useless once those are replaced, and the work
 * units (file ranges with their deletes) the job reads.
 *
 * <p>It exists so that planning (pure, testable against a table) and execution (a Flink job and a
 * commit) are separate steps that hand over one immutable value.
 *
 * @param startingSnapshot the head of the rewritten branch when planning started
 * @param groupCount the number of Iceberg file groups (bin-packed per partition)
 * @param rewrittenDataFiles the data files the commit removes
 * @param danglingDeleteFiles position deletes and deletion vectors that refer only to rewritten
 *     files; the commit removes them too
 * @param units the work units, each read and written by one task of the job
 * @param writeTargetFileSize the size at which the job rolls output files
 * @param groups the same files and units per file group, in planning order (largest first): what a
 *     rewrite with partial progress commits separately
 */
@Internal
public record PlannedRewrite(
        Snapshot startingSnapshot,
        int groupCount,
        Set<DataFile> rewrittenDataFiles,
        Set<DeleteFile> danglingDeleteFiles,
        List<CombinedScanTask> units,
        long writeTargetFileSize,
        List<Group> groups) {

    /**
     * One file group of the plan: files of one partition bin-packed together.
     *
     * @param rewrittenDataFiles the data files the group replaces
     * @param danglingDeleteFiles delete files that refer only to the group's rewritten files
     * @param units the group's work units
     */
    public record Group(
            Set<DataFile> rewrittenDataFiles,
            Set<DeleteFile> danglingDeleteFiles,
            List<CombinedScanTask> units) {}

    /** Whether there is nothing to rewrite. */
    public boolean isEmpty() {
        return units.isEmpty();
    }

    /** The total size of the rewritten data files. */
    public long rewrittenBytes() {
        return rewrittenDataFiles.stream().mapToLong(DataFile::fileSizeInBytes).sum();
    }
}
