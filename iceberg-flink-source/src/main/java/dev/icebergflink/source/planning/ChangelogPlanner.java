package dev.icebergflink.source.planning;

import dev.icebergflink.source.config.ScanContext;
import dev.icebergflink.source.split.IcebergSourceSplit;
import dev.icebergflink.tasks.changelog.ChangeFileScanTask;
import dev.icebergflink.tasks.changelog.ChangeType;
import dev.icebergflink.tasks.codec.RestoredFileScanTask;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.BaseCombinedScanTask;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.iceberg.util.StructLikeWrapper;

/**
 * Plans the changes of snapshots as source splits, one split per snapshot that changed rows: the
 * rows of data files the snapshot removed ({@link ChangeType#DELETED_FILE}), the rows its new
 * delete files delete from data files that stay ({@link ChangeType#DELETED_ROWS}), and the rows it
 * added ({@link ChangeType#ADDED_ROWS}), in that order, each group by file location.
 *
 * <p>It exists because Iceberg's own changelog scan refuses tables with delete files, which every
 * upsert table has. The changes are found from the snapshot's added and removed files and the
 * delete index of Iceberg's table scans: a scan of the snapshot tells which data files its new
 * deletes apply to (by partition, sequence number and the deletes' column bounds) and which deletes
 * its added files carry, and {@link EqualityKeyPruning} drops the data files no key of a new
 * equality delete can lie in; a scan of the parent tells which deletes a removed data file had. The
 * deletes a file had before the snapshot are its deletes in the snapshot less the snapshot's new
 * ones, plus the ones the snapshot removed that applied to it (a deletion vector the snapshot
 * replaced, for one).
 *
 * <p>{@code replace} snapshots (compaction, equality deletes turned into position deletes) change
 * no rows and give no split. A snapshot that removes data files whose parent has expired cannot be
 * planned and fails with {@link UnrecoverablePlanningException}.
 */
@Internal
public final class ChangelogPlanner {

    private static final Comparator<FileScanTask> BY_LOCATION =
            Comparator.comparing(task -> task.file().location());

    private final Table table;
    private final ScanContext context;
    private final ExecutorService workerPool;
    private final EqualityKeyPruning keyPruning;

    /**
     * @param workerPool the pool Iceberg plans with, or {@code null} for its shared one
     */
    public ChangelogPlanner(Table table, ScanContext context, ExecutorService workerPool) {
        this.table = table;
        this.context = context;
        this.workerPool = workerPool;
        this.keyPruning = new EqualityKeyPruning(table);
    }

    /**
     * The changes of the snapshots of {@code to}'s ancestry after {@code fromExclusive} (from the
     * oldest ancestor when {@code null}) up to {@code to}, oldest first.
     *
     * @throws IllegalArgumentException when {@code fromExclusive} is not an ancestor of {@code to}
     */
    public List<IcebergSourceSplit> planRange(Long fromExclusive, Snapshot to) {
        List<Snapshot> newestFirst = new ArrayList<>();
        boolean reached = fromExclusive == null;
        for (Snapshot snapshot : SnapshotUtil.ancestorsOf(to.snapshotId(), table::snapshot)) {
            if (fromExclusive != null && snapshot.snapshotId() == fromExclusive) {
                reached = true;
                break;
            }
            newestFirst.add(snapshot);
        }
        if (!reached) {
            throw new IllegalArgumentException(
                    String.format(
                            "Start snapshot %d of the changelog read is not an ancestor of its end"
                                    + " snapshot %d in %s",
                            fromExclusive, to.snapshotId(), table));
        }
        Collections.reverse(newestFirst);
        return planSnapshots(newestFirst);
    }

    /** The changes of {@code snapshots}, in the given order. */
    public List<IcebergSourceSplit> planSnapshots(List<Snapshot> snapshots) {
        List<IcebergSourceSplit> splits = new ArrayList<>();
        for (Snapshot snapshot : snapshots) {
            planSnapshot(snapshot).ifPresent(splits::add);
        }
        return splits;
    }

