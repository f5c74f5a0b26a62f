package dev.icebergflink.maintenance.rewrite;

import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;

/**
 * What the commit of a streaming rewrite needs from its plan: where the plan started and which
 * files the commit replaces. The work units travel separately, to the workers.
 *
 * @param startingSnapshotId the table's current snapshot when planning started
 * @param groupCount the number of Iceberg file groups
 * @param rewrittenDataFiles the data files the commit removes
 * @param danglingDeleteFiles delete files that refer only to rewritten files; removed too
 */
@Internal
public record RewriteHeader(
        long startingSnapshotId,
        int groupCount,
        List<DataFile> rewrittenDataFiles,
        List<DeleteFile> danglingDeleteFiles) {}
