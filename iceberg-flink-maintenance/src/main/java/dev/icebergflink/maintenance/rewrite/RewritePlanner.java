package dev.icebergflink.maintenance.rewrite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.CombinedScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.RewriteJobOrder;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.actions.BinPackRewriteFilePlanner;
import org.apache.iceberg.actions.FileRewritePlan;
import org.apache.iceberg.actions.RewriteDataFiles;
import org.apache.iceberg.actions.RewriteFileGroup;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.DataFileSet;
import org.apache.iceberg.util.DeleteFileSet;
import org.apache.iceberg.util.TableScanUtil;

/**
 * Plans a data-file rewrite with Iceberg's own {@link BinPackRewriteFilePlanner}: it selects the
 * files outside the desired size range (or with too many deletes) in the head snapshot of a branch
 * (main by default), groups them per partition of the current spec and bin-packs each partition
 * into groups by size; a group is kept when it has enough input files, enough content or too much
 * content (Iceberg's {@code min-input-files} rules).
 *
 * <p>Each group is then cut into work units of about the group's input split size (so that one unit
 * writes about one output file), with Iceberg's {@link TableScanUtil}: large files are split into
 * byte ranges and small ones combined, each file weighing at least the open-file cost.
 *
 * <p>Planning reads the table's manifests only; it writes nothing.
 */
@Internal
public final class RewritePlanner {

    /** Bin-packing lookback when combining files into work units, as Iceberg's default. */
    private static final int LOOKBACK = 10;

    /** Options that this rewrite does not support, with the reason. */
    private static final Map<String, String> UNSUPPORTED =
            Map.of(
                    RewriteDataFiles.OUTPUT_SPEC_ID,
                    "output files are always written with the table's current partition spec");

    private final Table table;
    private final Expression filter;
    private final boolean caseSensitive;
    private final long openFileCost;
    private final Map<String, String> options;

    /**
     * @param table the table, refreshed by the caller
     * @param filter which rows' files to consider (whole files are rewritten)
     * @param caseSensitive whether the filter's column names are case-sensitive
     * @param openFileCost the minimum weight of a file when combining files into work units
     * @param options Iceberg rewrite options ({@code target-file-size-bytes}, {@code
     *     min-input-files}, ...), validated against the planner's
     */
    public RewritePlanner(
            Table table,
            Expression filter,
            boolean caseSensitive,
            long openFileCost,
            Map<String, String> options) {
        this.table = Objects.requireNonNull(table, "table");
        this.filter = Objects.requireNonNull(filter, "filter");
        this.caseSensitive = caseSensitive;
        if (openFileCost < 0) {
            throw new IllegalArgumentException(
                    "splitOpenFileCost must not be negative, got " + openFileCost);
        }
        this.openFileCost = openFileCost;
        this.options = new HashMap<>(options);
    }

    /** The option keys a rewrite accepts (Iceberg's planner options minus unsupported ones). */
    public static Set<String> validOptions(Table table) {
        Set<String> valid = new TreeSet<>(new BinPackRewriteFilePlanner(table).validOptions());
        valid.removeAll(UNSUPPORTED.keySet());
        return valid;
    }

    /**
     * Plans the rewrite of the table's current snapshot.
     *
     * @throws IllegalArgumentException for an unknown or unsupported option, or a bad value
     */
    public PlannedRewrite plan() {
        return plan(Long.MAX_VALUE);
    }

    /**
     * Plans the rewrite of the table's current snapshot, taking the largest file groups first and
     * leaving out groups that would bring the rewritten bytes above {@code maxRewriteBytes} (they
     * are left for a later rewrite).
     *
     * @throws IllegalArgumentException for an unknown or unsupported option, or a bad value
     */
    public PlannedRewrite plan(long maxRewriteBytes) {
        return plan(null, maxRewriteBytes);
    }

