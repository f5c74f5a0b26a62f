package dev.icebergflink.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class StreamingReadITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = ExampleTesting.miniCluster();

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final int ROWS_PER_SNAPSHOT = 8;
    private static final int READ_PARALLELISM = 2;
    private static final RowFormat EVENTS = RowFormat.of(GeneratedEvents.SCHEMA);

    @TempDir Path warehouse;

    @Test
    void printsTheRowsOfEachNewSnapshotAsItIsCommitted() throws Exception {
        TableIdentifier identifier = TableIdentifier.of("shop", "events");
        CatalogLoader catalog = ExampleTesting.catalog(warehouse);
        ExampleTables.createEventsTableIfMissing(catalog, identifier);
        TableLoader loader = TableLoader.fromCatalog(catalog, identifier);
        EventBatch.append(env(), loader.clone(), 0, ROWS_PER_SNAPSHOT);

        ExampleTesting.Output output = new ExampleTesting.Output();
        int snapshots = 3;
        CompletableFuture<Long> reader =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return StreamingRead.run(
                                        ExampleTesting.args(
                                                ExampleTesting.catalogArgs(warehouse),
                                                "--table",
                                                "shop.events",
                                                "--monitor-interval",
                                                "200ms",
                                                // Not all 4 slots (the MiniCluster's default
                                                // parallelism): the append jobs need a free slot
                                                // while the unbounded read runs.
                                                "--parallelism",
                                                String.valueOf(READ_PARALLELISM),
                                                "--max-rows",
                                                String.valueOf(snapshots * ROWS_PER_SNAPSHOT)),
                                        output.stream);
                            } catch (Exception e) {
                                throw new RuntimeException(e);
                            }
                        });
        reader.whenComplete((rows, failure) -> output.wakeUp());

        // The current table first, then each appended snapshot while the job runs.
        awaitRows(output, reader, 0);
        for (int snapshot = 1; snapshot < snapshots; snapshot++) {
            assertThat(output.text()).doesNotContain(line(snapshot * ROWS_PER_SNAPSHOT));
            EventBatch.append(
                    env(), loader.clone(), (long) snapshot * ROWS_PER_SNAPSHOT, ROWS_PER_SNAPSHOT);
            awaitRows(output, reader, snapshot);
        }

        assertThat(reader.get(DEADLINE.toSeconds(), TimeUnit.SECONDS))
                .isEqualTo(snapshots * ROWS_PER_SNAPSHOT);
        assertThat(output.text())
                .contains("Following shop.events (TABLE_SCAN_THEN_INCREMENTAL")
                .contains("Stopped after 24 rows");
        List<String> rowLines = output.text().lines().filter(l -> l.startsWith("+I[")).toList();
        assertThat(rowLines).hasSize(snapshots * ROWS_PER_SNAPSHOT).doesNotHaveDuplicates();
    }

    private static StreamExecutionEnvironment env() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        return env;
    }

    /** How StreamingRead prints the generated event {@code id}. */
    private static String line(long id) {
        return EVENTS.changelogLine(new GeneratedEvents().map(id));
    }

    /** Waits until every row of the snapshot's batch is printed, failing after the deadline. */
    private static void awaitRows(
            ExampleTesting.Output output, CompletableFuture<Long> reader, int snapshot)
            throws InterruptedException {
        long end = System.nanoTime() + DEADLINE.toNanos();
        for (long id = (long) snapshot * ROWS_PER_SNAPSHOT;
                id < (long) (snapshot + 1) * ROWS_PER_SNAPSHOT;
                id++) {
            String expected = line(id) + System.lineSeparator();
            output.await(text -> text.contains(expected) || reader.isDone(), end);
            if (reader.isCompletedExceptionally()) {
                reader.join();
            }
            assertThat(output.text())
                    .as("row %d of snapshot %d within %s", id, snapshot, DEADLINE)
                    .contains(expected);
        }
    }
}