    /** The changes of one snapshot as one split, or nothing when it changed no rows. */
    public Optional<IcebergSourceSplit> planSnapshot(Snapshot snapshot) {
        if (DataOperations.REPLACE.equals(snapshot.operation())) {
            return Optional.empty();
        }
        FileIO io = table.io();
        long id = snapshot.snapshotId();
        long committedAt = snapshot.timestampMillis();
        Set<String> addedData = locations(snapshot.addedDataFiles(io));
        List<DataFile> removedData = list(snapshot.removedDataFiles(io));
        List<DeleteFile> newDeletes = list(snapshot.addedDeleteFiles(io));
        Set<String> addedDeletes = locations(newDeletes);
        List<DeleteFile> removedDeletes = list(snapshot.removedDeleteFiles(io));
        Schema schema = schemaOf(snapshot);

        List<FileScanTask> removedFiles = new ArrayList<>();
        if (!removedData.isEmpty()) {
            Set<String> removed = locations(removedData);
            forEachFile(
                    parentOf(snapshot, removedData.size()),
                    Set.of(),
                    task -> {
                        if (removed.contains(task.file().location())) {
                            removedFiles.add(
                                    new ChangeFileScanTask(
                                            restore(task, task.deletes(), schema),
                                            ChangeType.DELETED_FILE,
                                            id,
                                            committedAt,
                                            List.of()));
                        }
                    });
        }
        List<FileScanTask> deletedRows = new ArrayList<>();
        List<FileScanTask> addedRows = new ArrayList<>();
        // the key columns' bounds let the key pruning skip data files; planned for it alone
        Set<String> keyColumns = context.includeColumnStats() ? Set.of() : keyColumns(newDeletes);
        if (!addedData.isEmpty() || !addedDeletes.isEmpty()) {
            forEachFile(
                    id,
                    keyColumns,
                    task -> {
                        ChangeFileScanTask change =
                                change(
                                        task,
                                        snapshot,
                                        schema,
                                        addedData,
                                        addedDeletes,
                                        removedDeletes);
                        if (change != null) {
                            (change.type() == ChangeType.ADDED_ROWS ? addedRows : deletedRows)
                                    .add(change);
                        }
                    });
        }
        List<FileScanTask> changes = new ArrayList<>();
        List<FileScanTask> removedRows = keyPruning.prune(deletedRows, schema);
        for (List<FileScanTask> group : List.of(removedFiles, removedRows, addedRows)) {
            group.sort(BY_LOCATION);
            for (FileScanTask change : group) {
                changes.add(keyColumns.isEmpty() ? change : withoutStats(change));
            }
        }
        if (changes.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(
                IcebergSourceSplit.fromCombinedScanTask(new BaseCombinedScanTask(changes)));
    }

    /**
     * The change a file task of the snapshot holds: its rows when the snapshot added the file, the
     * rows the snapshot's new deletes remove when some apply to it, else none.
     */
    private ChangeFileScanTask change(
            FileScanTask task,
            Snapshot snapshot,
            Schema schema,
            Set<String> addedData,
            Set<String> addedDeletes,
            List<DeleteFile> removedDeletes) {
        if (addedData.contains(task.file().location())) {
            return new ChangeFileScanTask(
                    restore(task, task.deletes(), schema),
                    ChangeType.ADDED_ROWS,
                    snapshot.snapshotId(),
                    snapshot.timestampMillis(),
                    List.of());
        }
        List<DeleteFile> added = new ArrayList<>();
        List<DeleteFile> before = new ArrayList<>();
        for (DeleteFile delete : task.deletes()) {
            (addedDeletes.contains(delete.location()) ? added : before).add(delete);
        }
        if (added.isEmpty()) {
            return null;
        }
        for (DeleteFile delete : removedDeletes) {
            if (appliesTo(delete, task)) {
                before.add(delete);
            }
        }
        return new ChangeFileScanTask(
                restore(task, before, schema),
                ChangeType.DELETED_ROWS,
                snapshot.snapshotId(),
                snapshot.timestampMillis(),
                added);
    }

    /** The parent of a snapshot that removes data files; its deletes are needed to read them. */
    private long parentOf(Snapshot snapshot, int removedFiles) {
        Long parentId = snapshot.parentId();
        if (parentId == null || table.snapshot(parentId) == null) {
            throw new UnrecoverablePlanningException(
                    String.format(
                            "Cannot compute the changes of snapshot %d of %s: it removes %d data"
                                    + " file(s) and its parent snapshot %s has expired, so the"
                                    + " rows those files held cannot be told. Start the changelog"
                                    + " read from a later snapshot ('start-snapshot-id').",
                            snapshot.snapshotId(),
                            table,
                            removedFiles,
                            parentId == null ? "(none)" : parentId.toString()));
        }
        return parentId;
    }

    /**
     * Every file task (whole files) of a snapshot, with the read's filters, one by one; the data
     * files carry the bounds of {@code statsColumns} when that is not empty.
     */
    private void forEachFile(
            long snapshotId, Set<String> statsColumns, Consumer<FileScanTask> action) {
        TableScan scan =
                ScanSettings.apply(
                        table.newScan().useSnapshot(snapshotId),
                        context,
                        workerPool,
                        context.splitSize());
        if (!statsColumns.isEmpty()) {
            scan = scan.includeColumnStats(statsColumns);
        }
        try (CloseableIterable<FileScanTask> files = scan.planFiles()) {
            files.forEach(action);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot close the planning of snapshot " + snapshotId + " of " + table, e);
        }
    }

    /**
     * Whether a delete file the snapshot removed applied to a task's data file before it: the rules
     * of Iceberg's delete index, by referenced file, partition and sequence number. A position
     * delete file for many data files is taken when it may apply (its rows name their data file, so
     * one that does not is harmless); an equality delete file only when it applies.
     */
    private boolean appliesTo(DeleteFile delete, FileScanTask task) {
        DataFile file = task.file();
        long deleteSequence = sequence(delete);
        long dataSequence = sequence(file);
        if (delete.content() == FileContent.POSITION_DELETES) {
            String referenced = delete.referencedDataFile();
            if (referenced != null) {
                return referenced.equals(file.location());
            }
            return deleteSequence >= dataSequence && samePartition(delete, file);
        }
        PartitionSpec deleteSpec = table.specs().get(delete.specId());
        return deleteSequence > dataSequence
                && (deleteSpec.isUnpartitioned() || samePartition(delete, file));
    }

    private boolean samePartition(DeleteFile delete, DataFile file) {
        if (delete.specId() != file.specId()) {
            return false;
        }
        StructLikeWrapper wrapper =
                StructLikeWrapper.forType(table.specs().get(file.specId()).partitionType());
        return wrapper.copyFor(delete.partition()).equals(wrapper.copyFor(file.partition()));
    }

    private static long sequence(ContentFile<?> file) {
        Long sequence = file.dataSequenceNumber();
        return sequence == null ? 0L : sequence;
    }

    /** The names of the columns the equality deletes among {@code deletes} compare. */
    private Set<String> keyColumns(List<DeleteFile> deletes) {
        Set<String> columns = new HashSet<>();
        for (DeleteFile delete : deletes) {
            if (delete.content() == FileContent.EQUALITY_DELETES) {
                for (int id : delete.equalityFieldIds()) {
                    String name = table.schema().findColumnName(id);
                    if (name != null) {
                        columns.add(name);
                    }
                }
            }
        }
        return columns;
    }

    /** A change whose data file had column stats planned for the key pruning only, without them. */
    private static FileScanTask withoutStats(FileScanTask task) {
        ChangeFileScanTask change = (ChangeFileScanTask) task;
        FileScanTask rows = change.rows();
        return new ChangeFileScanTask(
                new RestoredFileScanTask(
                        rows.file().copyWithoutStats(),
                        rows.deletes(),
                        rows.schema(),
                        rows.spec(),
                        rows.residual(),
                        rows.start(),
                        rows.length()),
                change.type(),
                change.commitSnapshotId(),
                change.commitTimestampMillis(),
                change.addedDeletes());
    }

    /** The task over the whole file with chosen deletes and the snapshot's schema. */
    private static FileScanTask restore(
            FileScanTask task, List<DeleteFile> deletes, Schema schema) {
        return new RestoredFileScanTask(
                task.file(),
                deletes,
                schema,
                task.spec(),
                task.residual(),
                0L,
                task.file().fileSizeInBytes());
    }

    private Schema schemaOf(Snapshot snapshot) {
        Integer schemaId = snapshot.schemaId();
        Schema schema = schemaId == null ? null : table.schemas().get(schemaId);
        return schema == null ? table.schema() : schema;
    }

    private static Set<String> locations(Iterable<? extends ContentFile<?>> files) {
        Set<String> locations = new HashSet<>();
        files.forEach(file -> locations.add(file.location()));
        return locations;
    }

    private static <F> List<F> list(Iterable<F> files) {
        List<F> list = new ArrayList<>();
        files.forEach(list::add);
        return list;
    }
}
