package dev.icebergflink.sink.distribution;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;
import org.apache.iceberg.SortKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JobManager side of range distribution: collects every statistics subtask's report of a
 * checkpoint ({@link RangeStatisticsEvent}), and once all subtasks reported that checkpoint,
 * computes the range boundaries ({@link RangeBoundaries#compute}) and broadcasts them ({@link
 * RangeBoundariesEvent}) to every subtask; a subtask that (re)starts gets the current boundaries as
 * soon as it is ready.
 *
 * <p>Boundaries are only as good as the records they were computed from. A checkpoint that comes
 * shortly after the previous one (or a quiet stream) yields a round of a few records, and
 * boundaries from a few keys would send most of the next rows to one writer. So completed rounds
 * are pooled until they stand for at least the sample size of one subtask ({@link
 * RangeSpec#sampleSize}) records, and only then replace the boundaries; until the first boundaries
 * exist, rows go round robin. The pool is not checkpointed: after a restore the last boundaries
 * route and a new pool fills.
 *
 * <p>Its state (the current boundaries) is part of the coordinator's checkpoints ({@link
 * RangeCoordinatorStateSerializer}), so a restored job routes by the last boundaries right away.
 * Reports of a round that never completes (a subtask failed) are dropped when a later round
 * completes or the coordinator is reset. Flink calls a coordinator from one thread; the methods are
 * synchronized all the same, as they are cheap (a sort of the samples).
 */
final class RangeStatisticsCoordinator implements OperatorCoordinator {

    private static final Logger LOG = LoggerFactory.getLogger(RangeStatisticsCoordinator.class);

    private final Context context;
    private final RangeSpec spec;
    private final String operatorName;
    private final RangeCoordinatorStateSerializer serializer =
            new RangeCoordinatorStateSerializer();
    private final TreeMap<Long, Map<Integer, RangeStatisticsEvent>> rounds = new TreeMap<>();
    private final Map<Integer, SubtaskGateway> gateways = new HashMap<>();

    /**
     * Samples of completed rounds not yet turned into boundaries, and how many records they stand
     * for.
     */
    private final List<RangeBoundaries.WeightedKey> pool = new ArrayList<>();

    private long pooledRecords;
    private SortKeyCodec codec;
    private RangeCoordinatorState state = RangeCoordinatorState.EMPTY;

    RangeStatisticsCoordinator(Context context, RangeSpec spec, String operatorName) {
        this.context = context;
        this.spec = spec;
        this.operatorName = operatorName;
    }

    @Override
    public synchronized void start() {
        codec = spec.codec();
    }

    @Override
    public synchronized void close() {
        gateways.clear();
        forgetStatistics();
    }

    @Override
    public synchronized void handleEventFromOperator(
            int subtask, int attemptNumber, OperatorEvent event) {
        if (!(event instanceof RangeStatisticsEvent)) {
            throw new IllegalArgumentException(
                    "Unexpected event " + event + " for range coordinator " + operatorName);
        }
        RangeStatisticsEvent report = (RangeStatisticsEvent) event;
        if (report.checkpointId <= state.checkpointId()) {
            return;
        }
        Map<Integer, RangeStatisticsEvent> round =
                rounds.computeIfAbsent(report.checkpointId, id -> new HashMap<>());
        round.put(subtask, report);
        if (round.size() >= context.currentParallelism()) {
            complete(report.checkpointId, round);
            rounds.headMap(report.checkpointId, true).clear();
        }
    }

    private void complete(long checkpointId, Map<Integer, RangeStatisticsEvent> round) {
        for (RangeStatisticsEvent report : round.values()) {
            pooledRecords += report.records;
            if (report.sample.isEmpty()) {
                continue;
            }
            double weight = (double) report.records / report.sample.size();
            for (byte[] key : report.sample) {
                pool.add(new RangeBoundaries.WeightedKey(codec.decode(key), weight));
            }
        }
        if (pool.isEmpty() || pooledRecords < spec.sampleSize()) {
            return;
        }
        List<RangeBoundaries.WeightedKey> samples = List.copyOf(pool);
        long records = pooledRecords;
        pool.clear();
        pooledRecords = 0;
        List<SortKey> boundaries =
                RangeBoundaries.compute(
                        samples, spec.writers(), spec.baseWeight(), codec.comparator());
        List<byte[]> encoded = new ArrayList<>(boundaries.size());
        boundaries.forEach(key -> encoded.add(codec.encode(key)));
        state = new RangeCoordinatorState(checkpointId, spec.writers(), encoded);
        LOG.info(
                "{}: range boundaries {} for {} writers from {} records ({} sampled) up to"
                        + " checkpoint {}",
                operatorName,
                boundaries,
                spec.writers(),
                records,
                samples.size(),
                checkpointId);
        gateways.values().forEach(this::send);
    }

    /** Drops incomplete rounds and the pool (a restore starts collecting statistics anew). */
    private void forgetStatistics() {
        rounds.clear();
        pool.clear();
        pooledRecords = 0;
    }

    private void send(SubtaskGateway gateway) {
        if (state.isEmpty()) {
            return;
        }
        gateway.sendEvent(new RangeBoundariesEvent(state.checkpointId(), state.boundaries()))
                .whenComplete(
                        (ack, failure) -> {
                            if (failure != null) {
                                LOG.debug(
                                        "{}: boundaries not delivered to subtask {} (it will get"
                                                + " them when it is ready again)",
                                        operatorName,
                                        gateway.getSubtask(),
                                        failure);
                            }
                        });
    }

    @Override
    public synchronized void checkpointCoordinator(
            long checkpointId, CompletableFuture<byte[]> result) {
        try {
            result.complete(
                    SimpleVersionedSerialization.writeVersionAndSerialize(serializer, state));
        } catch (Exception e) {
            result.completeExceptionally(e);
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {}

    @Override
    public synchronized void resetToCheckpoint(long checkpointId, byte[] checkpointData)
            throws Exception {
        forgetStatistics();
        if (checkpointData == null) {
            state = RangeCoordinatorState.EMPTY;
            return;
        }
        RangeCoordinatorState restored =
                SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, checkpointData);
        if (restored.writers() != spec.writers()) {
            LOG.info(
                    "{}: restored range boundaries were computed for {} writers, now {}; waiting"
                            + " for new statistics",
                    operatorName,
                    restored.writers(),
                    spec.writers());
            state = RangeCoordinatorState.EMPTY;
        } else {
            state = restored;
        }
    }

    @Override
    public synchronized void subtaskReset(int subtask, long checkpointId) {}

    @Override
    public synchronized void executionAttemptFailed(
            int subtask, int attemptNumber, Throwable reason) {
        gateways.remove(subtask);
    }

    @Override
    public synchronized void executionAttemptReady(
            int subtask, int attemptNumber, SubtaskGateway gateway) {
        gateways.put(subtask, gateway);
        send(gateway);
    }

    /** The current state (tests). */
    synchronized RangeCoordinatorState state() {
        return state;
    }

    /** Creates the coordinator on the JobManager. */
    static final class Provider implements OperatorCoordinator.Provider {

        private static final long serialVersionUID = 1L;

        private final OperatorID operatorId;
        private final RangeSpec spec;
        private final String operatorName;

        Provider(OperatorID operatorId, RangeSpec spec, String operatorName) {
            this.operatorId = operatorId;
            this.spec = spec;
            this.operatorName = operatorName;
        }

        @Override
        public OperatorID getOperatorId() {
            return operatorId;
        }

        @Override
        public OperatorCoordinator create(Context context) {
            return new RangeStatisticsCoordinator(context, spec, operatorName);
        }
    }
}
