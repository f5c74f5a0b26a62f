package dev.icebergflink.maintenance.task;

import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * The last step of a task run, on one subtask, once every work item of the run has a result:
 * commits what the workers produced (a rewrite) or sums it up (deleted files), or gives the run up
 * and cleans up after it when planning or an item failed.
 */
@Internal
public interface TaskFinisher extends Serializable {

    /** Called once per subtask before the first run. */
    default void open() throws Exception {}

    /**
     * Completes a run whose planning and items all succeeded.
     *
     * @param header the planner's serialized plan
     * @param results the serialized results of every work item
     * @return what the run changed
     * @throws Exception if the run cannot complete (a lost commit race, for instance); the finisher
     *     has cleaned up by then
     */
    Outcome finish(byte[] header, List<byte[]> results) throws Exception;

    /**
     * Gives up a run in which planning or an item failed: removes what the successful items
     * produced and never will be used.
     *
     * @param header the planner's serialized plan, or null if planning failed
     * @param results the serialized results of the items that succeeded
     */
    default void abandon(byte[] header, List<byte[]> results) throws Exception {}

    /** Called once when the subtask ends. */
    default void close() throws Exception {}

    /**
     * What a completed run changed.
     *
     * @param filesAdded files added to the table
     * @param filesRemoved files removed from the table or deleted from storage
     * @param error null when the run did all it planned; otherwise why part of it was lost (the
     *     counts then tell what did land, and the run is reported as failed)
     */
    record Outcome(long filesAdded, long filesRemoved, String error) {

        /** A run that did all it planned. */
        public Outcome(long filesAdded, long filesRemoved) {
            this(filesAdded, filesRemoved, null);
        }

        /** Whether the run did all it planned. */
        public boolean complete() {
            return error == null;
        }
    }
}
