package dev.icebergflink.sink.committer;

import dev.icebergflink.TableLoader;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.ReplacePartitions;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.util.PropertyUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits each checkpoint's {@link IcebergCommittable} as exactly one Iceberg snapshot, exactly
 * once.
 *
 * <p><b>Exactly-once.</b> Every snapshot the sink makes records the committable's {@link
 * CommitOwner owner} (job id, operator id and the sink's run id) and checkpoint id in its summary
 * ({@link CommitSummaryKeys}). Before committing, the committer reads the owner's progress from the
 * target branch ({@link CommitProgressLookup}); a committable the progress already covers is
 * skipped ({@code signalAlreadyCommitted}) and its temporary manifests are deleted. The same check
 * runs again inside Iceberg's commit retry loop, against the base each attempt applies to ({@link
 * ProgressCheckedOperations}), so an earlier attempt of the same committable that lands between the
 * lookup and the commit is recognised instead of committed twice. This makes a retry after a lost
 * commit response, a failover, a JobManager failover and a restore of an older savepoint safe: the
 * owner travels in the committable, so a restore still finds the earlier commit, and the run id,
 * new with every submission, keeps a job that runs again under the same job id from taking the
 * earlier run's checkpoints for its own. Pending committables are committed in ascending checkpoint
 * order, one snapshot each.
 *
 * <p><b>Lost progress.</b> A committable whose progress no snapshot of the branch records any more
 * (expired, or rolled back) and whose temporary manifests are gone (so it was committed) fails the
 * job once, without restarts, with {@link CommitProgressLostException}, which says what to do.
 *
 * <p><b>End of input.</b> The committable of the end of bounded input records {@code
 * flink.max-committed-checkpoint-id} = its checkpoint id minus one (the last regular checkpoint)
 * and {@code flink.end-of-input-checkpoint-id} = its id. A repeat of that commit (failover before
 * the job finished, a batch job re-run under the same job id) is recognised by the second key,
 * while a later streaming job that happens to run under the same job id (fixed job ids in
 * application mode) is not blocked: no {@code Long.MAX_VALUE} is ever recorded.
 *
 * <p><b>Modes</b> ({@link CommitMode}): APPEND uses a fast append, DYNAMIC_OVERWRITE {@code
 * ReplacePartitions}, STATIC_OVERWRITE {@code OverwriteFiles.overwriteByRowFilter} (the first
 * commit of a job/operator also when it has no files, emptying the partition once), ROW_DELTA
 * {@code RowDelta} with {@code validateDataFilesExist} for referenced data files, validated from
 * the branch head the commit started from; a ROW_DELTA checkpoint without delete files (only
 * inserts) is a fast append, like APPEND.
 *
 * <p><b>Empty checkpoints</b> make no snapshot, except that after {@value
 * #MAX_CONTINUOUS_EMPTY_COMMITS} (table property, default {@value
 * CommitterSettings#DEFAULT_MAX_CONTINUOUS_EMPTY_COMMITS}) consecutive empty checkpoints an empty
 * append records the progress, so that the pair's newest commit stays near the branch head (short
 * lookups, and less exposure to snapshot expiration). Skipping empty checkpoints is safe for
 * exactly-once: replaying an empty checkpoint adds nothing.
 *
 * <p><b>Failures.</b> Conflicts are retried by Iceberg ({@code commit.retry.*} table properties). A
 * commit that still fails counts in {@code failedCommits} and is handed back to Flink with {@code
 * retryLater()} (Flink retries up to {@code sink.committer.retries} times, then fails the job and
 * restores; the progress lookup makes the retry safe even when the failed attempt actually
 * committed); a {@link ValidationException} or an invalid committable is not retryable and fails
 * the job ({@code signalFailedWithUnknownReason}). Later checkpoints of the same job/operator wait
 * for it ({@code retryLater()}), so the order is kept.
 */
@Internal
public final class IcebergCommitter implements Committer<IcebergCommittable> {

