package dev.icebergflink.maintenance.task;

import java.io.Serializable;
import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Where a maintenance task sits in its topology and how its operators run: the names and uids of
 * its operators, its parallelism and slot sharing group.
 *
 * @param index the task's position in the topology (its triggers carry it)
 * @param name the task's name, e.g. {@code RewriteDataFiles}
 * @param uidPrefix the prefix of its operators' uids, unique within the job
 * @param parallelism the parallelism of its parallel step
 * @param slotSharingGroup the slot sharing group of its operators, or null for the default
 */
@Internal
public record TaskPlacement(
        int index, String name, String uidPrefix, int parallelism, String slotSharingGroup)
        implements Serializable {

    /** The uid of one of the task's operators. */
    public String uid(String step) {
        return uidPrefix + "-" + step;
    }

    /** The display name of one of the task's operators. */
    public String operatorName(String step) {
        return name + "[" + index + "] " + step;
    }

    /** Puts an operator of the task into the task's slot sharing group, if it has one. */
    public void place(SingleOutputStreamOperator<?> operator) {
        if (slotSharingGroup != null) {
            operator.slotSharingGroup(slotSharingGroup);
        }
    }
}
