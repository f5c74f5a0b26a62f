package dev.icebergflink.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.source.assigner.SimpleSplitAssignerFactory;
import dev.icebergflink.source.event.LimitReachedEvent;
import dev.icebergflink.source.planning.PlanningResult;
import dev.icebergflink.source.planning.ScanCursor;
import dev.icebergflink.source.planning.SnapshotPosition;
import dev.icebergflink.source.planning.SplitPage;
import dev.icebergflink.source.planning.SplitPageSource;
import dev.icebergflink.source.split.IcebergSourceSplit;
import dev.icebergflink.source.split.TestingSplits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;
import org.apache.flink.metrics.testutils.MetricListener;
import org.apache.flink.runtime.metrics.groups.InternalSplitEnumeratorMetricGroup;
import org.junit.jupiter.api.Test;

/**
 * The enumerators' exact limit (one reader gets every split, the read ends when it reports the
 * limit), paged scans over a scripted page source (pending splits bounded by the page size, the
 * cursor checkpointed), and the enumerator metrics.
 */
class LimitAndPagingEnumeratorTest {

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

    private static boolean toldNoMore(
            TestingSplitEnumeratorContext<IcebergSourceSplit> context, int subtask) {
        var state = context.getSplitAssignments().get(subtask);
        return state != null && state.hasReceivedNoMoreSplitsSignal();
    }

    /** Flink's testing context with its metrics visible through a {@link MetricListener}. */
    private static final class MeteredContext
            extends TestingSplitEnumeratorContext<IcebergSourceSplit> {
        final MetricListener metrics = new MetricListener();
        private final SplitEnumeratorMetricGroup group =
                new InternalSplitEnumeratorMetricGroup(metrics.getMetricGroup());

        MeteredContext(int parallelism) {
            super(parallelism);
        }

        @Override
        public SplitEnumeratorMetricGroup metricGroup() {
            return group;
        }

        long assignedSplits() {
            return metrics.getCounter("enumerator", "assignedSplits").orElseThrow().getCount();
        }

        Object gauge(String name) {
            return metrics.getGauge("enumerator", name).orElseThrow().getValue();
        }
    }

    @Test
    void limitedBoundedReadGivesEverySplitToOneReader() {
        var context = new MeteredContext(3);
        List<IcebergSourceSplit> planned = splits("s", 3);
        var enumerator =
                new StaticIcebergEnumerator(
                        context,
                        new SimpleSplitAssignerFactory().createAssigner(),
                        () -> new PlanningResult(null, new SnapshotPosition(1L, 1L), planned, 1L),
                        null,
                        EnumeratorSettings.none().limitedTo(100));
        for (int i = 0; i < 3; i++) {
            context.registerReader(i, "h" + i);
        }
        enumerator.start();
        context.triggerAllActions();
        enumerator.handleSplitRequest(2, "h2"); // the first to ask reads everything
        enumerator.handleSplitRequest(0, "h0");
        enumerator.handleSplitRequest(1, "h1");
        assertThat(assigned(context, 2)).containsExactly(planned.get(0));
        assertThat(toldNoMore(context, 0)).isTrue();
        assertThat(toldNoMore(context, 1)).isTrue();
        assertThat(assigned(context, 0)).isEmpty();

        // The reader fails: its split goes back and the next reader to ask takes over.
        enumerator.addSplitsBack(List.of(planned.get(0)), 2);
        enumerator.addReader(2);
        enumerator.handleSplitRequest(2, "h2");
        enumerator.handleSplitRequest(2, "h2");
        enumerator.handleSplitRequest(2, "h2");
        assertThat(assigned(context, 2))
                .containsExactly(planned.get(0), planned.get(0), planned.get(1), planned.get(2));
        enumerator.handleSplitRequest(2, "h2");
        assertThat(toldNoMore(context, 2)).isTrue();
        assertThat(context.assignedSplits()).isEqualTo(4);
        assertThat(context.gauge("pendingSplits")).isEqualTo(0);
    }

