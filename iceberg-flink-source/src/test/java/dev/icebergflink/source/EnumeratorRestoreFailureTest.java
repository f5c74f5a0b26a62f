package dev.icebergflink.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.TableLoader;
import dev.icebergflink.source.assigner.SimpleSplitAssignerFactory;
import dev.icebergflink.source.assigner.SplitAssigner;
import dev.icebergflink.source.assigner.SplitAssignerFactory;
import dev.icebergflink.source.enumerator.IcebergEnumeratorState;
import dev.icebergflink.source.split.IcebergSourceSplit;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An enumerator whose restore fails (here: the assigner refuses the restored splits) releases what
 * it took before the failure propagates: its table loader is closed and no planning thread of its
 * pool ({@code planParallelism}) stays alive.
 */
class EnumeratorRestoreFailureTest {

    @TempDir Path dir;

    @Test
    void aFailedRestoreClosesItsLoaderAndLeavesNoPlanningThread() throws Exception {
        String location = dir.resolve("restore_fails").toString();
        Table table = SourceTestTables.create(location, 2);
        // one manifest per append: Iceberg plans several manifests on the pool
        for (int i = 0; i < 6; i++) {
            SourceTestTables.appendFiles(table, i, i + 1, 1);
        }
        CountingLoader loader = new CountingLoader(TableLoader.fromHadoopTable(location));

        IcebergSource<RowData> source =
                IcebergSource.forRowData()
                        .tableLoader(loader)
                        .assignerFactory(new RefusingRestoreAssignerFactory())
                        .planParallelism(3)
                        .splitPlanningPageSize(-1)
                        .build();
        TestingSplitEnumeratorContext<IcebergSourceSplit> context =
                new TestingSplitEnumeratorContext<>(1);
        IcebergEnumeratorState state;
        // a first attempt plans on the pool (its threads start) and checkpoints pending splits
        try (SplitEnumerator<IcebergSourceSplit, IcebergEnumeratorState> first =
                source.createEnumerator(context)) {
            first.start();
            context.triggerAllActions();
            state = first.snapshotState(1);
            assertThat(livePlanningThreads()).as("planning ran on the pool").isPositive();
        }
        assertThat(state.pendingSplits()).isNotEmpty();
        awaitNoPlanningThreads();
        int openedBefore = loader.opened.get();
        int closedBefore = loader.closed.get();

        assertThatThrownBy(
                        () ->
                                source.restoreEnumerator(
                                        new TestingSplitEnumeratorContext<>(1), state))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot take the restored splits");

        assertThat(loader.opened.get()).isEqualTo(openedBefore + 1);
        assertThat(loader.closed.get())
                .as("the loader the failed restore opened is closed")
                .isEqualTo(closedBefore + 1);
        awaitNoPlanningThreads();
    }

    /** Waits until the pools' threads have ended (they end soon after a shutdown), or fails. */
    private static void awaitNoPlanningThreads() throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (livePlanningThreads() > 0) {
            assertThat(System.nanoTime())
                    .as("planning threads still alive after 30 s")
                    .isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    private static long livePlanningThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .filter(thread -> thread.getName().startsWith("iceberg-plan-"))
                .count();
    }

    /** Creates FIFO assigners, but refuses to restore one from checkpointed splits. */
    private static final class RefusingRestoreAssignerFactory implements SplitAssignerFactory {
        private final SimpleSplitAssignerFactory simple = new SimpleSplitAssignerFactory();

        @Override
        public SplitAssigner createAssigner() {
            return simple.createAssigner();
        }

        @Override
        public SplitAssigner createAssigner(Collection<IcebergSourceSplit> pendingSplits) {
            throw new IllegalStateException(
                    "This assigner cannot take the restored splits: " + pendingSplits.size());
        }
    }

    /**
     * A table loader that counts how often it and its clones were opened and closed (shared
     * counters; the source clones its loader for every enumerator).
     */
    private static final class CountingLoader implements TableLoader {
        private final TableLoader delegate;
        private final AtomicInteger opened;
        private final AtomicInteger closed;
        private boolean open;

        CountingLoader(TableLoader delegate) {
            this(delegate, new AtomicInteger(), new AtomicInteger());
        }

        private CountingLoader(TableLoader delegate, AtomicInteger opened, AtomicInteger closed) {
            this.delegate = delegate;
            this.opened = opened;
            this.closed = closed;
        }

        @Override
        public void open() {
            if (!open) {
                open = true;
                opened.incrementAndGet();
            }
            delegate.open();
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public Table loadTable() {
            open();
            return delegate.loadTable();
        }

        @Override
        @SuppressWarnings("MethodDoesntCallSuperMethod")
        public TableLoader clone() {
            return new CountingLoader(delegate.clone(), opened, closed);
        }

        @Override
        public void close() throws IOException {
            if (open) {
                open = false;
                closed.incrementAndGet();
            }
            delegate.close();
        }
    }
}
