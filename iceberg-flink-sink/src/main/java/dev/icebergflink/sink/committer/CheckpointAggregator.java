package dev.icebergflink.sink.committer;

import dev.icebergflink.sink.compat.CommittableMessages;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The global commit step of a sink (parallelism 1): collects every writer subtask's results of a
 * checkpoint and turns them into the checkpoint's committables at once, emitted as one {@link
 * CommittableSummary} followed by one {@link CommittableWithLineage} per committable.
 *
 * <p>It exists so that a checkpoint makes one snapshot per table whatever the writer parallelism,
 * and so that the committer's state holds a few manifest paths instead of every file. The
 * single-table sink makes one committable per checkpoint ({@link WriteResultAggregator}); the sink
 * for many tables one per table and branch. What they share, and what this class keeps in one
 * place, is when results belong to which checkpoint:
 *
 * <p>With aligned checkpoints, when the barrier of checkpoint C reaches this operator ({@link
 * #prepareSnapshotPreBarrier(long)}) every writer's results for checkpoints up to C have arrived;
 * they are turned into committables then, before the barrier, so the committables are part of the
 * committer's state of C. Results that arrive labelled with a checkpoint already emitted (final
 * results of a writer restored without state, or results that crossed an unaligned barrier) are in
 * no committable yet and go into the next one. Results still pending at the end of input are
 * emitted together as end-of-input committables. Anything not yet emitted is in this operator's
 * state ({@link AggregatorStateSerializer} over the results' own versioned serializer).
 *
 * <p>End of input: Flink 2.1 gives the writers' final results the last checkpoint id plus one;
 * older paths use {@link CommittableMessage#EOI} ({@code Long.MAX_VALUE}). A committable's
 * checkpoint id is never {@code Long.MAX_VALUE}: it becomes the last seen checkpoint id plus one,
 * so what the committer records in the snapshot summary stays a real checkpoint id (see {@link
 * IcebergCommitter}).
 *
 * @param <R> the writers' result per subtask and checkpoint
 * @param <C> the committable
 */
@Internal
public abstract class CheckpointAggregator<R, C>
        extends AbstractStreamOperator<CommittableMessage<C>>
        implements OneInputStreamOperator<CommittableMessage<R>, CommittableMessage<C>>,
                BoundedOneInput {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointAggregator.class);

    /** The name stays what the single-table sink's savepoints hold. */
    private static final ListStateDescriptor<byte[]> STATE_DESCRIPTOR =
            new ListStateDescriptor<>(
                    "iceberg-aggregator-state", BytePrimitiveArraySerializer.INSTANCE);

    private final String runId;

    private transient AggregatorStateSerializer<R> stateSerializer;
    private transient ListState<byte[]> state;
    private transient TreeMap<Long, List<R>> pending;
    private transient long lastCheckpointId;
    private transient long lastEmittedCheckpointId;
    private transient CommitOwner owner;

    /**
     * @param runId the sink's run id for this submission (see {@link CommitOwner}): it is part of
     *     the operator as it travels in the job graph, so failovers keep it
     */
    protected CheckpointAggregator(String runId) {
        this.runId = runId;
    }

    /** The versioned serializer of one result, for this operator's state. */
    protected abstract SimpleVersionedSerializer<R> resultSerializer();

    /**
     * The committables of one checkpoint's results; may be empty when the results hold nothing to
     * commit.
     *
     * @param owner who commits them (job, this operator, run)
     * @param checkpointId the checkpoint id the committables carry
     * @param endOfInput whether they are the end of a bounded input
     * @param results every writer's results of the checkpoint
     */
    protected abstract List<C> committables(
            CommitOwner owner, long checkpointId, boolean endOfInput, List<R> results)
            throws IOException;

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        stateSerializer = new AggregatorStateSerializer<>(resultSerializer());
        pending = new TreeMap<>();
        lastCheckpointId = context.getRestoredCheckpointId().orElse(0L);
        lastEmittedCheckpointId = lastCheckpointId;
        state = context.getOperatorStateStore().getListState(STATE_DESCRIPTOR);
        if (context.isRestored()) {
            for (byte[] bytes : state.get()) {
                AggregatorState<R> restored =
                        SimpleVersionedSerialization.readVersionAndDeSerialize(
                                stateSerializer, bytes);
                lastCheckpointId = Math.max(lastCheckpointId, restored.lastCheckpointId());
                restored.mutablePending()
                        .forEach(
                                (id, results) ->
                                        pending.computeIfAbsent(id, k -> new ArrayList<>())
                                                .addAll(results));
            }
            lastEmittedCheckpointId = lastCheckpointId;
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        owner =
                new CommitOwner(
                        getRuntimeContext().getJobInfo().getJobId().toHexString(),
                        getOperatorID().toHexString(),
                        runId);
    }

    @Override
    public void processElement(StreamRecord<CommittableMessage<R>> element) {
        CommittableMessage<R> message = element.getValue();
        long checkpointId = CommittableMessages.checkpointIdOrEoi(message);
        if (checkpointId <= lastEmittedCheckpointId) {
            // Results labelled with a checkpoint this aggregation has already emitted are in no
            // committable yet, so they belong to the next one. Writers label their final results
            // with the last checkpoint id they know plus one, and a writer task restored without
            // state of its own knows none: after a restore its end-of-input results can carry id
            // 1. Results that crossed an unaligned checkpoint's barrier arrive this way too.
            LOG.info(
                    "Writer results labelled checkpoint {} arrived after checkpoint {} was emitted;"
                            + " they go into the next committable",
                    checkpointId,
                    lastEmittedCheckpointId);
            checkpointId = lastEmittedCheckpointId + 1;
        }
        List<R> results = pending.computeIfAbsent(checkpointId, id -> new ArrayList<>());
        if (message instanceof CommittableWithLineage) {
            results.add(((CommittableWithLineage<R>) message).getCommittable());
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        lastCheckpointId = Math.max(lastCheckpointId, checkpointId);
        while (!pending.isEmpty() && pending.firstKey() <= checkpointId) {
            Map.Entry<Long, List<R>> first = pending.pollFirstEntry();
            emit(first.getKey(), first.getKey(), false, first.getValue());
        }
        lastEmittedCheckpointId = Math.max(lastEmittedCheckpointId, checkpointId);
    }

    @Override
    public void endInput() throws Exception {
        if (pending.isEmpty()) {
            return;
        }
        long messageId = pending.lastKey();
        List<R> all = new ArrayList<>();
        pending.values().forEach(all::addAll);
        pending.clear();
        long committableId = messageId == CommittableMessage.EOI ? lastCheckpointId + 1 : messageId;
        emit(messageId, committableId, true, all);
        lastEmittedCheckpointId = Math.max(lastEmittedCheckpointId, committableId);
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        lastCheckpointId = Math.max(lastCheckpointId, context.getCheckpointId());
        state.update(
                List.of(
                        SimpleVersionedSerialization.writeVersionAndSerialize(
                                stateSerializer,
                                new AggregatorState<>(lastCheckpointId, pending))));
    }

    private void emit(
            long messageCheckpointId,
            long committableCheckpointId,
            boolean endOfInput,
            List<R> results)
            throws IOException {
        List<C> emitted = committables(owner, committableCheckpointId, endOfInput, results);
        if (emitted.isEmpty()) {
            return;
        }
        LOG.info(
                "Emitting {} from {} writer results for checkpoint {}",
                emitted,
                results.size(),
                messageCheckpointId);
        output.collect(
                new StreamRecord<>(
                        CommittableMessages.summary(0, 1, messageCheckpointId, emitted.size(), 0)));
        for (C committable : emitted) {
            output.collect(
                    new StreamRecord<>(
                            new CommittableWithLineage<>(committable, messageCheckpointId, 0)));
        }
    }
}
