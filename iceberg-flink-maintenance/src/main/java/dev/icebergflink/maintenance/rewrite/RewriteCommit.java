package dev.icebergflink.maintenance.rewrite;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.task.TaskFinisher;
import dev.icebergflink.maintenance.task.TaskTables;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.util.DataFileSet;
import org.apache.iceberg.util.DeleteFileSet;

/**
 * The committing step of the streaming rewrite: once every unit is rewritten, replaces the planned
 * files with the written ones in {@link RewriteCommitter} commits to the rewritten branch, each
 * validated against everything committed to it since planning. New files take the starting
 * snapshot's sequence number, so equality deletes committed meanwhile still apply to them.
 *
 * <p>Without partial progress the whole run is ONE commit: a lost race (a concurrent delete of a
 * rewritten file) gives the run up, the table is unchanged, the new files are deleted, and the next
 * run plans again.
 *
 * <p>With partial progress the run's file groups are spread round-robin over up to {@code
 * maxCommits} commits (group {@code g} goes to commit {@code g % commits}, so that the largest
 * groups, planned first, land in different commits). Each commit stands alone: a lost race loses
 * only its own groups (their new files deleted) while the other commits land. The run then reports
 * what landed and fails naming the lost groups.
 */
@Internal
public final class RewriteCommit implements TaskFinisher {

    private static final long serialVersionUID = 1L;

    private final TableLoader loader;
    private final String branch;
    private final boolean partialProgress;
    private final int maxCommits;

    private transient Table table;

    /** Commits each run to the main branch in one commit. */
    public RewriteCommit(TableLoader loader) {
        this(loader, null, false, 1);
    }

    /**
     * @param loader the table
     * @param branch the branch to commit to; null for the main branch
     * @param partialProgress whether to commit the file groups in several independent commits
     * @param maxCommits the most commits one run makes with partial progress
     */
    public RewriteCommit(
            TableLoader loader, String branch, boolean partialProgress, int maxCommits) {
        if (maxCommits <= 0) {
            throw new IllegalArgumentException("maxCommits must be positive, got " + maxCommits);
        }
        this.loader = loader;
        this.branch = branch;
        this.partialProgress = partialProgress;
        this.maxCommits = maxCommits;
    }

    @Override
    public void open() {
        loader.open();
    }

    @Override
    public Outcome finish(byte[] header, List<byte[]> results) throws Exception {
        table = TaskTables.current(loader, table);
        RewriteHeader plan = header(header);
        Map<Integer, List<DataFile>> writtenByGroup = writtenFiles(results);
        List<DataFile> written = new ArrayList<>();
        writtenByGroup.values().forEach(written::addAll);
        if (plan.rewrittenDataFiles().isEmpty()) {
            RewriteCommitter.deleteQuietly(table, written, new IllegalStateException());
            return new Outcome(0L, 0L);
        }
        Snapshot start = table.snapshot(plan.startingSnapshotId());
        if (start == null) {
            ValidationException expired =
                    new ValidationException(
                            "Cannot commit the rewrite of table %s: its starting snapshot %d was"
                                    + " expired meanwhile",
                            table.name(), plan.startingSnapshotId());
            RewriteCommitter.deleteQuietly(table, written, expired);
            throw expired;
        }
        if (branch != null
                && !SnapshotRef.MAIN_BRANCH.equals(branch)
                && table.refs().get(branch) == null) {
            ValidationException removed =
                    new ValidationException(
                            "Cannot commit the rewrite of branch '%s' of table %s: the branch was"
                                    + " removed meanwhile",
                            branch, table.name());
            RewriteCommitter.deleteQuietly(table, written, removed);
            throw removed;
        }
        for (Integer group : writtenByGroup.keySet()) {
            if (group >= plan.groupCount()) {
                IllegalStateException unknown =
                        new IllegalStateException(
                                "A rewritten unit names file group "
                                        + group
                                        + " of a plan with "
                                        + plan.groupCount()
                                        + " groups");
                RewriteCommitter.deleteQuietly(table, written, unknown);
                throw unknown;
            }
        }
        RewriteCommitter committer = new RewriteCommitter(table, true, null, branch);
        if (!partialProgress) {
            PlannedRewrite planned = planned(start, plan.groups(), plan.groupCount());
            committer.commit(planned, written);
            return new Outcome(
                    written.size(),
                    (long) planned.rewrittenDataFiles().size()
                            + planned.danglingDeleteFiles().size());
        }
        return commitInParts(committer, start, plan, writtenByGroup);
    }

