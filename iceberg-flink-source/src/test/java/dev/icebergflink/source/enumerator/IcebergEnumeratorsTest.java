package dev.icebergflink.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.source.assigner.SimpleSplitAssignerFactory;
import dev.icebergflink.source.planning.PlanningResult;
import dev.icebergflink.source.planning.SnapshotPosition;
import dev.icebergflink.source.planning.UnrecoverablePlanningException;
import dev.icebergflink.source.split.IcebergSourceSplit;
import dev.icebergflink.source.split.TestingSplits;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.junit.jupiter.api.Test;

/**
 * The bounded and continuous enumerators with Flink's {@link TestingSplitEnumeratorContext} and a
 * scripted planner: pull-based assignment, splits of failed readers, end of input, checkpointed
 * state, failure counting and throttling.
 */
class IcebergEnumeratorsTest {

    private static List<IcebergSourceSplit> splits(String prefix, int count) {
        List<IcebergSourceSplit> splits = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            splits.add(TestingSplits.split(prefix + i).withPosition(0, 0));
        }
        return splits;
    }

    private static List<IcebergSourceSplit> assigned(
            TestingSplitEnumeratorContext<IcebergSourceSplit> context, int subtask) {
        var state = context.getSplitAssignments().get(subtask);
        return state == null ? List.of() : state.getAssignedSplits();
    }

    @Test
    void staticEnumeratorAssignsOnRequestAndSignalsTheEnd() throws Exception {
        var context = new TestingSplitEnumeratorContext<IcebergSourceSplit>(2);
        List<IcebergSourceSplit> planned = splits("s", 3);
        var enumerator =
                new StaticIcebergEnumerator(
                        context,
                        new SimpleSplitAssignerFactory().createAssigner(),
                        () -> new PlanningResult(null, new SnapshotPosition(1L, 1L), planned, 1L),
                        null,
                        EnumeratorSettings.none());
        context.registerReader(0, "h0");
        context.registerReader(1, "h1");
        enumerator.start();
        enumerator.handleSplitRequest(0, "h0");
        assertThat(assigned(context, 0)).isEmpty(); // planning has not run yet
        context.triggerAllActions();
        assertThat(assigned(context, 0)).containsExactly(planned.get(0));

        enumerator.handleSplitRequest(1, "h1");
        enumerator.handleSplitRequest(0, "h0");
        assertThat(assigned(context, 1)).containsExactly(planned.get(1));
        assertThat(assigned(context, 0)).containsExactly(planned.get(0), planned.get(2));

        // Reader 1 fails: its split goes back and is handed out again.
        enumerator.addSplitsBack(List.of(planned.get(1)), 1);
        assertThat(enumerator.snapshotState(1).pendingSplits()).containsExactly(planned.get(1));
        enumerator.handleSplitRequest(0, "h0");
        assertThat(assigned(context, 0)).hasSize(3).endsWith(planned.get(1));
        enumerator.handleSplitRequest(0, "h0");
        assertThat(context.getSplitAssignments().get(0).hasReceivedNoMoreSplitsSignal()).isTrue();
        assertThat(enumerator.metrics.assignedSplitCount()).isEqualTo(4);
    }

    @Test
    void restoredStaticEnumeratorDoesNotPlanAgain() throws Exception {
        var context = new TestingSplitEnumeratorContext<IcebergSourceSplit>(1);
        List<IcebergSourceSplit> pending = splits("p", 1);
        var enumerator =
                new StaticIcebergEnumerator(
                        context,
                        new SimpleSplitAssignerFactory().createAssigner(pending),
                        () -> {
                            throw new AssertionError("planned again");
                        },
                        new SnapshotPosition(5L, 5L),
                        EnumeratorSettings.none());
        context.registerReader(0, "h");
        enumerator.start();
        context.triggerAllActions();
        enumerator.handleSplitRequest(0, "h");
        enumerator.handleSplitRequest(0, "h");
        assertThat(assigned(context, 0)).containsExactly(pending.get(0));
        assertThat(context.getSplitAssignments().get(0).hasReceivedNoMoreSplitsSignal()).isTrue();
    }

    /** A planner playing back results and failures, recording the positions it was asked for. */
    private static final class ScriptedDiscovery implements ContinuousIcebergEnumerator.Discovery {
        final Deque<Object> script = new ArrayDeque<>();
        final List<SnapshotPosition> asked = new ArrayList<>();

        @Override
        public PlanningResult plan(SnapshotPosition last) throws Exception {
            asked.add(last);
            Object next = script.poll();
            if (next instanceof Exception e) {
                throw e;
            }
            if (next == null) {
                return new PlanningResult(last, last, List.of(), null);
            }
            int count = (Integer) next;
            long id = last == null || last.snapshotId() == null ? 1 : last.snapshotId() + 1;
            return new PlanningResult(
                    last,
                    new SnapshotPosition(id, id * 1000),
                    splits("r" + id + "-", count),
                    id * 1000 + 500);
        }
    }

    private static ContinuousIcebergEnumerator continuous(
            RoundContext context, ScriptedDiscovery discovery, int maxFailures) {
        return continuous(context, discovery, maxFailures, EnumeratorSettings.none());
    }

    private static ContinuousIcebergEnumerator continuous(
            RoundContext context,
            ScriptedDiscovery discovery,
            int maxFailures,
            EnumeratorSettings settings) {
        return new ContinuousIcebergEnumerator(
                context,
                new SimpleSplitAssignerFactory().createAssigner(),
                discovery,
                null,
                Duration.ofSeconds(1),
                maxFailures,
                settings);
    }

    /**
     * Flink's testing context with the periodic planning call captured, so that a test runs one
     * round at a time and sees what the result handler throws (the real coordinator fails the job
     * on it).
     */
    private static final class RoundContext
            extends TestingSplitEnumeratorContext<IcebergSourceSplit> {
        private java.util.concurrent.Callable<Object> call;
        private java.util.function.BiConsumer<Object, Throwable> handler;

        RoundContext(int parallelism) {
            super(parallelism);
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> void callAsync(
                java.util.concurrent.Callable<T> callable,
                java.util.function.BiConsumer<T, Throwable> resultHandler,
                long initialDelay,
                long period) {
            this.call = (java.util.concurrent.Callable<Object>) callable;
            this.handler = (java.util.function.BiConsumer<Object, Throwable>) resultHandler;
        }

        void round() {
            Object result;
            try {
                result = call.call();
            } catch (Throwable t) {
                handler.accept(null, t);
                return;
            }
            handler.accept(result, null);
        }
    }

    private static void round(RoundContext context) {
        context.round();
    }

    @Test
    void continuousEnumeratorAdvancesItsPositionAndCheckpointsIt() throws Exception {
        var context = new RoundContext(1);
        ScriptedDiscovery discovery = new ScriptedDiscovery();
        discovery.script.add(2);
        discovery.script.add(1);
        var enumerator = continuous(context, discovery, 3);
        context.registerReader(0, "h");
        enumerator.start();
        round(context);
        assertThat(enumerator.snapshotState(1).position())
                .isEqualTo(new SnapshotPosition(1L, 1000L));
        assertThat(enumerator.snapshotState(1).pendingSplits()).hasSize(2);
        enumerator.handleSplitRequest(0, "h");
        enumerator.handleSplitRequest(0, "h");
        round(context);
        assertThat(discovery.asked).containsExactly(null, new SnapshotPosition(1L, 1000L));
        assertThat(enumerator.snapshotState(2).position())
                .isEqualTo(new SnapshotPosition(2L, 2000L));
        assertThat(assigned(context, 0)).hasSize(2);
        enumerator.handleSplitRequest(0, "h");
        assertThat(assigned(context, 0)).hasSize(3);
        assertThat(context.getSplitAssignments().get(0).hasReceivedNoMoreSplitsSignal()).isFalse();
    }

    @Test
    void planningPausesWhileReadersFallBehind() throws Exception {
        var context = new RoundContext(1);
        ScriptedDiscovery discovery = new ScriptedDiscovery();
        discovery.script.add(2);
        discovery.script.add(2);
        var enumerator = continuous(context, discovery, 3);
        enumerator.start();
        round(context); // 2 pending, threshold 2
        round(context); // paused: nobody consumed
        assertThat(discovery.asked).hasSize(1);
        context.registerReader(0, "h");
        enumerator.handleSplitRequest(0, "h"); // 1 pending < 2
        round(context);
        assertThat(discovery.asked).hasSize(2);
    }

    @Test
    void failuresAreRetriedUpToTheLimitThenFailTheJob() throws Exception {
        var context = new RoundContext(1);
        ScriptedDiscovery discovery = new ScriptedDiscovery();
        discovery.script.add(new RuntimeException("catalog down"));
        discovery.script.add(0); // success resets the count
        discovery.script.add(new RuntimeException("catalog down"));
        discovery.script.add(new RuntimeException("catalog down"));
        var enumerator = continuous(context, discovery, 1);
        enumerator.start();
        round(context);
        round(context);
        round(context);
        assertThatThrownBy(() -> round(context))
                .hasStackTraceContaining("max-allowed-planning-failures")
                .hasStackTraceContaining("catalog down");
    }

    @Test
    void unrecoverableFailuresFailAtOnce() throws Exception {
        var context = new RoundContext(1);
        ScriptedDiscovery discovery = new ScriptedDiscovery();
        discovery.script.add(new UnrecoverablePlanningException("snapshot 9 is an overwrite"));
        var enumerator = continuous(context, discovery, 10);
        enumerator.start();
        assertThatThrownBy(() -> round(context))
                .isInstanceOf(SuppressRestartsException.class)
                .hasStackTraceContaining("snapshot 9 is an overwrite");
    }

    @Test
    void checkpointsCarryThePinnedTableUuid() throws Exception {
        var context = new RoundContext(1);
        var unpinned = continuous(context, new ScriptedDiscovery(), 1);
        assertThat(unpinned.snapshotState(1).tableUuid()).isNull(); // nothing pinned: unknown
        var fresh =
                continuous(
                        context,
                        new ScriptedDiscovery(),
                        1,
                        EnumeratorSettings.none().pinnedTo("db.t", null, "uuid-now"));
        assertThat(fresh.tableUuid()).isEqualTo("uuid-now");
        assertThat(fresh.snapshotState(2).tableUuid()).isEqualTo("uuid-now");

        var restored =
                continuous(
                        context,
                        new ScriptedDiscovery(),
                        1,
                        EnumeratorSettings.none().pinnedTo("db.t", "uuid-now", "uuid-now"));
        restored.start();
        assertThat(restored.snapshotState(3).tableUuid()).isEqualTo("uuid-now");

        // A state written before UUIDs were kept: the loaded table's is adopted.
        var old =
                continuous(
                        context,
                        new ScriptedDiscovery(),
                        1,
                        EnumeratorSettings.none().pinnedTo("db.t", null, "uuid-now"));
        old.start();
        assertThat(old.snapshotState(4).tableUuid()).isEqualTo("uuid-now");
    }

    @Test
    void restoredContinuousEnumeratorOfAReCreatedTableFailsAtStartAndAssignsNothing() {
        var context = new RoundContext(1);
        ScriptedDiscovery discovery = new ScriptedDiscovery();
        var enumerator =
                new ContinuousIcebergEnumerator(
                        context,
                        new SimpleSplitAssignerFactory().createAssigner(splits("p", 2)),
                        discovery,
                        new SnapshotPosition(5L, 5L),
                        Duration.ofSeconds(1),
                        -1,
                        EnumeratorSettings.none().pinnedTo("hadoop.db.t", "uuid-old", "uuid-new"));
        context.registerReader(0, "h");
        assertThatThrownBy(enumerator::start)
                .isInstanceOf(SuppressRestartsException.class)
                .hasStackTraceContaining("Table hadoop.db.t was dropped and re-created")
                .hasStackTraceContaining("UUID uuid-old")
                .hasStackTraceContaining("now has UUID uuid-new");
        enumerator.handleSplitRequest(0, "h");
        assertThat(assigned(context, 0)).isEmpty();
        assertThat(discovery.asked).isEmpty();
    }

    @Test
    void restoredStaticEnumeratorOfAReCreatedTableFailsAtStart() {
        var context = new TestingSplitEnumeratorContext<IcebergSourceSplit>(1);
        var enumerator =
                new StaticIcebergEnumerator(
                        context,
                        new SimpleSplitAssignerFactory().createAssigner(splits("p", 1)),
                        () -> {
                            throw new AssertionError("planned again");
                        },
                        new SnapshotPosition(5L, 5L),
                        EnumeratorSettings.none().pinnedTo("db.t", "uuid-old", "uuid-new"));
        context.registerReader(0, "h");
        assertThatThrownBy(enumerator::start)
                .isInstanceOf(SuppressRestartsException.class)
                .hasStackTraceContaining("dropped and re-created");
        enumerator.handleSplitRequest(0, "h");
        assertThat(assigned(context, 0)).isEmpty();
    }
}
