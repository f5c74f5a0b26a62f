package dev.icebergflink.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QuickStartITCase {

    private static final long EVENTS = 2_000;

    @TempDir Path warehouse;

    @Test
    void writesTheGeneratedEventsAndPrintsTheirSummary() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();

        Table table =
                QuickStart.run(
                        warehouse, EVENTS, new PrintStream(printed, true, StandardCharsets.UTF_8));

        // The table holds exactly the generated events, read through Iceberg's own generic reader.
        Map<Long, Record> byId = new HashMap<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            for (Record record : records) {
                assertThat(byId.put((Long) record.getField("id"), record)).isNull();
            }
        }
        assertThat(byId).hasSize((int) EVENTS);
        for (long id = 0; id < EVENTS; id++) {
            Record record = byId.get(id);
            assertThat(record.getField("category"))
                    .isEqualTo(GeneratedEvents.CATEGORIES[(int) (id % 4)]);
            assertThat(record.getField("amount")).isEqualTo(GeneratedEvents.amountOf(id));
        }
        // One snapshot per checkpoint, each recorded with the checkpoint it commits.
        assertThat(table.snapshots())
                .allSatisfy(
                        s ->
                                assertThat(s.summary())
                                        .containsKey("flink.max-committed-checkpoint-id"));
        assertThat(table.currentSnapshot().summary()).containsEntry("total-records", "2000");

        // The printed summary agrees with the table.
        String output = printed.toString(StandardCharsets.UTF_8);
        BigDecimal booksTotal = BigDecimal.ZERO;
        for (long id = 0; id < EVENTS; id += 4) {
            booksTotal = booksTotal.add(GeneratedEvents.amountOf(id));
        }
        assertThat(output)
                .contains("Ingested 2000 events")
                .contains("committed snapshot")
                .containsPattern(
                        "\\| books +\\|    500 \\| +" + booksTotal.toPlainString() + " \\|");
    }
}
