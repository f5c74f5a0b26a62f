package dev.icebergflink.maintenance.monitor;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.api.TableChange;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The monitor of {@code TableMaintenance.forTable}: an unbounded source, run on one subtask, that
 * emits the table's changes (see {@link MonitorReader}). Its one split records the last snapshot
 * reported, so a restored job reports every commit after its checkpoint once.
 */
@Internal
public final class TableChangeSource
        implements Source<TableChange, MonitorSplit, MonitorEnumeratorState> {

    private static final long serialVersionUID = 1L;

    private final TableLoader loader;
    private final long intervalMillis;
    private final int maxReadBack;

    /**
     * @param loader the table
     * @param intervalMillis how often to look at the table
     * @param maxReadBack how many snapshots one look reads at most
     */
    public TableChangeSource(TableLoader loader, long intervalMillis, int maxReadBack) {
        this.loader = Objects.requireNonNull(loader, "loader");
        this.intervalMillis = intervalMillis;
        this.maxReadBack = maxReadBack;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SplitEnumerator<MonitorSplit, MonitorEnumeratorState> createEnumerator(
            SplitEnumeratorContext<MonitorSplit> context) {
        return new MonitorEnumerator(context, new MonitorSplit(MonitorSplit.NONE));
    }

    @Override
    public SplitEnumerator<MonitorSplit, MonitorEnumeratorState> restoreEnumerator(
            SplitEnumeratorContext<MonitorSplit> context, MonitorEnumeratorState checkpoint) {
        return new MonitorEnumerator(context, checkpoint.unassigned());
    }

    @Override
    public SimpleVersionedSerializer<MonitorSplit> getSplitSerializer() {
        return new MonitorSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<MonitorEnumeratorState> getEnumeratorCheckpointSerializer() {
        return new MonitorEnumeratorStateSerializer();
    }

    @Override
    public SourceReader<TableChange, MonitorSplit> createReader(SourceReaderContext context) {
        return new MonitorReader(context, loader.clone(), intervalMillis, maxReadBack);
    }
}
