package dev.icebergflink.maintenance.task;

import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * The first step of a task run, on one subtask: looks at the table and decides the work.
 *
 * <p>Planning should only read; a task whose work is done entirely here (an expiration commit) may
 * also commit, and then hands its workers only what is left to do (the files to delete).
 */
@Internal
public interface TaskPlanner extends Serializable {

    /** Called once per subtask before the first run. */
    default void open() throws Exception {}

    /**
     * Plans one run.
     *
     * @param triggerTimestamp the run's trigger timestamp
     * @return the plan's header (for the finisher) and the work items (spread over the workers)
     */
    Plan plan(long triggerTimestamp) throws Exception;

    /** Called once when the subtask ends. */
    default void close() throws Exception {}

    /**
     * A planned run.
     *
     * @param header the task's serialized plan, for the finisher
     * @param items the serialized work items, each done by one worker
     */
    record Plan(byte[] header, List<byte[]> items) {}
}
