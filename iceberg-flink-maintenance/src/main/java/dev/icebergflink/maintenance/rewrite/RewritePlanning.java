package dev.icebergflink.maintenance.rewrite;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.task.TaskPlanner;
import dev.icebergflink.maintenance.task.TaskTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.iceberg.CombinedScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;

/**
 * The planning step of the streaming rewrite: plans with {@link RewritePlanner} on the table (or
 * the branch) as it is now, sends the work units, each tagged with its file group, to the workers
 * and the {@link RewriteHeader} with every group's files to the committer.
 */
@Internal
public final class RewritePlanning implements TaskPlanner {

    private static final long serialVersionUID = 1L;

    private final TableLoader loader;
    private final Expression filter;
    private final boolean caseSensitive;
    private final long openFileCost;
    private final Map<String, String> options;
    private final long maxRewriteBytes;
    private final String branch;

    private transient Table table;

    /**
     * @param loader the table
     * @param filter which rows' files to consider
     * @param caseSensitive whether the filter's column names are case-sensitive
     * @param openFileCost the minimum weight of a file when combining files into units
     * @param options Iceberg's rewrite planner options
     * @param maxRewriteBytes the most bytes one run rewrites
     * @param branch the branch to rewrite; null for the main branch
     */
    public RewritePlanning(
            TableLoader loader,
            Expression filter,
            boolean caseSensitive,
            long openFileCost,
            Map<String, String> options,
            long maxRewriteBytes,
            String branch) {
        this.loader = loader;
        this.filter = filter;
        this.caseSensitive = caseSensitive;
        this.openFileCost = openFileCost;
        this.options = Map.copyOf(options);
        this.maxRewriteBytes = maxRewriteBytes;
        this.branch = branch;
    }

    @Override
    public void open() {
        loader.open();
    }

    @Override
    public Plan plan(long triggerTimestamp) throws Exception {
        table = TaskTables.current(loader, table);
        PlannedRewrite plan =
                new RewritePlanner(table, filter, caseSensitive, openFileCost, options)
                        .plan(branch, maxRewriteBytes);
        List<RewriteHeader.Group> groups = new ArrayList<>(plan.groups().size());
        RewriteUnitSerializer units = UnitRewriter.unitSerializer(table);
        RewriteItemSerializer itemSerializer = new RewriteItemSerializer();
        List<byte[]> items = new ArrayList<>(plan.units().size());
        for (int index = 0; index < plan.groups().size(); index++) {
            PlannedRewrite.Group group = plan.groups().get(index);
            groups.add(
                    new RewriteHeader.Group(
                            List.copyOf(group.rewrittenDataFiles()),
                            List.copyOf(group.danglingDeleteFiles())));
            for (CombinedScanTask unit : group.units()) {
                RewriteItemSerializer.Item item =
                        new RewriteItemSerializer.Item(
                                plan.writeTargetFileSize(),
                                index,
                                SimpleVersionedSerialization.writeVersionAndSerialize(units, unit));
                items.add(
                        SimpleVersionedSerialization.writeVersionAndSerialize(
                                itemSerializer, item));
            }
        }
        RewriteHeader header =
                new RewriteHeader(
                        plan.startingSnapshot() == null
                                ? -1L
                                : plan.startingSnapshot().snapshotId(),
                        groups);
        return new Plan(
                SimpleVersionedSerialization.writeVersionAndSerialize(
                        new RewriteHeaderSerializer(table.specs()), header),
                items);
    }

    @Override
    public void close() throws Exception {
        loader.close();
    }
}
