package dev.icebergflink.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.TableLoader;
import dev.icebergflink.source.enumerator.IcebergEnumeratorState;
import dev.icebergflink.source.enumerator.IcebergEnumeratorStateSerializer;
import dev.icebergflink.source.split.IcebergSourceSplit;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Paged planning of a real table with a few hundred files through the source's own enumerator, with
 * Flink's testing context: every checkpointed state holds at most a page of splits, and every file
 * is handed out exactly once, also when the enumerator is restored from a serialized checkpoint
 * taken in the middle of the scan (splits assigned after that checkpoint are lost with the failed
 * attempt and must come again).
 */
class PagedPlanningRestoreTest {

    private static final int FILES = 240;
    private static final int PAGE = 10;

    @TempDir Path dir;

    /** Asks for splits with two readers until both are told no more will come. */
    private static final class Run {
        final TestingSplitEnumeratorContext<IcebergSourceSplit> context =
                new TestingSplitEnumeratorContext<>(2);
        final SplitEnumerator<IcebergSourceSplit, IcebergEnumeratorState> enumerator;
        final Map<Integer, Integer> seen = new HashMap<>();

        Run(
                java.util.function.Function<
                                TestingSplitEnumeratorContext<IcebergSourceSplit>,
                                SplitEnumerator<IcebergSourceSplit, IcebergEnumeratorState>>
                        create) {
            this.enumerator = create.apply(context);
            context.registerReader(0, "h0");
            context.registerReader(1, "h1");
        }

        boolean done() {
            return ended(0) && ended(1);
        }

        private boolean ended(int subtask) {
            var state = context.getSplitAssignments().get(subtask);
            return state != null && state.hasReceivedNoMoreSplitsSignal();
        }

        /** One request of {@code subtask}; returns the files of what it was given. */
        List<String> request(int subtask) {
            enumerator.handleSplitRequest(subtask, "h" + subtask);
            context.triggerAllActions();
            var state = context.getSplitAssignments().get(subtask);
            List<IcebergSourceSplit> all = state == null ? List.of() : state.getAssignedSplits();
            int from = seen.getOrDefault(subtask, 0);
            seen.put(subtask, all.size());
            List<String> files = new ArrayList<>();
            for (IcebergSourceSplit split : all.subList(from, all.size())) {
                for (FileScanTask task : split.task().files()) {
                    files.add(task.file().location());
                }
            }
            return files;
        }
    }

    @Test
    void stateHoldsAtMostAPageAndARestoreMidScanReadsEveryFileOnce() throws Exception {
        String location = dir.resolve("t").toString();
        Table table = SourceTestTables.create(location, 2);
        SourceTestTables.appendFiles(table, 0, FILES / 2, 1);
        SourceTestTables.appendFiles(table, FILES / 2, FILES, 1);
        Set<String> allFiles = new TreeSet<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                allFiles.add(task.file().location());
            }
        }
        assertThat(allFiles).hasSize(FILES);

        IcebergSource<RowData> source =
                IcebergSource.forRowData()
                        .tableLoader(TableLoader.fromHadoopTable(location))
                        .splitPlanningPageSize(PAGE)
                        .splitOpenFileCost(128L * 1024 * 1024) // one file per split
                        .build();
        IcebergEnumeratorStateSerializer serializer = source.getEnumeratorCheckpointSerializer();

        Run first = new Run(source::createEnumerator);
        first.enumerator.start();
        first.context.triggerAllActions();
        List<String> read = new ArrayList<>();
        byte[] checkpoint = null;
        long checkpointId = 0;
        int requests = 0;
        while (checkpoint == null) {
            read.addAll(first.request(requests++ % 2));
            IcebergEnumeratorState state = first.enumerator.snapshotState(++checkpointId);
            assertThat(state.pendingSplits().size()).isLessThanOrEqualTo(PAGE);
            if (read.size() >= FILES / 3) {
                assertThat(state.pagedScan())
                        .as("checkpoint in the middle of the scan")
                        .isNotNull();
                checkpoint = serializer.serialize(state);
            }
        }
        // Splits handed out after the checkpoint belong to the attempt that fails.
        for (int i = 0; i < 15; i++) {
            first.request(i % 2);
        }
        first.enumerator.close();

        IcebergEnumeratorState restoredState =
                serializer.deserialize(serializer.getVersion(), checkpoint);
        Run second = new Run(context -> source.restoreEnumerator(context, restoredState));
        second.enumerator.start();
        second.context.triggerAllActions();
        while (!second.done()) {
            read.addAll(second.request(requests++ % 2));
            IcebergEnumeratorState state = second.enumerator.snapshotState(++checkpointId);
            assertThat(state.pendingSplits().size()).isLessThanOrEqualTo(PAGE);
            IcebergEnumeratorState roundTrip =
                    serializer.deserialize(serializer.getVersion(), serializer.serialize(state));
            assertThat(roundTrip.pagedScan()).isEqualTo(state.pagedScan());
        }
        second.enumerator.close();

        assertThat(read).doesNotHaveDuplicates();
        // every file (one row each) exactly once: every row exactly once
        assertThat(new TreeSet<>(read)).isEqualTo(allFiles);
    }
}