    @Test
    void limitReachedEndsAStreamingReadForEveryReader() {
        var context = new TestingSplitEnumeratorContext<IcebergSourceSplit>(2);
        List<SnapshotPosition> asked = new ArrayList<>();
        var enumerator =
                new ContinuousIcebergEnumerator(
                        context,
                        new SimpleSplitAssignerFactory().createAssigner(),
                        last -> {
                            asked.add(last);
                            long id = asked.size();
                            return new PlanningResult(
                                    last,
                                    new SnapshotPosition(id, id),
                                    splits("r" + id + "-", 2),
                                    id);
                        },
                        null,
                        Duration.ofMillis(10),
                        3,
                        EnumeratorSettings.none().limitedTo(5));
        context.registerReader(0, "h0");
        context.registerReader(1, "h1");
        enumerator.start();
        context.getExecutorService().triggerPeriodicScheduledTasks();
        context.triggerAllActions();
        enumerator.handleSplitRequest(0, "h0");
        enumerator.handleSplitRequest(1, "h1");
        assertThat(assigned(context, 0)).hasSize(1);
        assertThat(toldNoMore(context, 1)).isTrue();
        assertThat(toldNoMore(context, 0)).isFalse();

        enumerator.handleSourceEvent(0, new LimitReachedEvent());
        assertThat(toldNoMore(context, 0)).isTrue();
        int rounds = asked.size();
        context.getExecutorService().triggerPeriodicScheduledTasks();
        context.triggerAllActions();
        assertThat(asked).hasSize(rounds); // planning stopped
        enumerator.handleSplitRequest(0, "h0");
        assertThat(assigned(context, 0)).hasSize(1);
    }

    @Test
    void limitZeroEndsAtOnce() {
        var context = new TestingSplitEnumeratorContext<IcebergSourceSplit>(1);
        var enumerator =
                new StaticIcebergEnumerator(
                        context,
                        new SimpleSplitAssignerFactory().createAssigner(),
                        () ->
                                new PlanningResult(
                                        null, new SnapshotPosition(1L, 1L), splits("s", 2), 1L),
                        null,
                        EnumeratorSettings.none().limitedTo(0));
        context.registerReader(0, "h0");
        enumerator.start();
        context.triggerAllActions();
        enumerator.handleSplitRequest(0, "h0");
        assertThat(assigned(context, 0)).isEmpty();
        assertThat(toldNoMore(context, 0)).isTrue();
    }

    /** A scan of {@code total} scripted splits served page by page, recording the requests. */
    private static final class ScriptedPages implements SplitPageSource {
        final List<IcebergSourceSplit> all;
        final List<ScanCursor> asked = new ArrayList<>();

        ScriptedPages(int total) {
            this.all = splits("p", total);
        }

        @Override
        public SplitPage nextPage(ScanCursor cursor, int maxSplits) {
            asked.add(cursor);
            int from = (int) cursor.producedSplits();
            int to = Math.min(all.size(), from + maxSplits);
            List<IcebergSourceSplit> page = all.subList(from, to);
            ScanCursor next =
                    to == all.size()
                            ? null
                            : cursor.advancedBy(page.size(), page.get(page.size() - 1).splitId());
            return new SplitPage(page, next);
        }
    }

    @Test
    void pagedScanKeepsAtMostAPagePendingAndCheckpointsItsCursor() throws Exception {
        var context = new MeteredContext(1);
        ScriptedPages pages = new ScriptedPages(25);
        ScanCursor start = ScanCursor.tableScan(7L);
        var enumerator =
                new StaticIcebergEnumerator(
                        context,
                        new SimpleSplitAssignerFactory().createAssigner(),
                        () ->
                                new PlanningResult(
                                        null, new SnapshotPosition(7L, 70L), List.of(), 70L, start),
                        null,
                        EnumeratorSettings.none().pagedBy(pages, 10, null));
        context.registerReader(0, "h0");
        enumerator.start();
        context.triggerAllActions();
        var state = enumerator.snapshotState(1);
        assertThat(state.pendingSplits()).hasSize(10);
        assertThat(state.pagedScan()).isEqualTo(start.advancedBy(10, pages.all.get(9).splitId()));
        assertThat(context.gauge("pendingSplits")).isEqualTo(10);

        int checkpoints = 0;
        while (!toldNoMore(context, 0)) {
            enumerator.handleSplitRequest(0, "h0");
            context.triggerAllActions();
            IcebergEnumeratorState checkpoint = enumerator.snapshotState(++checkpoints);
            assertThat(checkpoint.pendingSplits().size()).isLessThanOrEqualTo(10);
            assertThat(checkpoint.position()).isEqualTo(new SnapshotPosition(7L, 70L));
        }
        assertThat(assigned(context, 0)).isEqualTo(pages.all);
        assertThat(enumerator.snapshotState(99).pagedScan()).isNull();
        // pages were asked for when at most half a page was pending, each up to a full pool
        assertThat(pages.asked.stream().map(ScanCursor::producedSplits).toList())
                .containsExactly(0L, 10L, 15L, 20L);
        assertThat(context.assignedSplits()).isEqualTo(25);
    }

