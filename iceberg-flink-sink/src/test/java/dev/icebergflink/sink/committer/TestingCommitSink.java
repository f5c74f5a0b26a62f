package dev.icebergflink.sink.committer;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.sink.writer.IcebergSinkWriter;
import dev.icebergflink.sink.writer.RowDataTaskWriterFactory;
import dev.icebergflink.sink.writer.WriterMetrics;
import dev.icebergflink.sink.writer.WriterMode;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.WriteResult;

/**
 * A minimal append sink made of the writer helper's {@link IcebergSinkWriter} and the commit side
 * of this package, so that the commit side's failover behaviour is tested on its own (the public
 * {@code IcebergSink} wires the same parts).
 */
final class TestingCommitSink
        implements Sink<RowData>,
                SupportsCommitter<IcebergCommittable>,
                SupportsPreCommitTopology<WriteResult, IcebergCommittable> {

    private static final long serialVersionUID = 1L;

    private final CommitterSettings settings;
    private final RowDataTaskWriterFactory writerFactory;

    TestingCommitSink(CommitterSettings settings) {
        this.settings = settings;
        Table table = settings.tableLoader().clone().loadTable();
        this.writerFactory =
                new RowDataTaskWriterFactory(
                        table,
                        FlinkSchemaUtil.convert(table.schema()),
                        FileFormat.PARQUET,
                        1L << 20,
                        Map.of(),
                        WriterMode.APPEND,
                        List.of());
    }

    @Override
    public SinkWriter<RowData> createWriter(WriterInitContext context) {
        return new IcebergSinkWriter(
                writerFactory,
                new WriterMetrics(context.metricGroup()),
                context.getTaskInfo().getIndexOfThisSubtask(),
                context.getTaskInfo().getAttemptNumber());
    }

    @Override
    public Committer<IcebergCommittable> createCommitter(CommitterInitContext context) {
        return IcebergCommitter.create(settings, context);
    }

    @Override
    public SimpleVersionedSerializer<IcebergCommittable> getCommittableSerializer() {
        return new IcebergCommittableSerializer();
    }

    @Override
    public DataStream<CommittableMessage<IcebergCommittable>> addPreCommitTopology(
            DataStream<CommittableMessage<WriteResult>> committables) {
        return CommitTopology.addPreCommitTopology(committables, settings);
    }

    @Override
    public SimpleVersionedSerializer<WriteResult> getWriteResultSerializer() {
        return new WriteResultSerializer(settings.tableLoader());
    }
}
