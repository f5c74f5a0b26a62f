package dev.icebergflink.sink.dynamic;

import dev.icebergflink.TableLoader;
import dev.icebergflink.sink.committer.CommitMode;
import dev.icebergflink.sink.committer.CommitterSettings;
import dev.icebergflink.sink.committer.IcebergCommittable;
import dev.icebergflink.sink.committer.IcebergCommitter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.metrics.MetricGroup;
import org.apache.iceberg.catalog.TableIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits the dynamic sink's committables: each table and branch through its own {@link
 * IcebergCommitter}, the single-table sink's committer, so that every table gets one snapshot per
 * checkpoint with the same snapshot summary keys, the same checks against committing a checkpoint
 * twice or skipping one after a restore, and the same handling of conflicts and retries.
 *
 * <p>Commits are {@code RowDelta}s (a fast append when a checkpoint of the table has no delete
 * files) or, in overwrite mode, dynamic partition overwrites. A table's committables are committed
 * one at a time in order of checkpoint, then generation (a table that changed its schema or spec
 * while rows were written into it by key has two or more in one checkpoint, and a later one's
 * equality deletes must apply to an earlier one's rows); once one is not committed (it failed, or
 * Flink is to retry it), the later ones wait for it. The committers of the least recently committed
 * tables are closed beyond {@code cacheMaxSize} tables and made again when needed: they keep
 * nothing between commits that the table's snapshots do not hold.
 */
@Internal
final class DynamicCommitter implements Committer<DynamicCommittable> {

    private static final Logger LOG = LoggerFactory.getLogger(DynamicCommitter.class);

    private static final Comparator<TableCommitRequest> ORDER =
            Comparator.comparingLong(
                            (TableCommitRequest r) ->
                                    r.request.getCommittable().committable().checkpointId())
                    .thenComparingInt(r -> r.request.getCommittable().generation());

    private final DynamicSinkSettings settings;
    private final MetricGroup metricGroup;
    private final LinkedHashMap<Target, IcebergCommitter> committers;

    DynamicCommitter(DynamicSinkSettings settings, MetricGroup metricGroup) {
        this.settings = settings;
        this.metricGroup = metricGroup;
        int max = settings.cacheMaxSize();
        this.committers =
                new LinkedHashMap<>(16, 0.75f, true) {
                    private static final long serialVersionUID = 1L;

                    @Override
                    protected boolean removeEldestEntry(
                            Map.Entry<Target, IcebergCommitter> eldest) {
                        if (size() <= max) {
                            return false;
                        }
                        closeQuietly(eldest.getValue());
                        return true;
                    }
                };
    }

    @Override
    public void commit(Collection<CommitRequest<DynamicCommittable>> requests) {
        Map<Target, List<TableCommitRequest>> byTarget = new LinkedHashMap<>();
        for (CommitRequest<DynamicCommittable> request : requests) {
            DynamicCommittable committable = request.getCommittable();
            byTarget.computeIfAbsent(
                            new Target(committable.table(), committable.branch()),
                            t -> new ArrayList<>())
                    .add(new TableCommitRequest(request));
        }
        byTarget.forEach(this::commitInOrder);
    }

    private void commitInOrder(Target target, List<TableCommitRequest> requests) {
        requests.sort(ORDER);
        IcebergCommitter committer = committer(target);
        boolean blocked = false;
        for (TableCommitRequest request : requests) {
            if (blocked) {
                request.retryLater();
                continue;
            }
            committer.commit(List.of(request));
            blocked = request.notCommitted;
        }
    }

    private IcebergCommitter committer(Target target) {
        IcebergCommitter committer = committers.get(target);
        if (committer == null) {
            CommitterSettings tableSettings =
                    CommitterSettings.builder(
                                    TableLoader.fromCatalog(
                                            settings.catalogLoader(), target.table()))
                            .branch(target.branch())
                            .snapshotProperties(settings.snapshotProperties())
                            .mode(
                                    settings.overwrite()
                                            ? CommitMode.DYNAMIC_OVERWRITE
                                            : CommitMode.ROW_DELTA)
                            .uidSuffix(target.table().toString())
                            .build();
            committer =
                    new IcebergCommitter(
                            tableSettings,
                            metricGroup.addGroup("table", target.table().toString()));
            committers.put(target, committer);
        }
        return committer;
    }

    @Override
    public void close() {
        committers.values().forEach(DynamicCommitter::closeQuietly);
        committers.clear();
    }

    private static void closeQuietly(IcebergCommitter committer) {
        try {
            committer.close();
        } catch (Exception e) {
            LOG.debug("Closing the committer of a table failed", e);
        }
    }

    private record Target(TableIdentifier table, String branch) {}

    /**
     * A request for one table's committer, answering for the dynamic sink's request and noting
     * whether the committable stayed uncommitted (failed, or to be retried).
     */
    private static final class TableCommitRequest implements CommitRequest<IcebergCommittable> {
        private final CommitRequest<DynamicCommittable> request;
        private boolean notCommitted;

        TableCommitRequest(CommitRequest<DynamicCommittable> request) {
            this.request = request;
        }

        @Override
        public IcebergCommittable getCommittable() {
            return request.getCommittable().committable();
        }

        @Override
        public int getNumberOfRetries() {
            return request.getNumberOfRetries();
        }

        @Override
        public void signalFailedWithKnownReason(Throwable t) {
            notCommitted = true;
            request.signalFailedWithKnownReason(t);
        }

        @Override
        public void signalFailedWithUnknownReason(Throwable t) {
            notCommitted = true;
            request.signalFailedWithUnknownReason(t);
        }

        @Override
        public void retryLater() {
            notCommitted = true;
            request.retryLater();
        }

        @Override
        public void updateAndRetryLater(IcebergCommittable committable) {
            notCommitted = true;
            DynamicCommittable current = request.getCommittable();
            request.updateAndRetryLater(
                    new DynamicCommittable(
                            current.table(), current.branch(), current.generation(), committable));
        }

        @Override
        public void signalAlreadyCommitted() {
            request.signalAlreadyCommitted();
        }
    }
}
