package dev.icebergflink.maintenance.eqdelete;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.task.TaskPlanner;
import dev.icebergflink.maintenance.task.TaskTables;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.util.PropertyUtil;

/**
 * The planning step of the equality-delete conversion: plans with {@link EqualityDeletePlanner} on
 * the table as it is now, sends the units to the workers and the {@link ConversionHeader} to the
 * committer. A unit holds about one read split ({@code read.split.target-size}) of data files.
 */
@Internal
public final class EqualityDeletePlanning implements TaskPlanner {

    private static final long serialVersionUID = 1L;

    private final TableLoader loader;
    private final Expression filter;
    private final boolean caseSensitive;
    private final long maxRewriteBytes;

    private transient Table table;

    /**
     * @param loader the table
     * @param filter which partitions' equality deletes to convert
     * @param caseSensitive whether the filter's column names are case-sensitive
     * @param maxRewriteBytes the most bytes one run reads
     */
    public EqualityDeletePlanning(
            TableLoader loader, Expression filter, boolean caseSensitive, long maxRewriteBytes) {
        this.loader = loader;
        this.filter = filter;
        this.caseSensitive = caseSensitive;
        this.maxRewriteBytes = maxRewriteBytes;
    }

    @Override
    public void open() {
        loader.open();
    }

    @Override
    public Plan plan(long triggerTimestamp) throws Exception {
        table = TaskTables.current(loader, table);
        long unitBytes =
                PropertyUtil.propertyAsLong(
                        table.properties(),
                        TableProperties.SPLIT_SIZE,
                        TableProperties.SPLIT_SIZE_DEFAULT);
        PlannedConversion plan =
                new EqualityDeletePlanner(
                                table,
                                filter,
                                caseSensitive,
                                maxRewriteBytes,
                                Math.max(1L, unitBytes))
                        .plan();
        ConversionHeader header =
                new ConversionHeader(
                        plan.startingSnapshot() == null
                                ? -1L
                                : plan.startingSnapshot().snapshotId(),
                        plan.removedEqualityDeletes());
        ConversionUnitSerializer units = UnitConverter.unitSerializer(table);
        List<byte[]> items = new ArrayList<>(plan.units().size());
        for (ConversionUnit unit : plan.units()) {
            items.add(SimpleVersionedSerialization.writeVersionAndSerialize(units, unit));
        }
        return new Plan(
                SimpleVersionedSerialization.writeVersionAndSerialize(
                        new ConversionHeaderSerializer(table.specs()), header),
                items);
    }

    @Override
    public void close() throws Exception {
        loader.close();
    }
}
