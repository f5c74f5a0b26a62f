package dev.icebergflink.maintenance.eqdelete;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.task.TaskFinisher;
import dev.icebergflink.maintenance.task.TaskTables;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.ValidationException;

/**
 * The committing step of the equality-delete conversion: once every unit is converted, removes the
 * planned equality deletes and adds the workers' position deletes in ONE {@link
 * EqualityDeleteCommitter} commit, validated against everything committed since planning.
 *
 * <p>A lost race (see {@link ConcurrentChangeValidator}) or an expired starting snapshot gives the
 * run up: the table is unchanged, the new files are deleted, and the next run plans again. A run
 * given up before the commit deletes the files its successful units wrote.
 */
@Internal
public final class EqualityDeleteCommit implements TaskFinisher {

    private static final long serialVersionUID = 1L;

    private final TableLoader loader;

    private transient Table table;

    public EqualityDeleteCommit(TableLoader loader) {
        this.loader = loader;
    }

    @Override
    public void open() {
        loader.open();
    }

    @Override
    public Outcome finish(byte[] header, List<byte[]> results) throws Exception {
        table = TaskTables.current(loader, table);
        ConversionHeader plan =
                SimpleVersionedSerialization.readVersionAndDeSerialize(
                        new ConversionHeaderSerializer(table.specs()), header);
        ConvertedDeletes converted = converted(results);
        if (plan.removedEqualityDeletes().isEmpty()) {
            EqualityDeleteCommitter.deleteQuietly(table, converted, new IllegalStateException());
            return new Outcome(0L, 0L);
        }
        Snapshot start = table.snapshot(plan.startingSnapshotId());
        if (start == null) {
            ValidationException expired =
                    new ValidationException(
                            "Cannot commit the equality-delete conversion of table %s: its"
                                    + " starting snapshot %d was expired meanwhile",
                            table.name(), plan.startingSnapshotId());
            EqualityDeleteCommitter.deleteQuietly(table, converted, expired);
            throw expired;
        }
        new EqualityDeleteCommitter(table, null)
                .commit(start, plan.removedEqualityDeletes(), converted);
        return new Outcome(
                converted.added().size(),
                (long) plan.removedEqualityDeletes().size() + converted.replaced().size());
    }

    @Override
    public void abandon(byte[] header, List<byte[]> results) throws Exception {
        table = TaskTables.current(loader, table);
        EqualityDeleteCommitter.deleteQuietly(
                table, converted(results), new IllegalStateException("abandoned"));
    }

    private ConvertedDeletes converted(List<byte[]> results) throws IOException {
        ConvertedDeletesSerializer serializer = new ConvertedDeletesSerializer(table.specs());
        List<ConvertedDeletes> all = new ArrayList<>(results.size());
        for (byte[] result : results) {
            all.add(SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, result));
        }
        return ConvertedDeletes.combine(all);
    }

    @Override
    public void close() throws Exception {
        loader.close();
    }
}
