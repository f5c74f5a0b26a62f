package dev.icebergflink.source.enumerator;

import dev.icebergflink.source.assigner.SplitAssigner;
import dev.icebergflink.source.planning.PlanningResult;
import dev.icebergflink.source.planning.SnapshotPosition;
import dev.icebergflink.source.split.IcebergSourceSplit;
import java.util.concurrent.Callable;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.util.FlinkRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The enumerator of a bounded read: plans once (off the coordinator thread), hands the splits out
 * on request, and tells each reader when none are left.
 *
 * <p>A restore after planning completed (a non-{@code null} position) does not plan again: the
 * restored pending splits, the rest of a restored paged scan and the readers' own splits are all
 * that is left to read.
 */
@Internal
public final class StaticIcebergEnumerator extends AbstractIcebergEnumerator {

    private static final Logger LOG = LoggerFactory.getLogger(StaticIcebergEnumerator.class);

    private final Callable<PlanningResult> planning;

    /**
     * @param planning plans the whole read; called once, on a worker thread
     * @param position the restored position, or {@code null} when planning is still to be done
     * @param settings the pinned table, limit, paging and resources to release
     */
    public StaticIcebergEnumerator(
            SplitEnumeratorContext<IcebergSourceSplit> context,
            SplitAssigner assigner,
            Callable<PlanningResult> planning,
            SnapshotPosition position,
            EnumeratorSettings settings) {
        super(context, assigner, position, settings);
        this.planning = planning;
    }

    @Override
    public void start() {
        checkRestoredTable();
        if (position == null) {
            context.callAsync(planning, this::onPlanned);
        } else {
            requestPageIfNeeded(); // a restored paged scan goes on
        }
    }

    private void onPlanned(PlanningResult result, Throwable error) {
        if (error != null) {
            throw new FlinkRuntimeException(
                    "Failed to plan the splits of a bounded Iceberg read", error);
        }
        LOG.info("Planned {} split(s) up to {}", result.splits().size(), result.toPosition());
        position =
                result.toPosition() == null
                        ? SnapshotPosition.beforeFirstSnapshot()
                        : result.toPosition();
        addPlanned(result);
    }

    @Override
    protected boolean noMoreSplits() {
        return position != null && !pagesOutstanding() && assigner.pendingSplitCount() == 0;
    }
}
