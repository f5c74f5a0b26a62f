package dev.icebergflink.maintenance.rewrite;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.task.TaskTables;
import dev.icebergflink.maintenance.task.TaskWorker;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;

/**
 * The parallel step of the streaming rewrite: rewrites one work unit with a {@link UnitRewriter}
 * over the table as it is now (so that specs and schemas added since the worker started are known),
 * and returns the written files tagged with the unit's file group ({@link
 * RewriteResultSerializer}).
 */
@Internal
public final class RewriteWork implements TaskWorker {

    private static final long serialVersionUID = 1L;

    private final TableLoader loader;

    private transient Table table;
    private transient int subtask;
    private transient int attempt;

    /**
     * @param loader the table
     */
    public RewriteWork(TableLoader loader) {
        this.loader = loader;
    }

    @Override
    public void open(int subtask, int attempt) {
        this.subtask = subtask;
        this.attempt = attempt;
        loader.open();
    }

    @Override
    public byte[] process(byte[] item) throws Exception {
        table = TaskTables.current(loader, table);
        RewriteItemSerializer.Item work =
                SimpleVersionedSerialization.readVersionAndDeSerialize(
                        new RewriteItemSerializer(), item);
        List<DataFile> written =
                new UnitRewriter(
                                table,
                                UnitRewriter.dataSchema(table),
                                UnitRewriter.dataFileFormat(table),
                                work.writeTargetFileSize(),
                                subtask,
                                attempt)
                        .rewriteFiles(work.unit());
        return SimpleVersionedSerialization.writeVersionAndSerialize(
                new RewriteResultSerializer(table.specs()),
                new RewriteResultSerializer.Result(work.group(), written));
    }

    @Override
    public void close() throws Exception {
        loader.close();
    }
}
