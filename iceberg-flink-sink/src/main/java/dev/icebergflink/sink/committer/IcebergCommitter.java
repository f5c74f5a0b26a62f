package dev.icebergflink.sink.committer;

import java.io.IOException;
import java.util.Collection;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.metrics.groups.SinkCommitterMetricGroup;

/**
 * Commits each checkpoint's {@link IcebergCommittable} as exactly one Iceberg snapshot, exactly
 * once.
 */
public final class IcebergCommitter implements Committer<IcebergCommittable> {

    private final CommitterSettings settings;

    /** A committer for the settings' table, with its metrics on {@code metricGroup}. */
    public IcebergCommitter(CommitterSettings settings, SinkCommitterMetricGroup metricGroup) {
        this.settings = settings;
    }

    /** A committer created from Flink's committer context (for {@code createCommitter}). */
    public static IcebergCommitter create(
            CommitterSettings settings, CommitterInitContext context) {
        return new IcebergCommitter(settings, context.metricGroup());
    }

    @Override
    public void commit(Collection<CommitRequest<IcebergCommittable>> requests)
            throws IOException, InterruptedException {
        throw new UnsupportedOperationException("not yet");
    }

    @Override
    public void close() {}
}
