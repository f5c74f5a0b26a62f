package dev.icebergflink.maintenance.rewrite;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;

/**
 * What the commit of a streaming rewrite needs from its plan: where the plan started and which
 * files each file group replaces. The work units travel separately, to the workers, each tagged
 * with the index of its group in {@link #groups()}.
 *
 * @param startingSnapshotId the head of the rewritten branch when planning started
 * @param groups the planned file groups, in planning order
 */
@Internal
public record RewriteHeader(long startingSnapshotId, List<Group> groups) {

    /**
     * The files one file group replaces.
     *
     * @param rewrittenDataFiles the data files the group's commit removes
     * @param danglingDeleteFiles delete files that refer only to the group's rewritten files;
     *     removed too
     */
    public record Group(List<DataFile> rewrittenDataFiles, List<DeleteFile> danglingDeleteFiles) {}

    /** The number of file groups. */
    public int groupCount() {
        return groups.size();
    }

    /** The data files of every group. */
    public List<DataFile> rewrittenDataFiles() {
        List<DataFile> files = new ArrayList<>();
        groups.forEach(group -> files.addAll(group.rewrittenDataFiles()));
        return files;
    }

    /** The dangling delete files of every group. */
    public List<DeleteFile> danglingDeleteFiles() {
        List<DeleteFile> files = new ArrayList<>();
        groups.forEach(group -> files.addAll(group.danglingDeleteFiles()));
        return files;
    }
}
