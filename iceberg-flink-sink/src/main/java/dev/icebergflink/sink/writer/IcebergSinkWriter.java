package dev.icebergflink.sink.writer;

import dev.icebergflink.TableLoader;
import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.WriteResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink's writer subtask: writes rows into data (and delete) files and, at every checkpoint and
 * at the end of input, hands the completed files on as one {@link WriteResult}.
 *
 * <p>It exists as the Sink V2 {@link CommittingSinkWriter} whose committables go to the sink's one
 * aggregation per table, which turns all subtasks' results of a checkpoint into one Iceberg commit.
 * The writer keeps no state of its own: files not yet handed on when a failure strikes are
 * rewritten from the replayed input and never committed. A checkpoint in which the subtask wrote
 * nothing emits no committable.
 */
@Internal
public final class IcebergSinkWriter implements CommittingSinkWriter<RowData, WriteResult> {

    private static final Logger LOG = LoggerFactory.getLogger(IcebergSinkWriter.class);

    private final RowDataTaskWriterFactory factory;
    private final WriterMetrics metrics;
    private final String tableName;
    private final int subtaskId;
    private final TableFollower follower;
    private TaskWriter<RowData> current;

    /**
     * @param factory creates the task writer of each checkpoint; {@link
     *     RowDataTaskWriterFactory#initialize} is called here
     * @param metrics the writer metrics
     * @param subtaskId this subtask's index
     * @param attemptId this subtask's attempt number
     */
    public IcebergSinkWriter(
            RowDataTaskWriterFactory factory, WriterMetrics metrics, int subtaskId, int attemptId) {
        this(factory, metrics, subtaskId, attemptId, null, null);
    }

    /**
     * A writer that follows its table's schema and spec changes ({@code table-refresh-interval}).
     *
     * @param tableLoader loads the table to look for changes; null to keep the factory's table
     * @param refreshInterval how often to look; null to keep the factory's table
     */
    public IcebergSinkWriter(
            RowDataTaskWriterFactory factory,
            WriterMetrics metrics,
            int subtaskId,
            int attemptId,
            TableLoader tableLoader,
            Duration refreshInterval) {
        this.factory = factory;
        this.metrics = metrics;
        this.tableName = factory.table().name();
        this.subtaskId = subtaskId;
        factory.initialize(subtaskId, attemptId);
        this.follower =
                tableLoader == null || refreshInterval == null
                        ? null
                        : new TableFollower(
                                factory,
                                tableLoader,
                                refreshInterval,
                                System::currentTimeMillis,
                                subtaskId,
                                attemptId);
    }

    @Override
    public void write(RowData row, Context context) throws IOException {
        if (current == null) {
            current = (follower == null ? factory : follower.factory()).create();
        }
        current.write(follower == null ? row : follower.convert(row));
        metrics.recordWritten();
    }

    @Override
    public void flush(boolean endOfInput) {
        // files are completed in prepareCommit, which Flink calls right after flush
    }

    @Override
    public Collection<WriteResult> prepareCommit() throws IOException {
        if (current == null) {
            return List.of();
        }
        TaskWriter<RowData> completing = current;
        current = null;
        WriteResult result = completing.complete();
        metrics.completed(result);
        LOG.debug(
                "Writer {} of table {} completed {} data and {} delete files",
                subtaskId,
                tableName,
                result.dataFiles().length,
                result.deleteFiles().length);
        return List.of(result);
    }

    /** The task writer of the running checkpoint, null when nothing was written since (tests). */
    TaskWriter<RowData> currentTaskWriter() {
        return current;
    }

    @Override
    public void close() throws Exception {
        if (current != null) {
            TaskWriter<RowData> aborting = current;
            current = null;
            aborting.abort();
        }
    }
}