    /**
     * Plans the rewrite of the head of {@code branch} (the main branch when null), taking the
     * largest file groups first and leaving out groups that would bring the rewritten bytes above
     * {@code maxRewriteBytes}.
     *
     * @throws IllegalArgumentException for an unknown branch (or a tag), an unknown or unsupported
     *     option, or a bad value
     */
    public PlannedRewrite plan(String branch, long maxRewriteBytes) {
        Snapshot start = head(table, branch);
        if (start == null) {
            return new PlannedRewrite(null, 0, Set.of(), Set.of(), List.of(), 0L, List.of());
        }
        BinPackRewriteFilePlanner planner =
                new BinPackRewriteFilePlanner(table, filter, start.snapshotId(), caseSensitive);
        validate(planner.validOptions());
        planner.init(options);
        FileRewritePlan<RewriteDataFiles.FileGroupInfo, FileScanTask, DataFile, RewriteFileGroup>
                plan = planner.plan();
        List<RewriteFileGroup> groups = new ArrayList<>();
        try (CloseableIterable<RewriteFileGroup> planned = plan.groups()) {
            planned.forEach(groups::add);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot plan the rewrite of " + table.name(), e);
        }
        groups.sort(RewriteFileGroup.comparator(RewriteJobOrder.BYTES_DESC));

        ReferencedDataFiles referencedFiles = new ReferencedDataFiles(table, start);
        DataFileSet rewritten = DataFileSet.create();
        DeleteFileSet dangling = DeleteFileSet.create();
        List<CombinedScanTask> units = new ArrayList<>();
        List<PlannedRewrite.Group> planned = new ArrayList<>();
        long writeTarget = 0L;
        long plannedBytes = 0L;
        for (RewriteFileGroup group : groups) {
            if (group.inputFilesSizeInBytes() > maxRewriteBytes - plannedBytes) {
                continue;
            }
            plannedBytes += group.inputFilesSizeInBytes();
            DataFileSet groupFiles = DataFileSet.create();
            groupFiles.addAll(group.rewrittenFiles());
            Set<DeleteFile> groupDangling = danglingDeletes(group, referencedFiles);
            List<CombinedScanTask> groupUnits = units(group);
            planned.add(new PlannedRewrite.Group(groupFiles, groupDangling, groupUnits));
            rewritten.addAll(groupFiles);
            dangling.addAll(groupDangling);
            writeTarget = Math.max(writeTarget, group.maxOutputFileSize());
            units.addAll(groupUnits);
        }
        return new PlannedRewrite(
                start, planned.size(), rewritten, dangling, units, writeTarget, planned);
    }

    /**
     * The head snapshot of {@code branch} (the main branch when null or "main"); null when the
     * branch has no snapshot yet.
     *
     * @throws IllegalArgumentException when the table has no such branch, or it names a tag
     */
    public static Snapshot head(Table table, String branch) {
        if (branch == null || SnapshotRef.MAIN_BRANCH.equals(branch)) {
            return table.currentSnapshot();
        }
        SnapshotRef ref = table.refs().get(branch);
        if (ref == null) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot rewrite branch '%s' of table %s: the table has no such branch"
                                    + " (branches: %s)",
                            branch,
                            table.name(),
                            table.refs().entrySet().stream()
                                    .filter(entry -> entry.getValue().isBranch())
                                    .map(Map.Entry::getKey)
                                    .sorted()
                                    .toList()));
        }
        if (!ref.isBranch()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot rewrite '%s' of table %s: it is a tag, not a branch",
                            branch, table.name()));
        }
        return table.snapshot(ref.snapshotId());
    }

    private void validate(Set<String> plannerOptions) {
        for (String key : options.keySet()) {
            if (UNSUPPORTED.containsKey(key)) {
                throw new IllegalArgumentException(
                        String.format(
                                "Rewrite option '%s' is not supported: %s",
                                key, UNSUPPORTED.get(key)));
            }
            if (!plannerOptions.contains(key)) {
                Set<String> valid = new TreeSet<>(plannerOptions);
                valid.removeAll(UNSUPPORTED.keySet());
                throw new IllegalArgumentException(
                        String.format(
                                "Unknown rewrite option '%s'; valid options are %s", key, valid));
            }
        }
    }

    /** The group's file ranges as work units of about the group's input split size. */
    private List<CombinedScanTask> units(RewriteFileGroup group) {
        long splitSize = Math.max(1L, group.inputSplitSize());
        List<CombinedScanTask> units = new ArrayList<>();
        try (CloseableIterable<CombinedScanTask> tasks =
                TableScanUtil.planTasks(
                        TableScanUtil.splitFiles(
                                CloseableIterable.withNoopClose(group.fileScanTasks()), splitSize),
                        splitSize,
                        LOOKBACK,
                        openFileCost)) {
            tasks.forEach(units::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return units;
    }

    /**
     * Position-delete files and deletion vectors of the group that refer to one data file only,
     * when that file is rewritten: once it is gone they delete nothing. Equality deletes and
     * position deletes that span several data files stay.
     */
    static Set<DeleteFile> danglingDeletes(
            RewriteFileGroup group, ReferencedDataFiles referencedFiles) {
        Set<String> rewritten = new java.util.HashSet<>();
        group.rewrittenFiles().forEach(file -> rewritten.add(file.location()));
        DeleteFileSet dangling = DeleteFileSet.create();
        for (FileScanTask task : group.fileScanTasks()) {
            for (DeleteFile delete : task.deletes()) {
                if (delete.content() != FileContent.POSITION_DELETES) {
                    continue;
                }
                String referenced = referencedFiles.of(delete);
                if (referenced != null && rewritten.contains(referenced)) {
                    dangling.add(delete);
                }
            }
        }
        return dangling;
    }
}
