package dev.icebergflink.table.dml;

import dev.icebergflink.TableLoader;
import dev.icebergflink.tasks.codec.TableMetadataLookup;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.iceberg.Table;

/**
 * The committer of a row-level statement (parallelism 1): collects the results of all writers and,
 * when they have all ended, makes the statement's one commit ({@link RowLevelCommit}). A commit
 * that fails validation fails the job with a {@link DmlConflictException}.
 */
@Internal
public final class RowLevelCommitOperator extends AbstractStreamOperator<Void>
        implements OneInputStreamOperator<byte[], Void>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final DmlPlan plan;

    private transient TableLoader loader;
    private transient Table table;
    private transient DmlWriteResultSerializer serializer;
    private transient List<DmlWriteResult> results;

    /**
     * @param plan the statement
     */
    public RowLevelCommitOperator(DmlPlan plan) {
        this.plan = plan;
    }

    @Override
    public void open() throws Exception {
        super.open();
        loader = plan.openLoader();
        table = loader.loadTable();
        serializer = new DmlWriteResultSerializer(TableMetadataLookup.of(table));
        results = new ArrayList<>();
    }

    @Override
    public void processElement(StreamRecord<byte[]> element) throws Exception {
        results.add(
                SimpleVersionedSerialization.readVersionAndDeSerialize(
                        serializer, element.getValue()));
    }

    @Override
    public void endInput() {
        new RowLevelCommit(plan).commit(table, DmlWriteResult.merge(results));
    }

    @Override
    public void close() throws Exception {
        try {
            if (loader != null) {
                loader.close();
            }
        } finally {
            super.close();
        }
    }
}
