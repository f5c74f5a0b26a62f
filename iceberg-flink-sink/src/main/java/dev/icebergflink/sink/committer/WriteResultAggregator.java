package dev.icebergflink.sink.committer;

import dev.icebergflink.TableLoader;
import java.io.IOException;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.WriteResult;

/**
 * The global commit step of the single-table sink: one {@link IcebergCommittable} per checkpoint,
 * made from every writer subtask's {@link WriteResult} of it (the checkpoint's manifests are
 * written once, one per partition spec and kind).
 *
 * <p>When results belong to which checkpoint, end of input and the operator's state are the rules
 * of {@link CheckpointAggregator}. Every checkpoint for which writers reported, even without files,
 * gets its committable, so the committer sees empty checkpoints too.
 */
final class WriteResultAggregator extends CheckpointAggregator<WriteResult, IcebergCommittable> {

    private static final long serialVersionUID = 1L;

    private final CommitterSettings settings;

    private transient TableLoader tableLoader;
    private transient Table table;
    private transient CommittableFactory committables;

    /**
     * @param runId the sink's run id for this submission (see {@link CommitOwner})
     */
    WriteResultAggregator(CommitterSettings settings, String runId) {
        super(runId);
        this.settings = settings;
    }

    @Override
    protected SimpleVersionedSerializer<WriteResult> resultSerializer() {
        return new WriteResultSerializer(settings.tableLoader());
    }

    @Override
    public void open() throws Exception {
        super.open();
        tableLoader = settings.tableLoader().clone();
        committables = new CommittableFactory();
    }

    @Override
    protected List<IcebergCommittable> committables(
            CommitOwner owner, long checkpointId, boolean endOfInput, List<WriteResult> results)
            throws IOException {
        return List.of(committables.create(this::table, owner, checkpointId, endOfInput, results));
    }

    private Table table() {
        if (table == null) {
            table = tableLoader.loadTable();
        } else {
            table.refresh();
        }
        return table;
    }

    @Override
    public void close() throws Exception {
        try {
            if (tableLoader != null) {
                tableLoader.close();
            }
        } finally {
            super.close();
        }
    }
}
