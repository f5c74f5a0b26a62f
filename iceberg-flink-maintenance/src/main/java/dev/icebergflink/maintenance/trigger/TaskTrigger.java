package dev.icebergflink.maintenance.trigger;

import dev.icebergflink.maintenance.api.TableChange;
import java.io.Serializable;
import java.time.Duration;
import org.apache.flink.annotation.Internal;

/**
 * When one maintenance task is due: any of its thresholds reached by the changes since its last
 * run, or its interval passed since then. Unset thresholds (null) never fire; a task needs at least
 * one (its builder checks).
 */
@Internal
public final class TaskTrigger implements Serializable {

    private static final long serialVersionUID = 1L;

    private final Integer commitCount;
    private final Integer dataFileCount;
    private final Long dataFileSizeInBytes;
    private final Integer posDeleteFileCount;
    private final Long posDeleteRecordCount;
    private final Integer eqDeleteFileCount;
    private final Long eqDeleteRecordCount;
    private final Duration interval;

    public TaskTrigger(
            Integer commitCount,
            Integer dataFileCount,
            Long dataFileSizeInBytes,
            Integer posDeleteFileCount,
            Long posDeleteRecordCount,
            Integer eqDeleteFileCount,
            Long eqDeleteRecordCount,
            Duration interval) {
        this.commitCount = commitCount;
        this.dataFileCount = dataFileCount;
        this.dataFileSizeInBytes = dataFileSizeInBytes;
        this.posDeleteFileCount = posDeleteFileCount;
        this.posDeleteRecordCount = posDeleteRecordCount;
        this.eqDeleteFileCount = eqDeleteFileCount;
        this.eqDeleteRecordCount = eqDeleteRecordCount;
        this.interval = interval;
    }

    /** Whether any threshold or the interval is set. */
    public boolean isSet() {
        return commitCount != null
                || dataFileCount != null
                || dataFileSizeInBytes != null
                || posDeleteFileCount != null
                || posDeleteRecordCount != null
                || eqDeleteFileCount != null
                || eqDeleteRecordCount != null
                || interval != null;
    }

    /**
     * Whether the task is due.
     *
     * @param changes the changes since the task last ran
     * @param lastRunMillis when the task last ran (or the topology started)
     * @param nowMillis the current time
     */
    public boolean isDue(TableChange changes, long lastRunMillis, long nowMillis) {
        return reached(commitCount, changes.commitCount())
                || reached(dataFileCount, changes.dataFileCount())
                || reached(dataFileSizeInBytes, changes.dataFileSizeInBytes())
                || reached(posDeleteFileCount, changes.posDeleteFileCount())
                || reached(posDeleteRecordCount, changes.posDeleteRecordCount())
                || reached(eqDeleteFileCount, changes.eqDeleteFileCount())
                || reached(eqDeleteRecordCount, changes.eqDeleteRecordCount())
                || (interval != null && nowMillis - lastRunMillis >= interval.toMillis());
    }

    /** When the interval makes the task due, or {@link Long#MAX_VALUE} without an interval. */
    public long intervalDeadline(long lastRunMillis) {
        return interval == null ? Long.MAX_VALUE : lastRunMillis + interval.toMillis();
    }

    private static boolean reached(Number threshold, long value) {
        return threshold != null && value >= threshold.longValue();
    }

    @Override
    public String toString() {
        return "TaskTrigger{commitCount="
                + commitCount
                + ", dataFileCount="
                + dataFileCount
                + ", dataFileSizeInBytes="
                + dataFileSizeInBytes
                + ", posDeleteFileCount="
                + posDeleteFileCount
                + ", posDeleteRecordCount="
                + posDeleteRecordCount
                + ", eqDeleteFileCount="
                + eqDeleteFileCount
                + ", eqDeleteRecordCount="
                + eqDeleteRecordCount
                + ", interval="
                + interval
                + '}';
    }
}
