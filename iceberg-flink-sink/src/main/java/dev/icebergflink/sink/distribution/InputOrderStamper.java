package dev.icebergflink.sink.distribution;

import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;

/**
 * Gives every row the position it has in its subtask's input as the record's timestamp (0, 1, 2,
 * ...), in front of the keyed de-duplication wherever the job may run in BATCH execution with it:
 * AUTOMATIC execution, and BATCH execution with {@code range} distribution (other BATCH upserts
 * have no keyed de-duplication; their writers track keys, see {@code
 * DistributionTopology#writersTrackKeys}).
 *
 * <p>It exists because Flink's BATCH execution sorts a keyed input by the key's bytes and then by
 * the record timestamp, with a sort that is not stable: changes of one key with equal timestamps
 * (or none, the usual case) reach {@link ChangelogDeduplicator} in an arbitrary order, so an older
 * change could win over a newer one. With the position as timestamp, the changes of one key from
 * one input subtask arrive in their input order, as they do in streaming execution. The rows
 * themselves are untouched; the sink uses no record timestamps after this point. It keeps a counter
 * only, no state.
 */
@Internal
public final class InputOrderStamper extends AbstractStreamOperator<RowData>
        implements OneInputStreamOperator<RowData, RowData> {

    private static final long serialVersionUID = 1L;

    private transient long position;

    @Override
    public void processElement(StreamRecord<RowData> element) {
        element.setTimestamp(position++);
        output.collect(element);
    }
}
