package dev.icebergflink.maintenance.monitor;

import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * Hands the one {@link MonitorSplit} to the one reader, and takes it back when the reader fails.
 */
@Internal
final class MonitorEnumerator implements SplitEnumerator<MonitorSplit, MonitorEnumeratorState> {

    private final SplitEnumeratorContext<MonitorSplit> context;
    private MonitorSplit unassigned;

    MonitorEnumerator(SplitEnumeratorContext<MonitorSplit> context, MonitorSplit unassigned) {
        this.context = context;
        this.unassigned = unassigned;
    }

    @Override
    public void start() {}

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {
        assign(subtaskId);
    }

    @Override
    public void addSplitsBack(List<MonitorSplit> splits, int subtaskId) {
        if (!splits.isEmpty()) {
            unassigned = splits.get(0);
        }
    }

    @Override
    public void addReader(int subtaskId) {
        assign(subtaskId);
    }

    private void assign(int subtaskId) {
        if (unassigned != null && context.registeredReaders().containsKey(subtaskId)) {
            context.assignSplit(unassigned, subtaskId);
            unassigned = null;
        }
    }

    @Override
    public MonitorEnumeratorState snapshotState(long checkpointId) {
        return new MonitorEnumeratorState(unassigned);
    }

    @Override
    public void close() {}
}
