package dev.icebergflink.maintenance.api;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.monitor.TableChangeSource;
import dev.icebergflink.maintenance.task.TaskPlacement;
import dev.icebergflink.maintenance.task.TaskResult;
import dev.icebergflink.maintenance.task.TaskStages;
import dev.icebergflink.maintenance.task.Trigger;
import dev.icebergflink.maintenance.trigger.MaintenanceTopology;
import dev.icebergflink.maintenance.trigger.TaskTrigger;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Keeps an Iceberg table healthy from inside a Flink job: compaction, snapshot expiration and
 * orphan deletion run as Flink operators whenever the table's commits make them due.
 *
 * <pre>{@code
 * TableMaintenance.forTable(env, tableLoader)
 *     .uidSuffix("orders-maintenance")
 *     .rateLimit(Duration.ofMinutes(1))
 *     .add(RewriteDataFiles.builder().scheduleOnCommitCount(10).targetFileSizeBytes(128L << 20))
 *     .add(ExpireSnapshots.builder().scheduleOnInterval(Duration.ofHours(1)).retainLast(100))
 *     .add(DeleteOrphanFiles.builder().scheduleOnInterval(Duration.ofDays(1)))
 *     .append();
 * }</pre>
 *
 * <p>The topology: a monitor (or the user's change stream) reports what commits added; a trigger
 * manager sums it per task and, when a task is due, takes the table's maintenance lock and triggers
 * it; the task plans on one subtask, works on many, and commits on one; the lock remover reports
 * the run in metrics and gives the lock back. One task runs at a time.
 *
 * <p>The lock: without a {@link TriggerLockFactory} it lives in this job's JobManager, which is
 * enough when this topology is the only maintenance of the table. When other jobs maintain the same
 * table, give every one a factory with the same lock id, e.g. {@link JdbcLockFactory}.
 *
 * <p>Failover: a restored topology clears the lock its cut-short run may hold and runs that task
 * again; the new run plans from the table as it is, so nothing committed is done twice. Files
 * written by a cut-short rewrite are not referenced by the table; orphan deletion removes them.
 */
@PublicEvolving
public final class TableMaintenance {

    /** The least time between two task runs, and between two looks at the table, by default. */
    public static final Duration DEFAULT_RATE_LIMIT = Duration.ofMinutes(1);

    /** How long to wait before asking again for a lock another job holds, by default. */
    public static final Duration DEFAULT_LOCK_CHECK_DELAY = Duration.ofSeconds(30);

    /** How many snapshots one look at the table reads at most, by default. */
    public static final int DEFAULT_MAX_READ_BACK = 100;

    private TableMaintenance() {}

    /** Maintenance of {@code loader}'s table, watching its snapshots; the lock is the job's own. */
    public static Builder forTable(StreamExecutionEnvironment env, TableLoader loader) {
        return forTable(env, loader, null);
    }

    /** Maintenance of {@code loader}'s table, watching its snapshots, under a shared lock. */
    public static Builder forTable(
            StreamExecutionEnvironment env, TableLoader loader, TriggerLockFactory lockFactory) {
        Objects.requireNonNull(env, "env");
        return new Builder(env, null, loader, lockFactory);
    }

    /**
     * Maintenance of {@code loader}'s table, triggered by the changes in {@code changes} (for
     * example derived from a writer's commits) instead of by watching the table; the lock is the
     * job's own.
     */
    public static Builder forChangeStream(DataStream<TableChange> changes, TableLoader loader) {
        return forChangeStream(changes, loader, null);
    }

    /** As {@link #forChangeStream(DataStream, TableLoader)}, under a shared lock. */
    public static Builder forChangeStream(
            DataStream<TableChange> changes, TableLoader loader, TriggerLockFactory lockFactory) {
        Objects.requireNonNull(changes, "changes");
        return new Builder(changes.getExecutionEnvironment(), changes, loader, lockFactory);
    }

    /** Builds the maintenance topology; {@link #append()} adds it to the job. */
    @PublicEvolving
    public static final class Builder {

        private final StreamExecutionEnvironment env;
        private final DataStream<TableChange> changes;
        private final TableLoader loader;
        private final TriggerLockFactory lockFactory;
        private final List<MaintenanceTaskBuilder<?>> tasks = new ArrayList<>();
        private String uidSuffix;
        private String slotSharingGroup;
        private Duration rateLimit = DEFAULT_RATE_LIMIT;
        private Duration lockCheckDelay = DEFAULT_LOCK_CHECK_DELAY;
        private Integer parallelism;
        private int maxReadBack = DEFAULT_MAX_READ_BACK;
        private boolean operatorUids = true;

        private Builder(
                StreamExecutionEnvironment env,
                DataStream<TableChange> changes,
                TableLoader loader,
                TriggerLockFactory lockFactory) {
            this.env = env;
            this.changes = changes;
            this.loader = Objects.requireNonNull(loader, "tableLoader");
            this.lockFactory = lockFactory;
        }

        /**
         * The suffix of every operator uid of the topology (default: the table's name). Two
         * topologies in one job need different suffixes; keep it stable to restore from savepoints.
         */
        public Builder uidSuffix(String suffix) {
            this.uidSuffix = suffix;
            return this;
        }

        /** The slot sharing group of the topology's operators (default: Flink's default group). */
        public Builder slotSharingGroup(String group) {
            this.slotSharingGroup = group;
            return this;
        }

        /**
         * The least time between two task runs, and how often the table is looked at (default 1
         * minute).
         */
        public Builder rateLimit(Duration limit) {
            this.rateLimit = limit;
            return this;
        }

        /** How long to wait before asking again for a lock another job holds (default 30 s). */
        public Builder lockCheckDelay(Duration delay) {
            this.lockCheckDelay = delay;
            return this;
        }

        /** The parallelism of the tasks' parallel work (default: the job's parallelism). */
        public Builder parallelism(int parallelism) {
            this.parallelism = parallelism;
            return this;
        }

        /** How many snapshots one look at the table reads at most (default 100). */
        public Builder maxReadBack(int snapshots) {
            this.maxReadBack = snapshots;
            return this;
        }

        /**
         * Whether the topology's operators get uids (default true, so that savepoints map to them
         * whatever else changes in the job). Turn it off only where the job leaves uids to Flink on
         * purpose: inside a sink without a uid suffix, Flink rejects operators with uids.
         */
        public Builder operatorUids(boolean enabled) {
            this.operatorUids = enabled;
            return this;
        }

        /** Adds a task; tasks are kept in this order, which their uids and state depend on. */
        public Builder add(MaintenanceTaskBuilder<?> task) {
            tasks.add(Objects.requireNonNull(task, "task"));
            return this;
        }

        /**
         * Validates the settings and adds the topology to the job.
         *
         * @throws IllegalArgumentException naming the first bad setting
         * @throws IOException if the table cannot be loaded to name the topology
         */
        public void append() throws IOException {
            validate();
            String tableName;
            try (TableLoader naming = loader.clone()) {
                naming.open();
                tableName = naming.loadTable().name();
            }
            String suffix = uidSuffix != null ? uidSuffix : tableName;
            String uidPrefix = "TableMaintenance-" + suffix;
            // Without an explicit parallelism the job's is used; when that is the cluster's
            // default too (not known here), the tasks' parallel steps take the cluster's default.
            int workers = parallelism != null ? parallelism : env.getParallelism();

            List<String> names = new ArrayList<>();
            List<TaskTrigger> triggers = new ArrayList<>();
            List<TaskPlacement> placements = new ArrayList<>();
            Map<String, Integer> uids = new HashMap<>();
            for (int i = 0; i < tasks.size(); i++) {
                MaintenanceTaskBuilder<?> task = tasks.get(i);
                String name = task.taskName();
                TaskTrigger trigger = task.trigger();
                if (!trigger.isSet()) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Maintenance task %s (number %d) has no trigger: call one of"
                                            + " its scheduleOn... methods",
                                    name, i));
                }
                String taskUid =
                        uidPrefix
                                + "-"
                                + (task.uidSuffix() != null ? task.uidSuffix() : name + "-" + i);
                Integer other = uids.putIfAbsent(taskUid, i);
                if (other != null) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Maintenance tasks number %d and %d have the same uid '%s':"
                                            + " give them different uidSuffix values",
                                    other, i, taskUid));
                }
                names.add(name);
                triggers.add(trigger);
                placements.add(
                        new TaskPlacement(
                                i,
                                name,
                                taskUid,
                                task.parallelism() != null ? task.parallelism() : workers,
                                task.slotSharingGroup() != null
                                        ? task.slotSharingGroup()
                                        : slotSharingGroup,
                                operatorUids));
            }

            MaintenanceTopology topology =
                    new MaintenanceTopology(
                            tableName + "#" + suffix,
                            lockFactory,
                            operatorUids ? uidPrefix : null,
                            slotSharingGroup);
            DataStream<TableChange> input = changes != null ? changes : monitor(uidPrefix);
            SingleOutputStreamOperator<Trigger> triggered =
                    topology.triggerManager(
                            input,
                            names,
                            triggers,
                            rateLimit.toMillis(),
                            lockCheckDelay.toMillis());

            DataStream<TaskResult> results = null;
            for (int i = 0; i < tasks.size(); i++) {
                TaskPlacement placement = placements.get(i);
                SingleOutputStreamOperator<Trigger> mine =
                        triggered
                                .filter(new ForTask(i))
                                .name(placement.operatorName("trigger"))
                                .setParallelism(1);
                placement.place(mine, "trigger");
                MaintenanceTaskBuilder.Steps steps = tasks.get(i).steps(loader);
                DataStream<TaskResult> taskResults =
                        steps.twoStage()
                                ? TaskStages.append(
                                        mine,
                                        placement,
                                        steps.planner(),
                                        steps.mapper(),
                                        steps.reducer(),
                                        steps.finisher())
                                : TaskStages.append(
                                        mine,
                                        placement,
                                        steps.planner(),
                                        steps.worker(),
                                        steps.finisher());
                results = results == null ? taskResults : results.union(taskResults);
            }
            topology.lockRemover(results, names);
        }

        private DataStream<TableChange> monitor(String uidPrefix) {
            SingleOutputStreamOperator<TableChange> monitor =
                    env.fromSource(
                                    new TableChangeSource(
                                            loader.clone(), rateLimit.toMillis(), maxReadBack),
                                    WatermarkStrategy.noWatermarks(),
                                    "Maintenance monitor")
                            .setParallelism(1);
            if (operatorUids) {
                monitor.uid(uidPrefix + "-monitor");
            }
            if (slotSharingGroup != null) {
                monitor.slotSharingGroup(slotSharingGroup);
            }
            return monitor;
        }

        private void validate() {
            if (tasks.isEmpty()) {
                throw new IllegalArgumentException(
                        "TableMaintenance has no task: add at least one with add(...)");
            }
            if (uidSuffix != null && uidSuffix.isBlank()) {
                throw new IllegalArgumentException("uidSuffix must not be blank");
            }
            if (slotSharingGroup != null && slotSharingGroup.isBlank()) {
                throw new IllegalArgumentException("slotSharingGroup must not be blank");
            }
            positive("rateLimit", rateLimit);
            positive("lockCheckDelay", lockCheckDelay);
            if (parallelism != null && parallelism < 1) {
                throw new IllegalArgumentException(
                        "parallelism must be positive, got " + parallelism);
            }
            if (maxReadBack < 1) {
                throw new IllegalArgumentException(
                        "maxReadBack must be positive, got " + maxReadBack);
            }
        }

        private static void positive(String setting, Duration value) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(
                        setting + " must be a positive duration, got " + value);
            }
        }
    }

    /** Lets through the triggers of one task. */
    private static final class ForTask implements FilterFunction<Trigger> {
        private static final long serialVersionUID = 1L;

        private final int task;

        private ForTask(int task) {
            this.task = task;
        }

        @Override
        public boolean filter(Trigger trigger) {
            return trigger.taskIndex() == task;
        }
    }
}
