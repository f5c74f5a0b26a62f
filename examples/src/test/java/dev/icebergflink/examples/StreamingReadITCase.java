package dev.icebergflink.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class StreamingReadITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = ExampleTesting.miniCluster();

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final int ROWS_PER_SNAPSHOT = 8;

    @TempDir Path warehouse;

    @Test
    @Disabled(
            "Hangs: the second EventBatch.append job (run while the streaming read job runs) never"
                    + " finishes; the initial table scan rows do arrive. To investigate (slots?)")
    void printsTheRowsOfEachNewSnapshotAsItIsCommitted() throws Exception {
        TableIdentifier identifier = TableIdentifier.of("shop", "events");
        CatalogLoader catalog =
                CatalogLoader.hadoop(
                        "examples",
                        new org.apache.hadoop.conf.Configuration(),
                        Map.of("warehouse", warehouse.toUri().toString()));
        ExampleTables.createIfMissing(
                catalog, identifier, GeneratedEvents.SCHEMA, GeneratedEvents.SPEC, Map.of());
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
                                                "--max-rows",
                                                String.valueOf(snapshots * ROWS_PER_SNAPSHOT)),
                                        output.stream);
                            } catch (Exception e) {
                                throw new RuntimeException(e);
                            }
                        });

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
        return StreamingRead.format(new GeneratedEvents().map(id), ExampleTestingGetters.EVENTS);
    }

    /** Waits until every row of the snapshot's batch is printed, failing after the deadline. */
    private static void awaitRows(
            ExampleTesting.Output output, CompletableFuture<Long> reader, int snapshot) {
        long end = System.nanoTime() + DEADLINE.toNanos();
        for (long id = (long) snapshot * ROWS_PER_SNAPSHOT;
                id < (long) (snapshot + 1) * ROWS_PER_SNAPSHOT;
                id++) {
            while (!output.text().contains(line(id) + System.lineSeparator())) {
                if (reader.isCompletedExceptionally()) {
                    reader.join();
                }
                assertThat(System.nanoTime())
                        .as(
                                "row %d of snapshot %d within %s; printed:%n%s",
                                id, snapshot, DEADLINE, output.text())
                        .isLessThan(end);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
        }
    }
}
