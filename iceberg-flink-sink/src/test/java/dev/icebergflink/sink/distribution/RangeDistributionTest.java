package dev.icebergflink.sink.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.sink.GoldenFiles;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.metrics.groups.OperatorCoordinatorMetricGroup;
import org.apache.flink.runtime.checkpoint.CheckpointCoordinator;
import org.apache.flink.runtime.executiongraph.ExecutionAttemptID;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.messages.Acknowledge;
import org.apache.flink.runtime.operators.coordination.CoordinatorStore;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortKey;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** Range boundaries, key codec, coordinator and its state serializer, without a cluster. */
class RangeDistributionTest {

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "data", Types.StringType.get()));
    private static final SortOrder BY_ID = SortOrder.builderFor(SCHEMA).asc("id").build();
    private static final SortOrder BY_DATA_DESC =
            SortOrder.builderFor(SCHEMA).desc("data").asc("id").build();
    private static final SortKeyCodec CODEC = new SortKeyCodec(SCHEMA, BY_ID);

    private static SortKey id(long value) {
        SortKey key = CODEC.newKey();
        key.set(0, value);
        return key;
    }

    /** 80% of the rows have ids in [0, 1000), the rest in [1000, 1_000_000); seeded. */
    private static List<RangeBoundaries.WeightedKey> skewedSample(int size, long seed) {
        Random random = new Random(seed);
        List<RangeBoundaries.WeightedKey> samples = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            long value =
                    random.nextInt(10) < 8 ? random.nextInt(1000) : 1000 + random.nextInt(999_000);
            samples.add(new RangeBoundaries.WeightedKey(id(value), 1.0));
        }
        return samples;
    }

    @Test
    void boundariesSplitASkewedDistributionIntoEqualShares() {
        List<SortKey> keys =
                RangeBoundaries.compute(skewedSample(4000, 1), 4, 0.0, CODEC.comparator());
        assertThat(keys).hasSize(3);
        RangeBoundaries boundaries = new RangeBoundaries(keys, CODEC.comparator());
        // route a fresh skewed population: every writer gets about a quarter
        int[] perWriter = new int[4];
        long counter = 0;
        for (RangeBoundaries.WeightedKey row : skewedSample(40_000, 2)) {
            perWriter[boundaries.route(row.key, counter++)]++;
        }
        for (int count : perWriter) {
            assertThat(count).isBetween(8_500, 11_500);
        }
        // the three lower writers share the hot range [0, 1000)
        assertThat(keys.get(2).get(0, Long.class)).isLessThan(1000L);
        // ranges are ordered: a larger key never goes to a lower writer
        assertThat(boundaries.route(id(-5), 0)).isZero();
        assertThat(boundaries.route(id(999_999), 0)).isEqualTo(3);
    }

    @Test
    void aHotKeyIsSpreadOverSeveralWriters() {
        // key 7 has 700 of 1000 records: 2.8 writers' shares of 4
        List<RangeBoundaries.WeightedKey> samples = new ArrayList<>();
        samples.add(new RangeBoundaries.WeightedKey(id(7), 700));
        for (long i = 100; i < 400; i++) {
            samples.add(new RangeBoundaries.WeightedKey(id(i), 1));
        }
        List<SortKey> keys = RangeBoundaries.compute(samples, 4, 0.0, CODEC.comparator());
        assertThat(keys).extracting(k -> k.get(0, Long.class)).containsExactly(7L, 7L, 149L);
        RangeBoundaries boundaries = new RangeBoundaries(keys, CODEC.comparator());
        Map<Integer, Integer> writers = new HashMap<>();
        for (long c = 0; c < 300; c++) {
            writers.merge(boundaries.route(id(7), c), 1, Integer::sum);
        }
        // spread over the writers 0 to 2
        assertThat(writers)
                .containsOnlyKeys(0, 1, 2)
                .allSatisfy((w, n) -> assertThat(n).isEqualTo(100));
        assertThat(boundaries.route(id(300), 0)).isEqualTo(3);
    }

    @Test
    void baseWeightSpreadsLowCardinalityKeys() {
        // two keys, one ten times heavier: without base weight the light key shares a writer
        List<RangeBoundaries.WeightedKey> samples =
                List.of(
                        new RangeBoundaries.WeightedKey(id(1), 1000),
                        new RangeBoundaries.WeightedKey(id(2), 100),
                        new RangeBoundaries.WeightedKey(id(3), 100));
        assertThat(RangeBoundaries.compute(samples, 2, 0.0, CODEC.comparator()))
                .extracting(k -> k.get(0, Long.class))
                .containsExactly(1L);
        // a base weight of a whole writer's share per key moves the split towards the light keys
        assertThat(RangeBoundaries.compute(samples, 3, 1.0, CODEC.comparator()))
                .extracting(k -> k.get(0, Long.class))
                .containsExactly(1L, 2L);
        assertThat(RangeBoundaries.compute(samples, 3, 0.0, CODEC.comparator()))
                .extracting(k -> k.get(0, Long.class))
                .containsExactly(1L, 1L);
    }

    @Test
    void theCodecRoundTripsKeysAndKeepsTheSortOrder() {
        SortKeyCodec codec = new SortKeyCodec(SCHEMA, BY_DATA_DESC);
        SortKey a = codec.newKey();
        a.set(0, "b");
        a.set(1, 1L);
        SortKey b = codec.newKey();
        b.set(0, null);
        b.set(1, 2L);
        SortKey decodedA = codec.decode(codec.encode(a));
        SortKey decodedB = codec.decode(codec.encode(b));
        assertThat(codec.comparator().compare(decodedA, a)).isZero();
        assertThat(decodedB.get(0, Object.class)).isNull();
        assertThat(decodedB.get(1, Long.class)).isEqualTo(2L);
        SortKey c = codec.newKey();
        c.set(0, "a");
        c.set(1, 0L);
        // descending data: "b" before "a"
        assertThat(codec.comparator().compare(decodedA, codec.decode(codec.encode(c))))
                .isNegative();
    }

    @Test
    void theCoordinatorWaitsForEverySubtaskThenBroadcastsAndCheckpointsTheBoundaries()
            throws Exception {
        RangeSpec spec =
                new RangeSpec(
                        SCHEMA,
                        BY_ID,
                        RowType.of(
                                new org.apache.flink.table.types.logical.BigIntType(false),
                                new org.apache.flink.table.types.logical.VarCharType()),
                        2,
                        100,
                        0.0);
        RangeStatisticsCoordinator coordinator =
                new RangeStatisticsCoordinator(new TestingContext(2), spec, "stats");
        coordinator.start();
        TestingGateway zero = new TestingGateway(0);
        TestingGateway one = new TestingGateway(1);
        coordinator.executionAttemptReady(0, 0, zero);
        coordinator.executionAttemptReady(1, 0, one);

        // round 1 stands for 60 records, fewer than the sample size (100): no boundaries yet
        coordinator.handleEventFromOperator(0, 0, report(1, 0, 30));
        coordinator.handleEventFromOperator(1, 0, report(1, 100, 130));
        assertThat(zero.events).isEmpty();
        // round 2 completes only when every subtask reported; the pool then holds 120 records
        coordinator.handleEventFromOperator(0, 0, report(2, 30, 60));
        assertThat(zero.events).isEmpty();
        coordinator.handleEventFromOperator(1, 0, report(2, 130, 160));
        assertThat(zero.events).hasSize(1);
        assertThat(one.events).hasSize(1);
        RangeBoundariesEvent sent = (RangeBoundariesEvent) one.events.get(0);
        assertThat(sent.checkpointId).isEqualTo(2);
        // keys 0..59 and 100..159: the median splits the two halves
        assertThat(CODEC.decode(sent.boundaries.get(0)).get(0, Long.class)).isBetween(57L, 102L);

        CompletableFuture<byte[]> checkpoint = new CompletableFuture<>();
        coordinator.checkpointCoordinator(3, checkpoint);
        RangeStatisticsCoordinator restored =
                new RangeStatisticsCoordinator(new TestingContext(2), spec, "stats");
        restored.start();
        restored.resetToCheckpoint(3, checkpoint.get());
        assertThat(restored.state()).isEqualTo(coordinator.state());
        // a subtask that becomes ready gets the restored boundaries at once
        TestingGateway again = new TestingGateway(0);
        restored.executionAttemptReady(0, 1, again);
        assertThat(again.events).hasSize(1);
        // an older report than the boundaries is ignored; a reset without data clears them
        restored.handleEventFromOperator(0, 1, report(2, 0, 10));
        restored.resetToCheckpoint(4, null);
        assertThat(restored.state().isEmpty()).isTrue();
    }

    private static RangeStatisticsEvent report(long checkpoint, long from, long to) {
        List<byte[]> sample = new ArrayList<>();
        for (long i = from; i < to; i++) {
            sample.add(CODEC.encode(id(i)));
        }
        return new RangeStatisticsEvent(checkpoint, to - from, sample);
    }

    /**
     * Golden bytes of the coordinator state, format version 1. Regenerate (only for a NEW version,
     * as a new file) with {@code -Dgolden.regenerate=true} from the module directory.
     */
    @Test
    void coordinatorStateVersion1IsStable() throws IOException {
        RangeCoordinatorStateSerializer serializer = new RangeCoordinatorStateSerializer();
        RangeCoordinatorState state =
                new RangeCoordinatorState(
                        42L, 3, List.of(CODEC.encode(id(10)), CODEC.encode(id(2000))));
        assertThat(serializer.getVersion()).isEqualTo(RangeCoordinatorStateSerializer.VERSION_1);
        byte[] golden =
                GoldenFiles.assertGolden("range-coordinator-state", 1, serializer.serialize(state));
        RangeCoordinatorState read = serializer.deserialize(1, golden);
        assertThat(read).isEqualTo(state);
        assertThat(CODEC.decode(read.boundaries().get(1)).get(0, Long.class)).isEqualTo(2000L);
        assertThat(
                        SimpleVersionedSerialization.readVersionAndDeSerialize(
                                serializer,
                                SimpleVersionedSerialization.writeVersionAndSerialize(
                                        serializer, state)))
                .isEqualTo(state);
    }

    /** A coordinator context that only knows its parallelism. */
    private static final class TestingContext implements OperatorCoordinator.Context {
        private final int parallelism;

        TestingContext(int parallelism) {
            this.parallelism = parallelism;
        }

        // Declared by Flink 2.x only (no @Override, so that it compiles on Flink 1.20 as well).
        public JobID getJobID() {
            return new JobID();
        }

        @Override
        public OperatorID getOperatorId() {
            return new OperatorID();
        }

        @Override
        public OperatorCoordinatorMetricGroup metricGroup() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void failJob(Throwable cause) {
            throw new AssertionError("failJob", cause);
        }

        @Override
        public int currentParallelism() {
            return parallelism;
        }

        @Override
        public ClassLoader getUserCodeClassloader() {
            return getClass().getClassLoader();
        }

        @Override
        public CoordinatorStore getCoordinatorStore() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isConcurrentExecutionAttemptsSupported() {
            return false;
        }

        @Override
        public CheckpointCoordinator getCheckpointCoordinator() {
            return null;
        }
    }

    /** Records the events sent to one subtask. */
    private static final class TestingGateway implements OperatorCoordinator.SubtaskGateway {
        final List<OperatorEvent> events = new ArrayList<>();
        private final int subtask;

        TestingGateway(int subtask) {
            this.subtask = subtask;
        }

        @Override
        public CompletableFuture<Acknowledge> sendEvent(OperatorEvent event) {
            events.add(event);
            return CompletableFuture.completedFuture(Acknowledge.get());
        }

        @Override
        public ExecutionAttemptID getExecution() {
            throw new UnsupportedOperationException();
        }

        @Override
        public int getSubtask() {
            return subtask;
        }
    }
}
