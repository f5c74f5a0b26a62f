package dev.icebergflink.maintenance.rewrite;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.task.TaskFinisher;
import dev.icebergflink.maintenance.task.TaskTables;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.util.DataFileSet;
import org.apache.iceberg.util.DeleteFileSet;

/**
 * The committing step of the streaming rewrite: once every unit is rewritten, replaces the planned
 * files with the written ones in ONE {@link RewriteCommitter} commit, validated against everything
 * committed since planning. New files take the starting snapshot's sequence number, so equality
 * deletes committed meanwhile still apply to them.
 *
 * <p>A lost race (a concurrent delete of a rewritten file) gives the run up: the table is
 * unchanged, the new files are deleted, and the next run plans again.
 */
@Internal
public final class RewriteCommit implements TaskFinisher {

    private static final long serialVersionUID = 1L;

    private final TableLoader loader;

    private transient Table table;

    public RewriteCommit(TableLoader loader) {
        this.loader = loader;
    }

    @Override
    public void open() {
        loader.open();
    }

    @Override
    public Outcome finish(byte[] header, List<byte[]> results) throws Exception {
        table = TaskTables.current(loader, table);
        RewriteHeader plan = header(header);
        List<DataFile> written = writtenFiles(results);
        if (plan.rewrittenDataFiles().isEmpty()) {
            RewriteCommitter.deleteQuietly(table, written, new IllegalStateException());
            return new Outcome(0L, 0L);
        }
        Snapshot start = table.snapshot(plan.startingSnapshotId());
        if (start == null) {
            ValidationException expired =
                    new ValidationException(
                            "Cannot commit the rewrite of table %s: its starting snapshot %d was"
                                    + " expired meanwhile",
                            table.name(), plan.startingSnapshotId());
            RewriteCommitter.deleteQuietly(table, written, expired);
            throw expired;
        }
        DataFileSet rewritten = DataFileSet.create();
        rewritten.addAll(plan.rewrittenDataFiles());
        DeleteFileSet dangling = DeleteFileSet.create();
        dangling.addAll(plan.danglingDeleteFiles());
        PlannedRewrite planned =
                new PlannedRewrite(start, plan.groupCount(), rewritten, dangling, List.of(), 0L);
        new RewriteCommitter(table, true, null).commit(planned, written);
        return new Outcome(written.size(), (long) rewritten.size() + dangling.size());
    }

    @Override
    public void abandon(byte[] header, List<byte[]> results) throws Exception {
        table = TaskTables.current(loader, table);
        RewriteCommitter.deleteQuietly(
                table, writtenFiles(results), new IllegalStateException("abandoned"));
    }

    private RewriteHeader header(byte[] bytes) throws java.io.IOException {
        return SimpleVersionedSerialization.readVersionAndDeSerialize(
                new RewriteHeaderSerializer(table.specs()), bytes);
    }

    private List<DataFile> writtenFiles(List<byte[]> results) throws java.io.IOException {
        WrittenFilesSerializer serializer = new WrittenFilesSerializer(table.specs());
        List<DataFile> written = new ArrayList<>();
        for (byte[] result : results) {
            written.addAll(
                    SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, result));
        }
        return written;
    }
}
