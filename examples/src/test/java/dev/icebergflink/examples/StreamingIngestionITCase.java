package dev.icebergflink.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class StreamingIngestionITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = ExampleTesting.miniCluster();

    private static final long EVENTS = 2_000;

    @TempDir Path warehouse;

    @Test
    void writesTheGeneratedEventsIntoAPartitionedTableOneSnapshotPerCheckpoint() throws Exception {
        ExampleTesting.Output output = new ExampleTesting.Output();
        List<String> base = ExampleTesting.catalogArgs(warehouse);

        StreamingIngestion.run(
                ExampleTesting.args(
                        base,
                        "--events",
                        String.valueOf(EVENTS),
                        "--events-per-second",
                        "2000",
                        "--checkpoint-interval",
                        "300ms",
                        "--parallelism",
                        "2"),
                output.stream);

        Table table = ExampleTesting.loadTable(warehouse, "examples.events");
        assertThat(table.spec()).isEqualTo(GeneratedEvents.SPEC);
        assertThat(TableUtil.formatVersion(table)).isEqualTo(2);

        // Exactly the generated events, each one once.
        Map<Long, Record> byId = ExampleTesting.recordsById(table);
        assertThat(byId).hasSize((int) EVENTS);
        LocalDateTime start = LocalDateTime.of(2026, 1, 1, 0, 0);
        for (long id = 0; id < EVENTS; id++) {
            Record record = byId.get(id);
            assertThat(record.getField("category"))
                    .isEqualTo(GeneratedEvents.CATEGORIES[(int) (id % 4)]);
            assertThat(record.getField("amount")).isEqualTo(GeneratedEvents.amountOf(id));
            assertThat(record.getField("ts")).isEqualTo(start.plusSeconds(id * 37));
        }

        // Every data file holds one category, the one of its partition.
        Map<String, Long> rowsPerPartition = new HashMap<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                DataFile file = task.file();
                rowsPerPartition.merge(
                        file.partition().get(0, String.class), file.recordCount(), Long::sum);
            }
        }
        assertThat(rowsPerPartition)
                .containsOnlyKeys(GeneratedEvents.CATEGORIES)
                .allSatisfy((category, rows) -> assertThat(rows).isEqualTo(EVENTS / 4));

        // Every commit came from a checkpoint.
        assertThat(table.snapshots())
                .isNotEmpty()
                .allSatisfy(
                        snapshot ->
                                assertThat(snapshot.summary())
                                        .containsKey("flink.max-committed-checkpoint-id"));

        assertThat(output.text())
                .contains("Created table examples.events in catalog examples")
                .contains("Done: examples.events holds 2000 rows");
    }
}