    /** Table property: consecutive empty checkpoints after which an empty snapshot is made. */
    public static final String MAX_CONTINUOUS_EMPTY_COMMITS = "flink.max-continuous-empty-commits";

    private static final Logger LOG = LoggerFactory.getLogger(IcebergCommitter.class);

    private static final Comparator<IcebergCommittable> ORDER =
            Comparator.comparingLong(IcebergCommittable::checkpointId)
                    .thenComparing(IcebergCommittable::endOfInput);

    private final CommitterSettings settings;
    private final TableLoader tableLoader;
    private final CommitterMetrics metrics;
    private final CommitProgressLookup progressLookup = new CommitProgressLookup();

    private Table table;
    private int continuousEmptyCheckpoints;

    /** A committer for the settings' table, with its metrics on {@code metricGroup}. */
    public IcebergCommitter(CommitterSettings settings, MetricGroup metricGroup) {
        this.settings = settings;
        this.tableLoader = settings.tableLoader().clone();
        this.metrics = new CommitterMetrics(metricGroup, System::currentTimeMillis);
    }

    /** A committer created from Flink's committer context (for {@code createCommitter}). */
    public static IcebergCommitter create(
            CommitterSettings settings, CommitterInitContext context) {
        return new IcebergCommitter(settings, context.metricGroup());
    }

    @Override
    public void commit(Collection<CommitRequest<IcebergCommittable>> requests) {
        if (requests.isEmpty()) {
            return;
        }
        if (settings.mode() == CommitMode.STAGE) {
            stage(requests);
            return;
        }
        Table current = table();
        Map<String, List<CommitRequest<IcebergCommittable>>> byProducer = new LinkedHashMap<>();
        for (CommitRequest<IcebergCommittable> request : requests) {
            IcebergCommittable c = request.getCommittable();
            byProducer
                    .computeIfAbsent(c.jobId() + "/" + c.operatorId(), k -> new ArrayList<>())
                    .add(request);
        }
        for (List<CommitRequest<IcebergCommittable>> group : byProducer.values()) {
            group.sort(Comparator.comparing(CommitRequest::getCommittable, ORDER));
            commitInOrder(current, group);
        }
    }

    /**
     * {@link CommitMode#STAGE}: records each committable for a later commit by the caller; the
     * catalog is not touched and the temporary manifests stay (the records point to them).
     */
    private void stage(Collection<CommitRequest<IcebergCommittable>> requests) {
        if (table == null) {
            table = tableLoader.loadTable();
        }
        for (CommitRequest<IcebergCommittable> request : requests) {
            IcebergCommittable committable = request.getCommittable();
            try {
                StagedCheckpoints.record(table.io(), settings.stagingLocation(), committable);
                LOG.info("Staged {} in {}", committable, settings.stagingLocation());
            } catch (RuntimeException e) {
                metrics.failed();
                LOG.warn("Staging {} failed; Flink will retry it", committable, e);
                request.retryLater();
            }
        }
    }

    private void commitInOrder(Table current, List<CommitRequest<IcebergCommittable>> group) {
        boolean blocked = false;
        for (CommitRequest<IcebergCommittable> request : group) {
            IcebergCommittable committable = request.getCommittable();
            if (blocked) {
                request.retryLater();
                continue;
            }
            try {
                if (!commitOne(current, committable)) {
                    request.signalAlreadyCommitted();
                }
            } catch (CommitProgressLostException e) {
                metrics.failed();
                LOG.error("Commit of {} is impossible", committable, e);
                // a restart would restore the same committable: fail the job once
                request.signalFailedWithUnknownReason(new SuppressRestartsException(e));
                blocked = true;
            } catch (ValidationException | UncommittableException e) {
                metrics.failed();
                LOG.error("Commit of {} failed and cannot be retried", committable, e);
                request.signalFailedWithUnknownReason(e);
                blocked = true;
            } catch (RuntimeException e) {
                metrics.failed();
                LOG.warn(
                        "Commit of {} failed (attempt {}); Flink will retry it",
                        committable,
                        request.getNumberOfRetries() + 1,
                        e);
                request.retryLater();
                blocked = true;
                current.refresh();
            }
        }
    }

