package dev.icebergflink.maintenance.eqdelete;

import dev.icebergflink.tasks.codec.RestoredFileScanTask;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.Projections;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Plans the conversion of a table's live equality deletes into position deletes, from the table's
 * current snapshot, reading manifests only.
 *
 * <p>The live equality delete files are listed from the delete manifests and grouped by {@link
 * DeleteScope} (their partition, or the whole table for deletes of an unpartitioned spec). Which
 * data files each delete applies to is left to Iceberg's own scan planning, whose delete index
 * implements the spec's rules: same scope, and a data sequence number strictly below the delete's
 * (plus pruning by column bounds). A group's cost is the size of its delete files and of the data
 * files they apply to; the largest groups that fit in {@code maxRewriteBytes} are taken, the others
 * stay for a later run. A group whose deletes apply to no data file costs only its deletes and is
 * removed without any scan.
 *
 * <p>The data files of the taken groups are then cut into {@link ConversionUnit}s per data
 * partition of about {@code unitBytes}; each unit carries the taken equality deletes that apply to
 * any of its files. Every delete of a unit applies to every file of the unit by scope, so workers
 * only compare sequence numbers.
 */
@Internal
public final class EqualityDeletePlanner {

    private final Table table;
    private final Expression filter;
    private final boolean caseSensitive;
    private final long maxRewriteBytes;
    private final long unitBytes;

    /**
     * @param table the table, refreshed by the caller
     * @param filter only equality deletes of partitions that may hold matching rows are converted;
     *     deletes of an unpartitioned spec (which apply to the whole table) only without a filter
     * @param caseSensitive whether the filter's column names are case-sensitive
     * @param maxRewriteBytes the most bytes (delete and data files) one run reads
     * @param unitBytes the data bytes of one work unit (at least one file per unit)
     */
    public EqualityDeletePlanner(
            Table table,
            Expression filter,
            boolean caseSensitive,
            long maxRewriteBytes,
            long unitBytes) {
        this.table = Objects.requireNonNull(table, "table");
        this.filter = Objects.requireNonNull(filter, "filter");
        this.caseSensitive = caseSensitive;
        if (maxRewriteBytes <= 0 || unitBytes <= 0) {
            throw new IllegalArgumentException(
                    "maxRewriteBytes and unitBytes must be positive, got "
                            + maxRewriteBytes
                            + " and "
                            + unitBytes);
        }
        this.maxRewriteBytes = maxRewriteBytes;
        this.unitBytes = unitBytes;
    }

    /** Plans a run on the table's current snapshot. */
    public PlannedConversion plan() {
        Snapshot start = table.currentSnapshot();
        if (start == null) {
            return PlannedConversion.nothing(null);
        }
        Map<DeleteScope, Group> groups = new LinkedHashMap<>();
        Map<String, Group> groupOfDelete = new HashMap<>();
        for (DeleteFile delete : liveEqualityDeletes(start)) {
            DeleteScope scope = DeleteScope.of(delete, table.specs());
            if (!selectedByFilter(scope, delete)) {
                continue;
            }
            Group group = groups.computeIfAbsent(scope, Group::new);
            group.deletes.add(delete);
            group.bytes += delete.fileSizeInBytes();
            groupOfDelete.put(delete.location(), group);
        }
        if (groups.isEmpty()) {
            return PlannedConversion.nothing(start);
        }

        List<Candidate> candidates = candidates(start, groupOfDelete);
        Set<Group> taken = take(groups.values());
        List<DeleteFile> removed = new ArrayList<>();
        taken.forEach(group -> removed.addAll(group.deletes));
        return new PlannedConversion(start, removed, units(candidates, taken, groupOfDelete));
    }

