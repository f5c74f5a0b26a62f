package dev.icebergflink.maintenance.task;

import java.io.Serializable;
import org.apache.flink.annotation.Internal;

/**
 * The keyed, parallel stage of a two-stage task run: once every {@link TaskMapper} record of a run
 * has arrived, gets the records of one bucket together and acts on them (deletes the orphans among
 * them, for instance); its result goes to the task's {@link TaskFinisher}.
 *
 * <p>A bucket holds a share of the run's records (all records whose hashes map to it), so a
 * reducer's memory is bounded by the run's size divided by the number of buckets, not by the whole
 * table.
 */
@Internal
public interface TaskReducer extends Serializable {

    /**
     * Called once per subtask before the first bucket.
     *
     * @param subtask the subtask's index
     * @param attempt the subtask's attempt number (differs after a restart)
     */
    default void open(int subtask, int attempt) throws Exception {}

    /**
     * Acts on the records of one bucket of a run.
     *
     * @param records every record of the run that the mappers sent to this bucket
     * @return the bucket's result, serialized for the finisher
     * @throws Exception if the bucket cannot be completed; the run then fails
     */
    byte[] reduce(Iterable<byte[]> records) throws Exception;

    /** Called once when the subtask ends. */
    default void close() throws Exception {}
}
