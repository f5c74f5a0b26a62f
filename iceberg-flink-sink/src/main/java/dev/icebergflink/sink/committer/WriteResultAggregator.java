package dev.icebergflink.sink.committer;

import dev.icebergflink.TableLoader;
import dev.icebergflink.sink.compat.CommittableMessages;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.WriteResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The global commit step of the sink (parallelism 1): collects every writer subtask's {@link
 * WriteResult} of a checkpoint, writes the checkpoint's manifests once (one per partition spec and
 * kind) and emits exactly one {@link IcebergCommittable} per checkpoint, as a {@link
 * CommittableSummary} followed by one {@link CommittableWithLineage}.
 *
 * <p>It exists so that a checkpoint makes one snapshot whatever the writer parallelism, and so that
 * the committer's state holds a few manifest paths instead of every file.
 *
 * <p>When it emits: with aligned checkpoints, when the barrier of checkpoint C reaches this
 * operator ({@link #prepareSnapshotPreBarrier(long)}) every writer's results for checkpoints up to
 * C have arrived; they are emitted then, before the barrier, so the committable is part of the
 * committer's state of C. Results that arrive labelled with a checkpoint already emitted (final
 * results of a writer restored without state, or results that crossed an unaligned barrier) are in
 * no committable yet and go into the next one. Results still pending at the end of input are
 * emitted together as one end-of-input committable. Anything not yet emitted is in this operator's
 * state ({@link AggregatorStateSerializer}).
 *
 * <p>End of input: Flink 2.1 gives the writers' final results the last checkpoint id plus one;
 * older paths use {@link CommittableMessage#EOI} ({@code Long.MAX_VALUE}). The committable's
 * checkpoint id is never {@code Long.MAX_VALUE}: it becomes the last seen checkpoint id plus one,
 * so what the committer records in the snapshot summary stays a real checkpoint id (see {@link
 * IcebergCommitter}).
 */
final class WriteResultAggregator
        extends AbstractStreamOperator<CommittableMessage<IcebergCommittable>>
        implements OneInputStreamOperator<
                        CommittableMessage<WriteResult>, CommittableMessage<IcebergCommittable>>,
                BoundedOneInput {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(WriteResultAggregator.class);
    private static final ListStateDescriptor<byte[]> STATE_DESCRIPTOR =
            new ListStateDescriptor<>(
                    "iceberg-aggregator-state", BytePrimitiveArraySerializer.INSTANCE);

    private final CommitterSettings settings;
    private final String runId;

    private transient TableLoader tableLoader;
    private transient Table table;
    private transient CommittableFactory committables;
    private transient AggregatorStateSerializer stateSerializer;
    private transient ListState<byte[]> state;
    private transient TreeMap<Long, List<WriteResult>> pending;
    private transient long lastCheckpointId;
    private transient long lastEmittedCheckpointId;
    private transient CommitOwner owner;

    /**
     * @param runId the sink's run id for this submission (see {@link CommitOwner}): it is part of
     *     the operator as it travels in the job graph, so failovers keep it
     */
    WriteResultAggregator(CommitterSettings settings, String runId) {
        this.settings = settings;
        this.runId = runId;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        tableLoader = settings.tableLoader().clone();
        stateSerializer =
                new AggregatorStateSerializer(new WriteResultSerializer(settings.tableLoader()));
        pending = new TreeMap<>();
        lastCheckpointId = context.getRestoredCheckpointId().orElse(0L);
        lastEmittedCheckpointId = lastCheckpointId;
        state = context.getOperatorStateStore().getListState(STATE_DESCRIPTOR);
        if (context.isRestored()) {
            for (byte[] bytes : state.get()) {
                AggregatorState restored =
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
        committables = new CommittableFactory();
    }

    @Override
    public void processElement(StreamRecord<CommittableMessage<WriteResult>> element) {
        CommittableMessage<WriteResult> message = element.getValue();
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
        List<WriteResult> results = pending.computeIfAbsent(checkpointId, id -> new ArrayList<>());
        if (message instanceof CommittableWithLineage) {
            results.add(((CommittableWithLineage<WriteResult>) message).getCommittable());
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        lastCheckpointId = Math.max(lastCheckpointId, checkpointId);
        while (!pending.isEmpty() && pending.firstKey() <= checkpointId) {
            Map.Entry<Long, List<WriteResult>> first = pending.pollFirstEntry();
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
        List<WriteResult> all = new ArrayList<>();
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
                                stateSerializer, new AggregatorState(lastCheckpointId, pending))));
    }

    private void emit(
            long messageCheckpointId,
            long committableCheckpointId,
            boolean endOfInput,
            List<WriteResult> results)
            throws IOException {
        IcebergCommittable committable =
                committables.create(
                        this::table, owner, committableCheckpointId, endOfInput, results);
        LOG.info(
                "Emitting {} from {} writer results for checkpoint {}",
                committable,
                results.size(),
                messageCheckpointId);
        output.collect(
                new StreamRecord<>(CommittableMessages.summary(0, 1, messageCheckpointId, 1, 0)));
        output.collect(
                new StreamRecord<>(
                        new CommittableWithLineage<>(committable, messageCheckpointId, 0)));
    }

    private Table table() {
        if (table == null) {
            table = tableLoader.loadTable();
        } else {
            table.refresh();
        }
        return table;
    }

    @Override
    public void close() throws Exception {
        try {
            if (tableLoader != null) {
                tableLoader.close();
            }
        } finally {
            super.close();
        }
    }
}