    private Outcome commitInParts(
            RewriteCommitter committer,
            Snapshot start,
            RewriteHeader plan,
            Map<Integer, List<DataFile>> writtenByGroup) {
        int commits = Math.min(maxCommits, plan.groupCount());
        long added = 0L;
        long removed = 0L;
        List<Integer> lost = new ArrayList<>();
        List<Integer> unknown = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (int commit = 0; commit < commits; commit++) {
            List<Integer> indexes = new ArrayList<>();
            List<RewriteHeader.Group> groups = new ArrayList<>();
            List<DataFile> written = new ArrayList<>();
            for (int group = commit; group < plan.groupCount(); group += commits) {
                indexes.add(group);
                groups.add(plan.groups().get(group));
                written.addAll(writtenByGroup.getOrDefault(group, List.of()));
            }
            PlannedRewrite planned = planned(start, groups, groups.size());
            try {
                committer.commit(planned, written);
                added += written.size();
                removed +=
                        (long) planned.rewrittenDataFiles().size()
                                + planned.danglingDeleteFiles().size();
            } catch (CommitStateUnknownException e) {
                // the commit may have landed: its files are kept, and the groups named
                unknown.addAll(indexes);
                failures.add(e.getClass().getSimpleName() + ": " + e.getMessage());
            } catch (ValidationException | CommitFailedException e) {
                // the committer deleted the commit's new files; the table has none of its groups
                lost.addAll(indexes);
                failures.add(e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
        if (lost.isEmpty() && unknown.isEmpty()) {
            return new Outcome(added, removed);
        }
        StringBuilder error = new StringBuilder();
        error.append(
                String.format(
                        "The rewrite of table %s%s committed %d of its %d file groups in %d"
                                + " commits",
                        table.name(),
                        branch == null ? "" : " (branch '" + branch + "')",
                        plan.groupCount() - lost.size() - unknown.size(),
                        plan.groupCount(),
                        commits));
        if (!lost.isEmpty()) {
            error.append("; lost ")
                    .append(lost.size())
                    .append(" file groups to conflicts, their new files deleted: ")
                    .append(describe(plan, lost));
        }
        if (!unknown.isEmpty()) {
            error.append("; the commit of ")
                    .append(unknown.size())
                    .append(" file groups has an unknown outcome, their new files kept: ")
                    .append(describe(plan, unknown));
        }
        error.append(". ").append(String.join("; ", failures));
        return new Outcome(added, removed, error.toString());
    }

    /** "group 1 (part=p1), group 3 (part=p3)": the groups by index and partition. */
    private String describe(RewriteHeader plan, List<Integer> groups) {
        List<String> names = new ArrayList<>();
        for (int group : groups) {
            List<DataFile> files = plan.groups().get(group).rewrittenDataFiles();
            String partition = "";
            if (!files.isEmpty()) {
                DataFile file = files.get(0);
                PartitionSpec spec = table.specs().get(file.specId());
                if (spec != null && spec.isPartitioned()) {
                    partition = " (" + spec.partitionToPath(file.partition()) + ")";
                }
            }
            names.add("group " + group + partition);
        }
        return String.join(", ", names);
    }

    private static PlannedRewrite planned(
            Snapshot start, List<RewriteHeader.Group> groups, int groupCount) {
        DataFileSet rewritten = DataFileSet.create();
        DeleteFileSet dangling = DeleteFileSet.create();
        for (RewriteHeader.Group group : groups) {
            rewritten.addAll(group.rewrittenDataFiles());
            dangling.addAll(group.danglingDeleteFiles());
        }
        return new PlannedRewrite(start, groupCount, rewritten, dangling, List.of(), 0L, List.of());
    }

    @Override
    public void abandon(byte[] header, List<byte[]> results) throws Exception {
        table = TaskTables.current(loader, table);
        List<DataFile> written = new ArrayList<>();
        writtenFiles(results).values().forEach(written::addAll);
        RewriteCommitter.deleteQuietly(table, written, new IllegalStateException("abandoned"));
    }

    private RewriteHeader header(byte[] bytes) throws IOException {
        return SimpleVersionedSerialization.readVersionAndDeSerialize(
                new RewriteHeaderSerializer(table.specs()), bytes);
    }

    /** The written files by file group index. */
    private Map<Integer, List<DataFile>> writtenFiles(List<byte[]> results) throws IOException {
        RewriteResultSerializer serializer = new RewriteResultSerializer(table.specs());
        Map<Integer, List<DataFile>> written = new TreeMap<>();
        for (byte[] bytes : results) {
            RewriteResultSerializer.Result result =
                    SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, bytes);
            written.computeIfAbsent(result.group(), group -> new ArrayList<>())
                    .addAll(result.files());
        }
        return written;
    }
}
