package dev.icebergflink.source.reader;

import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.iceberg.FileScanTask;

/**
 * The metrics of one source reader subtask, registered on the reader context's metric group.
 *
 * <p>Records read are Flink's standard {@code numRecordsIn}, counted by Flink's reader base for
 * every emitted record. Bytes read are Flink's standard {@code numBytesIn}, increased by the byte
 * length of each file task (its range of the data file) once the task is fully read. Under the
 * group {@code IcebergSourceReader}: {@code assignedSplits} (splits received), {@code
 * finishedSplits} and {@code finishedFileTasks}.
 */
@Internal
public final class IcebergSourceReaderMetrics {

    /** The metric group name under the reader's operator group. */
    public static final String GROUP = "IcebergSourceReader";

    private final Counter bytesIn;
    private final Counter assignedSplits;
    private final Counter finishedSplits;
    private final Counter finishedFileTasks;

    /** Registers the metrics on {@code group}. */
    public IcebergSourceReaderMetrics(SourceReaderMetricGroup group) {
        this.bytesIn = group.getIOMetricGroup().getNumBytesInCounter();
        MetricGroup iceberg = group.addGroup(GROUP);
        this.assignedSplits = iceberg.counter("assignedSplits");
        this.finishedSplits = iceberg.counter("finishedSplits");
        this.finishedFileTasks = iceberg.counter("finishedFileTasks");
    }

    void splitsAssigned(int count) {
        assignedSplits.inc(count);
    }

    void splitsFinished(int count) {
        finishedSplits.inc(count);
    }

    /** Called from the fetcher thread when a file task has been read to its end. */
    void fileTaskFinished(FileScanTask task) {
        finishedFileTasks.inc();
        bytesIn.inc(task.length());
    }
}