    /**
     * Commits one committable unless the branch already holds it.
     *
     * @return false when it was already committed (skipped)
     */
    boolean commitOne(Table current, IcebergCommittable committable) {
        String branch = settings.branch();
        current.refresh();
        Snapshot head = current.snapshot(branch);
        CommitProgress progress = progressLookup.lookup(current, branch, committable.owner());
        if (progress.covers(committable)) {
            LOG.info("Skipping {}: branch {} already holds it ({})", committable, branch, progress);
            deleteManifests(current, committable);
            return false;
        }
        if (committable.isEmpty() && !needsSnapshotWhenEmpty(current, committable, progress)) {
            continuousEmptyCheckpoints++;
            LOG.debug("No files in {}; no snapshot", committable);
            return true;
        }
        long start = System.nanoTime();
        SnapshotUpdate<?> update = prepare(current, committable, head);
        settings.snapshotProperties().forEach(update::set);
        CommitProgress next = progress.after(committable);
        committable.owner().recordIn(update);
        update.set(
                CommitSummaryKeys.MAX_COMMITTED_CHECKPOINT_ID,
                Long.toString(next.maxCheckpointId()));
        if (committable.endOfInput()) {
            update.set(
                    CommitSummaryKeys.END_OF_INPUT_CHECKPOINT_ID,
                    Long.toString(committable.checkpointId()));
        }
        update.toBranch(branch);
        CommitterTestHooks.beforeCommit(committable);
        try {
            commitChecked(current, update, committable, head);
        } catch (AlreadyCommittedException e) {
            LOG.info("Skipping {}: {}", committable, e.getMessage());
            deleteManifests(current, committable);
            return false;
        }
        CommitterTestHooks.afterCommit(committable);
        long durationMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        metrics.succeeded(durationMs);
        continuousEmptyCheckpoints = 0;
        Snapshot committed = current.snapshot(branch);
        if (committed != null && committable.owner().madeCommit(committed.summary())) {
            progressLookup.committed(committable.owner(), committed.snapshotId(), next);
        }
        LOG.info(
                "Committed {} to branch {} of {} in {} ms",
                committable,
                branch,
                current.name(),
                durationMs);
        deleteManifests(current, committable);
        return true;
    }

    /**
     * Runs Iceberg's commit of {@code update} with every attempt of its retry loop checked against
     * the base it applies to ({@link ProgressCheckedOperations}).
     *
     * @param checkedHead the branch head the progress lookup started from (null: no snapshot)
     */
    private void commitChecked(
            Table current,
            SnapshotUpdate<?> update,
            IcebergCommittable committable,
            Snapshot checkedHead) {
        ProgressCheckedOperations checked = ProgressCheckedOperations.of(current);
        if (checked == null) {
            update.commit();
            return;
        }
        checked.expect(
                committable,
                settings.branch(),
                checkedHead == null ? -1L : checkedHead.snapshotId());
        try {
            update.commit();
        } finally {
            checked.clear();
        }
    }

    private boolean needsSnapshotWhenEmpty(
            Table current, IcebergCommittable committable, CommitProgress progress) {
        if (settings.mode() == CommitMode.STATIC_OVERWRITE && !progress.found()) {
            return true;
        }
        int maxEmpty =
                PropertyUtil.propertyAsInt(
                        current.properties(),
                        MAX_CONTINUOUS_EMPTY_COMMITS,
                        CommitterSettings.DEFAULT_MAX_CONTINUOUS_EMPTY_COMMITS);
        return maxEmpty > 0
                && !committable.endOfInput()
                && continuousEmptyCheckpoints + 1 >= maxEmpty;
    }

