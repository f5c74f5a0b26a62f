package dev.icebergflink.sink.distribution;

import dev.icebergflink.data.row.RowDataStructLike;
import dev.icebergflink.sink.compat.ParameterizedStreamOperator;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;
import org.apache.flink.runtime.operators.coordination.OperatorEventGateway;
import org.apache.flink.runtime.operators.coordination.OperatorEventHandler;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.SortKey;

/**
 * The statistics operator of range distribution, in front of the writers: computes each row's sort
 * key, keeps a bounded reservoir sample of the keys since the last checkpoint (reported to the
 * {@link RangeStatisticsCoordinator} when it takes a checkpoint) and tags each row with the writer
 * its key's range belongs to, for {@code partitionCustom} downstream.
 *
 * <p>Until the first boundaries arrive from the coordinator (the first checkpoint of a new job, or
 * always in BATCH mode, which has no checkpoints) rows are spread round robin. Boundaries are
 * applied as soon as they arrive; each subtask applies them independently, so around a change a
 * key's rows may reach two writers, which is harmless for appends and for keyed upserts (one change
 * per key and checkpoint after de-duplication). Memory: the sample ({@code sampleSize} keys) and
 * the boundaries; nothing grows with the input.
 */
final class RangeStatisticsOperator extends ParameterizedStreamOperator<Tuple2<Integer, RowData>>
        implements OneInputStreamOperator<RowData, Tuple2<Integer, RowData>>, OperatorEventHandler {

    private static final long serialVersionUID = 1L;

    private final RangeSpec spec;
    private final transient OperatorEventGateway gateway;

    private transient SortKeyCodec codec;
    private transient SortKey key;
    private transient RowDataStructLike view;
    private transient List<SortKey> sample;
    private transient long seen;
    private transient Random random;
    private transient RangeBoundaries boundaries;
    private transient long counter;

    RangeStatisticsOperator(
            StreamOperatorParameters<Tuple2<Integer, RowData>> parameters,
            RangeSpec spec,
            OperatorEventGateway gateway) {
        super(parameters);
        this.spec = spec;
        this.gateway = gateway;
    }

    @Override
    public void open() throws Exception {
        super.open();
        codec = spec.codec();
        key = codec.newKey();
        view = new RowDataStructLike(spec.schema().asStruct(), spec.rowType());
        sample = new ArrayList<>(spec.sampleSize());
        int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        random = new Random(31L * subtask + 17);
        counter = subtask;
    }

    @Override
    public void processElement(StreamRecord<RowData> element) {
        RowData row = element.getValue();
        key.wrap(view.wrap(row));
        seen++;
        if (sample.size() < spec.sampleSize()) {
            sample.add(key.copy());
        } else {
            long slot = (long) (random.nextDouble() * seen);
            if (slot < spec.sampleSize()) {
                sample.set((int) slot, key.copy());
            }
        }
        counter++;
        int target =
                boundaries == null || boundaries.size() == 0
                        ? (int) Math.floorMod(counter, (long) spec.writers())
                        : boundaries.route(key, counter);
        output.collect(element.replace(Tuple2.of(target, row)));
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        List<byte[]> encoded = new ArrayList<>(sample.size());
        sample.forEach(k -> encoded.add(codec.encode(k)));
        gateway.sendEventToCoordinator(
                new RangeStatisticsEvent(context.getCheckpointId(), seen, encoded));
        sample.clear();
        seen = 0;
    }

    @Override
    public void handleOperatorEvent(OperatorEvent event) {
        if (!(event instanceof RangeBoundariesEvent)) {
            throw new IllegalArgumentException("Unexpected event " + event);
        }
        List<SortKey> keys = new ArrayList<>();
        for (byte[] bytes : ((RangeBoundariesEvent) event).boundaries) {
            keys.add(codec.decode(bytes));
        }
        boundaries = new RangeBoundaries(keys, codec.comparator());
    }

    /** Whether boundaries from the coordinator are in use (tests). */
    boolean hasBoundaries() {
        return boundaries != null && boundaries.size() > 0;
    }
}
