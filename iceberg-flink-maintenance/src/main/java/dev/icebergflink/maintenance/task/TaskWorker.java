package dev.icebergflink.maintenance.task;

import java.io.Serializable;
import org.apache.flink.annotation.Internal;

/**
 * The parallel step of a task run: does one work item (rewrites one unit of files, deletes one
 * batch of files...).
 *
 * <p>A worker that fails throws after undoing what it can (deleting files it wrote); the run's
 * other items go on and the finisher gives the run up.
 */
@Internal
public interface TaskWorker extends Serializable {

    /**
     * Called once per subtask before the first item.
     *
     * @param subtask the subtask's index
     * @param attempt the subtask's attempt number (differs after a restart)
     */
    default void open(int subtask, int attempt) throws Exception {}

    /** Does one work item; returns its result, serialized for the finisher. */
    byte[] process(byte[] item) throws Exception;

    /** Called once when the subtask ends. */
    default void close() throws Exception {}
}
