package dev.icebergflink.source.enumerator;

import dev.icebergflink.TableLoader;
import dev.icebergflink.source.assigner.SplitAssigner;
import dev.icebergflink.source.assigner.SplitAssignerFactory;
import dev.icebergflink.source.config.ScanContext;
import dev.icebergflink.source.planning.ContinuousSplitPlanner;
import dev.icebergflink.source.planning.PlanningTable;
import dev.icebergflink.source.planning.SplitPager;
import dev.icebergflink.source.planning.SplitPlanner;
import dev.icebergflink.source.planning.TableIdentity;
import dev.icebergflink.source.split.IcebergSourceSplit;
import java.io.Serializable;
import java.util.concurrent.ExecutorService;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.ThreadPools;

/**
 * Creates the enumerator of a read plan on the JobManager, new or restored: the static one for
 * bounded reads, the continuous one for unbounded reads ({@link
 * dev.icebergflink.source.config.ReadMode#continuous()}).
 *
 * <p>It exists to keep the enumerator side of the source's topology in one place:
 *
 * <pre>
 *   table (loaded once per enumerator) -> planner -> enumerator -> splits -> readers
 * </pre>
 *
 * <p>An enumerator owns a table loader and, with {@code planParallelism}, a planning thread pool,
 * which it releases when it closes. When building it fails (the table cannot be loaded, the
 * assigner cannot take the restored splits), both are released here before the failure propagates,
 * so a failed restore leaks no loader and no pool.
 */
@Internal
public final class IcebergEnumeratorFactory implements Serializable {

    private static final long serialVersionUID = 1L;

    private final TableLoader tableLoader;
    private final String tableName;
    private final ScanContext plan;
    private final SplitAssignerFactory assignerFactory;

    /**
     * @param tableLoader loads the table on the JobManager (cloned for each enumerator)
     * @param tableName names the table in messages and thread names
     * @param plan the resolved read plan
     * @param assignerFactory orders the pending splits
     */
    public IcebergEnumeratorFactory(
            TableLoader tableLoader,
            String tableName,
            ScanContext plan,
            SplitAssignerFactory assignerFactory) {
        this.tableLoader = tableLoader;
        this.tableName = tableName;
        this.plan = plan;
        this.assignerFactory = assignerFactory;
    }

    /** A new enumerator ({@code restored} is {@code null}) or one restored from a checkpoint. */
    public SplitEnumerator<IcebergSourceSplit, IcebergEnumeratorState> create(
            SplitEnumeratorContext<IcebergSourceSplit> enumContext,
            IcebergEnumeratorState restored) {
        if (plan.readsChangelog() && enumContext.currentParallelism() > 1) {
            // Two readers would emit one key's changes on two channels: downstream could see
            // an insert after the delete that followed it. One reader keeps commit order.
            throw new IllegalArgumentException(
                    String.format(
                            "Option 'changelog-mode' = 'all' emits the changes of %s in commit"
                                    + " order, which one reader guarantees: the source runs with"
                                    + " parallelism %d. Set the source's parallelism to 1"
                                    + " (env.fromSource(...).setParallelism(1)).",
                            tableName, enumContext.currentParallelism()));
        }
        PlanningTable opened = PlanningTable.open(tableLoader);
        ExecutorService pool = null;
        try {
            // restore the assigner before the pool exists: a restore that fails starts nothing
            SplitAssigner assigner =
                    restored == null
                            ? assignerFactory.createAssigner()
                            : assignerFactory.createAssigner(restored.pendingSplits());
            pool =
                    plan.planParallelism() == null
                            ? null
                            : ThreadPools.newFixedThreadPool(
                                    "iceberg-plan-" + tableName, plan.planParallelism());
            return create(enumContext, restored, opened, assigner, pool);
        } catch (RuntimeException | Error e) {
            if (pool != null) {
                pool.shutdownNow();
            }
            try {
                opened.close();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    private SplitEnumerator<IcebergSourceSplit, IcebergEnumeratorState> create(
            SplitEnumeratorContext<IcebergSourceSplit> enumContext,
            IcebergEnumeratorState restored,
            PlanningTable opened,
            SplitAssigner assigner,
            ExecutorService pool) {
        Table table = opened.table();
        SplitPlanner planner = new SplitPlanner(table, plan, pool);
        var position = restored == null ? null : restored.position();
        String restoredUuid = restored == null ? null : restored.tableUuid();
        String loadedUuid = TableIdentity.uuidOf(table);
        SplitPager pager = new SplitPager(planner);
        AutoCloseable resources =
                () -> {
                    try (pager) {
                        if (pool != null) {
                            pool.shutdownNow();
                        }
                    } finally {
                        opened.close();
                    }
                };
        EnumeratorSettings settings =
                EnumeratorSettings.none()
                        .pinnedTo(tableName, restoredUuid, loadedUuid)
                        .limitedTo(plan.limit())
                        .closing(resources);
        if (plan.splitPlanningPageSize() > 0) {
            settings =
                    settings.pagedBy(
                            pager,
                            plan.splitPlanningPageSize(),
                            restored == null ? null : restored.pagedScan());
        }
        if (plan.mode().continuous()) {
            ContinuousSplitPlanner continuous =
                    new ContinuousSplitPlanner(
                            planner,
                            plan,
                            TableIdentity.pinned(restoredUuid, loadedUuid),
                            opened.loader()::loadTable,
                            ContinuousSplitPlanner.IDENTITY_CHECK_INTERVAL,
                            System::nanoTime);
            return new ContinuousIcebergEnumerator(
                    enumContext,
                    assigner,
                    continuous::planNext,
                    position,
                    plan.monitorInterval(),
                    plan.maxAllowedPlanningFailures(),
                    settings);
        }
        return new StaticIcebergEnumerator(
                enumContext,
                assigner,
                () -> planner.planBounded(enumContext.currentParallelism()),
                position,
                settings);
    }
}