    private SnapshotUpdate<?> prepare(
            Table current, IcebergCommittable committable, Snapshot head) {
        List<DataFile> dataFiles = new ArrayList<>();
        List<DeleteFile> deleteFiles = new ArrayList<>();
        List<DeleteFile> rewrittenDeletes = new ArrayList<>();
        try {
            for (ManifestFile manifest : committable.dataManifests()) {
                dataFiles.addAll(TemporaryManifests.readDataFiles(current, manifest));
            }
            for (ManifestFile manifest : committable.deleteManifests()) {
                deleteFiles.addAll(TemporaryManifests.readDeleteFiles(current, manifest));
            }
            for (ManifestFile manifest : committable.rewrittenDeleteManifests()) {
                rewrittenDeletes.addAll(TemporaryManifests.readDeleteFiles(current, manifest));
            }
        } catch (RuntimeException e) {
            List<String> missing = TemporaryManifests.missing(current.io(), committable);
            if (!missing.isEmpty()) {
                throw new CommitProgressLostException(
                        committable, current.name(), settings.branch(), missing, e);
            }
            throw e;
        }
        CommitMode mode = settings.mode();
        if (mode != CommitMode.ROW_DELTA
                && (!deleteFiles.isEmpty() || !rewrittenDeletes.isEmpty())) {
            throw new UncommittableException(
                    "Commit mode "
                            + mode
                            + " cannot commit delete files, but checkpoint "
                            + committable.checkpointId()
                            + " has "
                            + (deleteFiles.size() + rewrittenDeletes.size())
                            + "; delete files need ROW_DELTA (upsert or changelog input)");
        }
        switch (mode) {
            case APPEND:
                {
                    AppendFiles append = current.newFastAppend();
                    dataFiles.forEach(append::appendFile);
                    return append;
                }
            case DYNAMIC_OVERWRITE:
                {
                    if (dataFiles.isEmpty()) {
                        return current.newFastAppend();
                    }
                    ReplacePartitions replace = current.newReplacePartitions();
                    dataFiles.forEach(replace::addFile);
                    return replace;
                }
            case STATIC_OVERWRITE:
                {
                    OverwriteFiles overwrite =
                            current.newOverwrite()
                                    .overwriteByRowFilter(settings.staticOverwriteFilter());
                    dataFiles.forEach(overwrite::addFile);
                    return overwrite;
                }
            case ROW_DELTA:
                {
                    if (deleteFiles.isEmpty() && rewrittenDeletes.isEmpty()) {
                        // insert-only checkpoint: nothing to validate, so a fast append (no
                        // manifest merging; the snapshot is an 'append' for streaming readers)
                        AppendFiles append = current.newFastAppend();
                        dataFiles.forEach(append::appendFile);
                        return append;
                    }
                    RowDelta delta = current.newRowDelta();
                    dataFiles.forEach(delta::addRows);
                    deleteFiles.forEach(delta::addDeletes);
                    rewrittenDeletes.forEach(delta::removeDeletes);
                    if (!committable.referencedDataFiles().isEmpty()) {
                        if (head != null) {
                            delta.validateFromSnapshot(head.snapshotId());
                        }
                        delta.validateDataFilesExist(committable.referencedDataFiles());
                        delta.validateDeletedFiles();
                    }
                    return delta;
                }
            default:
                throw new IllegalStateException("Unknown commit mode " + mode);
        }
    }

    private static void deleteManifests(Table current, IcebergCommittable committable) {
        List<String> failed = TemporaryManifests.delete(current.io(), committable.allManifests());
        if (!failed.isEmpty()) {
            LOG.warn(
                    "Could not delete temporary manifests {} of {}; they are unreferenced and"
                            + " may be removed as orphan files",
                    failed,
                    committable);
        }
    }

    private Table table() {
        if (table == null) {
            table = ProgressCheckedOperations.wrap(tableLoader.loadTable());
        }
        return table;
    }

    /** The committer's metrics (tests). */
    CommitterMetrics metrics() {
        return metrics;
    }

    @Override
    public void close() throws Exception {
        tableLoader.close();
    }
}
