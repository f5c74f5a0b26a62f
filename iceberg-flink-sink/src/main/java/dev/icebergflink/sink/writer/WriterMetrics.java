package dev.icebergflink.sink.writer;

import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.io.WriteResult;

/**
 * The writer's metrics, the ones operators watch to see a sink's throughput: {@code
 * recordsWritten}, {@code bytesWritten} and {@code filesWritten} counters on the sink writer's
 * metric group, plus Flink's standard {@code numRecordsSend}/{@code numBytesSend} counters that
 * tools and {@code SinkTestSuiteBase} read.
 *
 * <p>Records count when handed to a file writer; bytes and files when the files of a checkpoint are
 * completed (Iceberg knows a file's size only once it is closed).
 */
@Internal
public final class WriterMetrics {

    private final Counter recordsWritten;
    private final Counter bytesWritten;
    private final Counter filesWritten;
    private final Counter numRecordsSend;
    private final Counter numBytesSend;

    public WriterMetrics(SinkWriterMetricGroup group) {
        this.recordsWritten = group.counter("recordsWritten");
        this.bytesWritten = group.counter("bytesWritten");
        this.filesWritten = group.counter("filesWritten");
        this.numRecordsSend = group.getNumRecordsSendCounter();
        this.numBytesSend = group.getNumBytesSendCounter();
    }

    public void recordWritten() {
        recordsWritten.inc();
        numRecordsSend.inc();
    }

    public void completed(WriteResult result) {
        long bytes = 0;
        int files = 0;
        for (ContentFile<?> file : result.dataFiles()) {
            bytes += file.fileSizeInBytes();
            files++;
        }
        for (ContentFile<?> file : result.deleteFiles()) {
            bytes += file.fileSizeInBytes();
            files++;
        }
        bytesWritten.inc(bytes);
        numBytesSend.inc(bytes);
        filesWritten.inc(files);
    }
}
