package dev.icebergflink.sink;

import dev.icebergflink.sink.committer.IcebergCommittable;
import dev.icebergflink.sink.compat.WriterInitContextSink;
import java.io.IOException;
import java.util.Collection;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.iceberg.io.WriteResult;

/**
 * An {@link IcebergSink} seen as a {@code Sink<String>} into a one-column {@code value string}
 * table, because Flink's {@code SinkTestSuiteBase} needs comparable records. Every part (writer,
 * aggregation, committer, serializers) is the real sink's; only the record type is adapted, with no
 * pre-write topology (the table has no equality fields, so the real sink adds none either).
 */
final class StringIcebergSink
        implements WriterInitContextSink<String>,
                SupportsCommitter<IcebergCommittable>,
                SupportsPreCommitTopology<WriteResult, IcebergCommittable> {

    private static final long serialVersionUID = 1L;

    private final IcebergSink delegate;

    StringIcebergSink(IcebergSink delegate) {
        this.delegate = delegate;
    }

    @Override
    @SuppressWarnings("unchecked")
    public SinkWriter<String> createWriter(WriterInitContext context) throws IOException {
        CommittingSinkWriter<RowData, WriteResult> writer =
                (CommittingSinkWriter<RowData, WriteResult>) delegate.createWriter(context);
        return new CommittingSinkWriter<String, WriteResult>() {
            @Override
            public Collection<WriteResult> prepareCommit()
                    throws IOException, InterruptedException {
                return writer.prepareCommit();
            }

            @Override
            public void write(String value, Context ctx) throws IOException, InterruptedException {
                writer.write(GenericRowData.of(StringData.fromString(value)), ctx);
            }

            @Override
            public void flush(boolean endOfInput) throws IOException, InterruptedException {
                writer.flush(endOfInput);
            }

            @Override
            public void close() throws Exception {
                writer.close();
            }
        };
    }

    @Override
    public Committer<IcebergCommittable> createCommitter(CommitterInitContext context) {
        return delegate.createCommitter(context);
    }

    @Override
    public SimpleVersionedSerializer<IcebergCommittable> getCommittableSerializer() {
        return delegate.getCommittableSerializer();
    }

    @Override
    public DataStream<CommittableMessage<IcebergCommittable>> addPreCommitTopology(
            DataStream<CommittableMessage<WriteResult>> committables) {
        return delegate.addPreCommitTopology(committables);
    }

    @Override
    public SimpleVersionedSerializer<WriteResult> getWriteResultSerializer() {
        return delegate.getWriteResultSerializer();
    }
}
