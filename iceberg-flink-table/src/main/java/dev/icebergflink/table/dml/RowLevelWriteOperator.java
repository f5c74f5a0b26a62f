package dev.icebergflink.table.dml;

import dev.icebergflink.TableLoader;
import dev.icebergflink.tasks.codec.TableMetadataLookup;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Table;

/**
 * The writer subtask of a row-level statement: hands every row to a {@link RowLevelFileWriter} and,
 * when its input ends, sends what it wrote to the committer as a versioned {@link DmlWriteResult}.
 * A subtask that fails or is cancelled deletes the files it wrote.
 */
@Internal
public final class RowLevelWriteOperator extends AbstractStreamOperator<byte[]>
        implements OneInputStreamOperator<RowData, byte[]>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final DmlPlan plan;

    private transient TableLoader loader;
    private transient Table table;
    private transient RowLevelFileWriter writer;
    private transient boolean completed;

    /**
     * @param plan the statement
     */
    public RowLevelWriteOperator(DmlPlan plan) {
        this.plan = plan;
    }

    @Override
    public void open() throws Exception {
        super.open();
        loader = plan.openLoader();
        table = loader.loadTable();
        writer =
                new RowLevelFileWriter(
                        plan,
                        table,
                        getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                        getRuntimeContext().getTaskInfo().getAttemptNumber());
    }

    @Override
    public void processElement(StreamRecord<RowData> element) {
        writer.write(element.getValue());
    }

    @Override
    public void endInput() throws IOException {
        DmlWriteResult result = writer.complete();
        completed = true;
        byte[] bytes =
                SimpleVersionedSerialization.writeVersionAndSerialize(
                        new DmlWriteResultSerializer(TableMetadataLookup.of(table)), result);
        output.collect(new StreamRecord<>(bytes));
    }

    @Override
    public void close() throws Exception {
        try {
            if (writer != null && !completed) {
                writer.abort(null);
            }
        } finally {
            if (loader != null) {
                loader.close();
            }
            super.close();
        }
    }
}
