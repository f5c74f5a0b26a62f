package dev.icebergflink.maintenance.postcommit;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.api.TableChange;
import dev.icebergflink.maintenance.monitor.MonitorSplit;
import dev.icebergflink.maintenance.monitor.SnapshotChanges;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.util.Collector;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * Turns the sink's "checkpoint committed" signals into the table's changes: on each signal it
 * refreshes the table and emits what the commits since the last signal added ({@link
 * SnapshotChanges}, the snapshots' summaries), so the triggers count other writers' commits too and
 * never count one twice. The last snapshot counted is kept in the checkpoint (a long).
 */
@Internal
public final class CommittedChanges extends RichFlatMapFunction<Long, TableChange>
        implements CheckpointedFunction {

    private static final long serialVersionUID = 1L;

    private final TableLoader loader;
    private final int maxReadBack;

    private transient Table table;
    private transient long lastSnapshotId;
    private transient ListState<Long> checkpointed;

    public CommittedChanges(TableLoader loader, int maxReadBack) {
        this.loader = loader;
        this.maxReadBack = maxReadBack;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        checkpointed =
                context.getOperatorStateStore()
                        .getListState(
                                new ListStateDescriptor<>("last-counted-snapshot", Types.LONG));
        lastSnapshotId = MonitorSplit.NONE;
        for (Long restored : checkpointed.get()) {
            lastSnapshotId = restored;
        }
    }

    @Override
    public void open(OpenContext openContext) {
        loader.open();
    }

    @Override
    public void flatMap(Long committedCheckpoint, Collector<TableChange> out) {
        if (table == null) {
            table = loader.loadTable();
        } else {
            table.refresh();
        }
        Snapshot current = table.currentSnapshot();
        if (current == null || current.snapshotId() == lastSnapshotId) {
            return;
        }
        TableChange change = SnapshotChanges.since(table, current, lastSnapshotId, maxReadBack);
        lastSnapshotId = current.snapshotId();
        if (change.commitCount() > 0) {
            out.collect(change);
        }
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        checkpointed.update(List.of(lastSnapshotId));
    }

    @Override
    public void close() throws Exception {
        loader.close();
    }
}
