package dev.icebergflink.maintenance.task;

import java.io.Serializable;
import org.apache.flink.annotation.Internal;

/**
 * The first parallel stage of a two-stage task run: turns one work item into any number of records,
 * each with a hash that decides which {@link TaskReducer} bucket it goes to.
 *
 * <p>It exists for tasks whose answer needs records from different items side by side (orphan
 * detection puts a listed file next to the manifests that refer to it): the mapper spreads the
 * reading, the hash brings related records together.
 *
 * <p>A mapper that throws poisons the run: every bucket learns of the failure and no reducer acts
 * on the run's records, since some of them are missing.
 */
@Internal
public interface TaskMapper extends Serializable {

    /**
     * Called once per subtask before the first item.
     *
     * @param subtask the subtask's index
     * @param attempt the subtask's attempt number (differs after a restart)
     */
    default void open(int subtask, int attempt) throws Exception {}

    /** Maps one work item, handing each record to {@code out}. */
    void process(byte[] item, Output out) throws Exception;

    /** Called once when the subtask ends. */
    default void close() throws Exception {}

    /** Where a mapper's records go. */
    interface Output {

        /**
         * Sends one record to the bucket of {@code hash}: records with equal hashes meet in one
         * {@link TaskReducer#reduce} call.
         */
        void emit(int hash, byte[] record);
    }
}
