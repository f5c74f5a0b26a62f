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
 * @param operatorUids whether its operators get uids (off inside a sink that leaves its uids to
 *     Flink)
 */
@Internal
public record TaskPlacement(
        int index,
        String name,
        String uidPrefix,
        int parallelism,
        String slotSharingGroup,
        boolean operatorUids)
        implements Serializable {

    /** The uid of one of the task's operators. */
    public String uid(String step) {
        return uidPrefix + "-" + step;
    }

    /** The display name of one of the task's operators. */
    public String operatorName(String step) {
        return name + "[" + index + "] " + step;
    }

    /**
     * Gives one of the task's operators its uid (when the topology has uids) and slot sharing group
     * (if the task has one).
     */
    public void place(SingleOutputStreamOperator<?> operator, String step) {
        if (operatorUids) {
            operator.uid(uid(step));
        }
        if (slotSharingGroup != null) {
            operator.slotSharingGroup(slotSharingGroup);
        }
    }
}