    /** The live equality delete files of {@code snapshot}, with their data sequence numbers. */
    private List<DeleteFile> liveEqualityDeletes(Snapshot snapshot) {
        List<DeleteFile> deletes = new ArrayList<>();
        for (ManifestFile manifest : snapshot.deleteManifests(table.io())) {
            if (!manifest.hasAddedFiles() && !manifest.hasExistingFiles()) {
                continue;
            }
            try (ManifestReader<DeleteFile> reader =
                    ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
                for (DeleteFile file : reader) {
                    if (file.content() == FileContent.EQUALITY_DELETES) {
                        deletes.add(file.copy());
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read delete manifest " + manifest.path(), e);
            }
        }
        return deletes;
    }

    private boolean selectedByFilter(DeleteScope scope, DeleteFile delete) {
        if (filter.op() == Expression.Operation.TRUE) {
            return true;
        }
        if (scope.isGlobal()) {
            return false;
        }
        PartitionSpec spec = table.specs().get(delete.specId());
        Expression projected = Projections.inclusive(spec, caseSensitive).project(filter);
        return new Evaluator(spec.partitionType(), projected, caseSensitive)
                .eval(delete.partition());
    }

    /**
     * The data files to which at least one planned delete applies, per Iceberg's scan of the
     * snapshot; adds each file's size to the cost of every group with a delete that applies to it.
     */
    private List<Candidate> candidates(Snapshot start, Map<String, Group> groupOfDelete) {
        List<Candidate> candidates = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks =
                table.newScan()
                        .useSnapshot(start.snapshotId())
                        .filter(Expressions.alwaysTrue())
                        .planFiles()) {
            for (FileScanTask task : tasks) {
                Set<Group> touched = new LinkedHashSet<>();
                List<DeleteFile> equality = new ArrayList<>();
                List<DeleteFile> positional = new ArrayList<>();
                for (DeleteFile delete : task.deletes()) {
                    if (delete.content() == FileContent.POSITION_DELETES) {
                        positional.add(delete);
                        continue;
                    }
                    Group group = groupOfDelete.get(delete.location());
                    if (group != null) {
                        touched.add(group);
                        equality.add(delete);
                    }
                }
                if (touched.isEmpty()) {
                    continue;
                }
                for (Group group : touched) {
                    group.bytes += task.file().fileSizeInBytes();
                }
                candidates.add(new Candidate(task, equality, positional));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot plan the scan of " + table.name(), e);
        }
        return candidates;
    }

    /** The largest groups that fit in the byte budget together. */
    private Set<Group> take(Iterable<Group> groups) {
        List<Group> bySize = new ArrayList<>();
        groups.forEach(bySize::add);
        bySize.sort(Comparator.comparingLong((Group group) -> group.bytes).reversed());
        Set<Group> taken = new LinkedHashSet<>();
        long planned = 0L;
        for (Group group : bySize) {
            if (group.bytes <= maxRewriteBytes - planned) {
                planned += group.bytes;
                taken.add(group);
            }
        }
        return taken;
    }

    /** The candidates with a delete of a taken group, per data partition, cut by size. */
    private List<ConversionUnit> units(
            List<Candidate> candidates, Set<Group> taken, Map<String, Group> groupOfDelete) {
        Map<DeleteScope, List<Candidate>> byPartition = new LinkedHashMap<>();
        for (Candidate candidate : candidates) {
            List<DeleteFile> applying = new ArrayList<>();
            for (DeleteFile delete : candidate.equalityDeletes) {
                if (taken.contains(groupOfDelete.get(delete.location()))) {
                    applying.add(delete);
                }
            }
            if (!applying.isEmpty()) {
                byPartition
                        .computeIfAbsent(
                                DeleteScope.partitionOf(candidate.task.file(), table.specs()),
                                scope -> new ArrayList<>())
                        .add(new Candidate(candidate.task, applying, candidate.positionDeletes));
            }
        }
        List<ConversionUnit> units = new ArrayList<>();
        for (List<Candidate> partition : byPartition.values()) {
            partition.sort(Comparator.comparing(candidate -> candidate.task.file().location()));
            List<Candidate> unit = new ArrayList<>();
            long bytes = 0L;
            for (Candidate candidate : partition) {
                long size = candidate.task.file().fileSizeInBytes();
                if (!unit.isEmpty() && bytes + size > unitBytes) {
                    units.add(unit(unit));
                    unit = new ArrayList<>();
                    bytes = 0L;
                }
                unit.add(candidate);
                bytes += size;
            }
            if (!unit.isEmpty()) {
                units.add(unit(unit));
            }
        }
        return units;
    }

    private static ConversionUnit unit(List<Candidate> candidates) {
        Map<String, DeleteFile> deletes = new LinkedHashMap<>();
        List<FileScanTask> files = new ArrayList<>(candidates.size());
        for (Candidate candidate : candidates) {
            candidate.equalityDeletes.forEach(
                    delete -> deletes.putIfAbsent(delete.location(), delete));
            FileScanTask task = candidate.task;
            files.add(
                    new RestoredFileScanTask(
                            task.file(),
                            candidate.positionDeletes,
                            task.schema(),
                            task.spec(),
                            Expressions.alwaysTrue(),
                            0L,
                            task.file().fileSizeInBytes()));
        }
        return new ConversionUnit(List.copyOf(deletes.values()), files);
    }

    /** The equality deletes of one scope and what converting them costs. */
    private static final class Group {
        final DeleteScope scope;
        final List<DeleteFile> deletes = new ArrayList<>();
        long bytes;

        Group(DeleteScope scope) {
            this.scope = scope;
        }

        @Override
        public String toString() {
            return scope + ": " + deletes.size() + " deletes, " + bytes + " bytes";
        }
    }

    /** A data file to scan: its task, the planned equality deletes and the positional deletes. */
    private record Candidate(
            FileScanTask task,
            List<DeleteFile> equalityDeletes,
            List<DeleteFile> positionDeletes) {}
}
