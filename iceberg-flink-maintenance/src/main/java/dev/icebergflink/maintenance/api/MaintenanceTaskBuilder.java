package dev.icebergflink.maintenance.api;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.task.TaskFinisher;
import dev.icebergflink.maintenance.task.TaskMapper;
import dev.icebergflink.maintenance.task.TaskPlanner;
import dev.icebergflink.maintenance.task.TaskReducer;
import dev.icebergflink.maintenance.task.TaskWorker;
import dev.icebergflink.maintenance.trigger.TaskTrigger;
import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;

/**
 * What every maintenance task shares: when it runs (its triggers) and where (uid, slot sharing
 * group, parallelism). A task runs when ANY of its triggers fires; it needs at least one.
 *
 * <p>Count and size triggers sum what the table's commits added since the task last ran (commits
 * that only rewrite files, such as compactions, do not count); {@link #scheduleOnInterval} fires
 * when that much time has passed since the task last ran (or the topology started).
 *
 * @param <T> the concrete builder, returned by every setter
 */
@PublicEvolving
public abstract class MaintenanceTaskBuilder<T extends MaintenanceTaskBuilder<?>> {

    private Integer commitCount;
    private Integer dataFileCount;
    private Long dataFileSize;
    private Integer posDeleteFileCount;
    private Long posDeleteRecordCount;
    private Integer eqDeleteFileCount;
    private Long eqDeleteRecordCount;
    private Duration interval;
    private String uidSuffix;
    private String slotSharingGroup;
    private Integer parallelism;

    MaintenanceTaskBuilder() {}

    /** Runs the task after this many commits. */
    public T scheduleOnCommitCount(int commits) {
        this.commitCount = positive("scheduleOnCommitCount", commits);
        return self();
    }

    /** Runs the task after commits added this many data files. */
    public T scheduleOnDataFileCount(int files) {
        this.dataFileCount = positive("scheduleOnDataFileCount", files);
        return self();
    }

    /** Runs the task after commits added data files of this many bytes in total. */
    public T scheduleOnDataFileSize(long bytes) {
        this.dataFileSize = positive("scheduleOnDataFileSize", bytes);
        return self();
    }

    /** Runs the task after commits added this many position delete files (or deletion vectors). */
    public T scheduleOnPosDeleteFileCount(int files) {
        this.posDeleteFileCount = positive("scheduleOnPosDeleteFileCount", files);
        return self();
    }

    /** Runs the task after commits deleted this many rows by position. */
    public T scheduleOnPosDeleteRecordCount(long records) {
        this.posDeleteRecordCount = positive("scheduleOnPosDeleteRecordCount", records);
        return self();
    }

    /** Runs the task after commits added this many equality delete files. */
    public T scheduleOnEqDeleteFileCount(int files) {
        this.eqDeleteFileCount = positive("scheduleOnEqDeleteFileCount", files);
        return self();
    }

    /** Runs the task after commits added this many equality delete records. */
    public T scheduleOnEqDeleteRecordCount(long records) {
        this.eqDeleteRecordCount = positive("scheduleOnEqDeleteRecordCount", records);
        return self();
    }

    /** Runs the task when this much time has passed since it last ran. */
    public T scheduleOnInterval(Duration interval) {
        if (interval == null || interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException(
                    "scheduleOnInterval must be a positive duration, got " + interval);
        }
        this.interval = interval;
        return self();
    }

    /**
     * The suffix of the task's operator uids (default: the task's name and position), so that a
     * changed topology can restore the task's state from a savepoint.
     */
    public T uidSuffix(String suffix) {
        if (suffix == null || suffix.isBlank()) {
            throw new IllegalArgumentException("uidSuffix must not be blank");
        }
        this.uidSuffix = suffix;
        return self();
    }

    /** The slot sharing group of the task's operators (default: the topology's). */
    public T slotSharingGroup(String group) {
        if (group == null || group.isBlank()) {
            throw new IllegalArgumentException("slotSharingGroup must not be blank");
        }
        this.slotSharingGroup = group;
        return self();
    }

    /** The parallelism of the task's parallel work (default: the topology's). */
    public T parallelism(int parallelism) {
        this.parallelism = positive("parallelism", parallelism);
        return self();
    }

    @SuppressWarnings("unchecked")
    private T self() {
        return (T) this;
    }

    /** {@code value}, or an error naming the setting when it is not positive. */
    static int positive(String setting, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(setting + " must be positive, got " + value);
        }
        return value;
    }

    /** {@code value}, or an error naming the setting when it is not positive. */
    static long positive(String setting, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(setting + " must be positive, got " + value);
        }
        return value;
    }

    /** The task's name in operator names, metrics and logs. */
    abstract String taskName();

    /** The task's steps on {@code loader}'s table; validates the task's own settings. */
    abstract Steps steps(TableLoader loader);

    TaskTrigger trigger() {
        return new TaskTrigger(
                commitCount,
                dataFileCount,
                dataFileSize,
                posDeleteFileCount,
                posDeleteRecordCount,
                eqDeleteFileCount,
                eqDeleteRecordCount,
                interval);
    }

    String uidSuffix() {
        return uidSuffix;
    }

    String slotSharingGroup() {
        return slotSharingGroup;
    }

    Integer parallelism() {
        return parallelism;
    }

    /**
     * The steps of a task run: a planner and a finisher, with either workers (a single-stage task)
     * or mappers and reducers (a two-stage task, see {@code TaskStages}).
     */
    record Steps(
            TaskPlanner planner,
            TaskWorker worker,
            TaskMapper mapper,
            TaskReducer reducer,
            TaskFinisher finisher) {

        /** The steps of a single-stage task. */
        Steps(TaskPlanner planner, TaskWorker worker, TaskFinisher finisher) {
            this(planner, worker, null, null, finisher);
        }

        /** The steps of a two-stage task. */
        Steps(TaskPlanner planner, TaskMapper mapper, TaskReducer reducer, TaskFinisher finisher) {
            this(planner, null, mapper, reducer, finisher);
        }

        boolean twoStage() {
            return mapper != null;
        }
    }
}