    @Test
    void restoredPagedScanGoesOnFromItsCursor() throws Exception {
        ScriptedPages pages = new ScriptedPages(12);
        ScanCursor cursor = ScanCursor.tableScan(7L).advancedBy(8, pages.all.get(7).splitId());
        var context = new TestingSplitEnumeratorContext<IcebergSourceSplit>(1);
        var enumerator =
                new StaticIcebergEnumerator(
                        context,
                        new SimpleSplitAssignerFactory().createAssigner(pages.all.subList(6, 8)),
                        () -> {
                            throw new AssertionError("planned again");
                        },
                        new SnapshotPosition(7L, 70L),
                        EnumeratorSettings.none().pagedBy(pages, 10, cursor));
        context.registerReader(0, "h0");
        enumerator.start();
        context.triggerAllActions();
        while (!toldNoMore(context, 0)) {
            enumerator.handleSplitRequest(0, "h0");
            context.triggerAllActions();
        }
        assertThat(assigned(context, 0)).isEqualTo(pages.all.subList(6, 12));
        assertThat(pages.asked).containsExactly(cursor);
    }

    @Test
    void continuousReadPagesItsFirstScanBeforePlanningIncrements() throws Exception {
        var context = new MeteredContext(1);
        ScriptedPages pages = new ScriptedPages(6);
        List<SnapshotPosition> asked = new ArrayList<>();
        var enumerator =
                new ContinuousIcebergEnumerator(
                        context,
                        new SimpleSplitAssignerFactory().createAssigner(),
                        last -> {
                            asked.add(last);
                            if (last == null) {
                                return new PlanningResult(
                                        null,
                                        new SnapshotPosition(1L, 1000L),
                                        List.of(),
                                        1000L,
                                        ScanCursor.tableScan(1L));
                            }
                            return new PlanningResult(
                                    last, new SnapshotPosition(2L, 2000L), splits("i", 1), 5000L);
                        },
                        null,
                        Duration.ofMillis(10),
                        3,
                        EnumeratorSettings.none().pagedBy(pages, 4, null));
        context.registerReader(0, "h0");
        enumerator.start();
        context.getExecutorService().triggerPeriodicScheduledTasks();
        context.triggerAllActions();
        assertThat(enumerator.snapshotState(1).pendingSplits()).hasSize(4);
        context.getExecutorService().triggerPeriodicScheduledTasks();
        context.triggerAllActions();
        assertThat(asked).hasSize(1); // no increments while the scan is paged
        for (int i = 0; i < 6; i++) {
            enumerator.handleSplitRequest(0, "h0");
            context.triggerAllActions();
        }
        assertThat(assigned(context, 0)).isEqualTo(pages.all);
        assertThat(enumerator.snapshotState(2).pagedScan()).isNull();
        context.getExecutorService().triggerPeriodicScheduledTasks();
        context.triggerAllActions();
        assertThat(asked).hasSize(2);
        assertThat(context.gauge("pendingSplits")).isEqualTo(1);
        assertThat(context.gauge("enumerationLagMs")).isEqualTo(3000L);
        assertThat(context.assignedSplits()).isEqualTo(6);
    }
}
