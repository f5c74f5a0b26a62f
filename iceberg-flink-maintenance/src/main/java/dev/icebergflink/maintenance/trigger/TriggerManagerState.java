package dev.icebergflink.maintenance.trigger;

import dev.icebergflink.maintenance.api.TableChange;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * What the trigger manager keeps in its checkpoints: per task the changes since its last run and
 * when that was; when the last trigger was sent (for the rate limit); and the run in flight, if
 * any, which a restored topology runs again.
 *
 * <p>Mutable; owned by the trigger manager's task thread.
 */
@Internal
public final class TriggerManagerState {

    /** No run is in flight. */
    public static final int NONE = -1;

    private final List<TableChange> changes;
    private final List<Long> lastRuns;
    private long lastTriggerMillis;
    private long lastTriggerTimestamp;
    private int inFlightTask;
    private long inFlightTimestamp;

    TriggerManagerState(
            List<TableChange> changes,
            List<Long> lastRuns,
            long lastTriggerMillis,
            long lastTriggerTimestamp,
            int inFlightTask,
            long inFlightTimestamp) {
        this.changes = new ArrayList<>(changes);
        this.lastRuns = new ArrayList<>(lastRuns);
        this.lastTriggerMillis = lastTriggerMillis;
        this.lastTriggerTimestamp = lastTriggerTimestamp;
        this.inFlightTask = inFlightTask;
        this.inFlightTimestamp = inFlightTimestamp;
    }

    /** The state of a topology that starts now, with {@code tasks} tasks. */
    public static TriggerManagerState fresh(int tasks, long nowMillis) {
        List<TableChange> changes = new ArrayList<>();
        List<Long> lastRuns = new ArrayList<>();
        for (int i = 0; i < tasks; i++) {
            changes.add(TableChange.empty());
            lastRuns.add(nowMillis);
        }
        return new TriggerManagerState(changes, lastRuns, Long.MIN_VALUE, 0L, NONE, 0L);
    }

    /**
     * This state fitted to a topology of {@code tasks} tasks: tasks are matched by position, new
     * ones start fresh at {@code nowMillis}, dropped ones are forgotten (and a run of a dropped
     * task is no longer in flight).
     */
    public TriggerManagerState resize(int tasks, long nowMillis) {
        while (changes.size() < tasks) {
            changes.add(TableChange.empty());
            lastRuns.add(nowMillis);
        }
        while (changes.size() > tasks) {
            changes.remove(changes.size() - 1);
            lastRuns.remove(lastRuns.size() - 1);
        }
        if (inFlightTask >= tasks) {
            inFlightTask = NONE;
        }
        return this;
    }

    public int taskCount() {
        return changes.size();
    }

    /** Adds a commit's change to every task's sum. */
    public void accumulate(TableChange change) {
        for (int i = 0; i < changes.size(); i++) {
            changes.set(i, changes.get(i).merge(change));
        }
    }

    public TableChange changes(int task) {
        return changes.get(task);
    }

    public long lastRunMillis(int task) {
        return lastRuns.get(task);
    }

    public long lastTriggerMillis() {
        return lastTriggerMillis;
    }

    public long lastTriggerTimestamp() {
        return lastTriggerTimestamp;
    }

    public int inFlightTask() {
        return inFlightTask;
    }

    public long inFlightTimestamp() {
        return inFlightTimestamp;
    }

    /** Records that {@code task} was triggered: its sums restart and the run is in flight. */
    public void triggered(int task, long timestamp, long nowMillis) {
        changes.set(task, TableChange.empty());
        lastRuns.set(task, nowMillis);
        lastTriggerMillis = nowMillis;
        lastTriggerTimestamp = timestamp;
        inFlightTask = task;
        inFlightTimestamp = timestamp;
    }

    /** Records that the run in flight ended. */
    public void ended() {
        inFlightTask = NONE;
        inFlightTimestamp = 0L;
    }

    List<TableChange> allChanges() {
        return changes;
    }

    List<Long> allLastRuns() {
        return lastRuns;
    }
}
