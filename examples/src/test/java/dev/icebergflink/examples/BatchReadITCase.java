package dev.icebergflink.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class BatchReadITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = ExampleTesting.miniCluster();

    private static final long EVENTS = 1_000;

    @TempDir static Path warehouse;

    @TempDir Path outputDir;

    /** The table BatchRead reads: written by the ingestion example, as a user would. */
    @BeforeAll
    static void ingest() throws Exception {
        StreamingIngestion.run(
                ExampleTesting.args(
                        ExampleTesting.catalogArgs(warehouse),
                        "--table",
                        "shop.orders",
                        "--events",
                        String.valueOf(EVENTS),
                        "--events-per-second",
                        "0",
                        "--checkpoint-interval",
                        "1s"),
                new ExampleTesting.Output().stream);
    }

    @Test
    void printsTheRowCountAndTheSummaryPerCategory() throws Exception {
        ExampleTesting.Output output = new ExampleTesting.Output();

        List<CategorySummary> summary =
                BatchRead.run(
                        ExampleTesting.args(
                                ExampleTesting.catalogArgs(warehouse),
                                "--table",
                                "shop.orders",
                                "--parallelism",
                                "2"),
                        output.stream);

        List<CategorySummary> expected = ExampleTesting.expectedSummary(EVENTS);
        assertThat(summary).isEqualTo(expected);
        CategorySummary books = expected.get(0);
        assertThat(output.text())
                .contains("Read 1000 rows in 4 categories")
                .contains("| category | events | amount  |")
                .contains("| books    |    250 | " + books.amount.toPlainString() + " |");
    }

    @Test
    void writesTheSummaryFileWithoutCollecting() throws Exception {
        ExampleTesting.Output output = new ExampleTesting.Output();
        Path file = outputDir.resolve("summary.csv");

        BatchRead.run(
                ExampleTesting.args(
                        ExampleTesting.catalogArgs(warehouse),
                        "--table",
                        "shop.orders",
                        "--output",
                        file.toString()),
                output.stream);

        assertThat(Files.readString(file, StandardCharsets.UTF_8))
                .isEqualTo("books,250\ngames,250\nmusic,250\ntools,250\n");
        assertThat(output.text())
                .contains("Wrote the summary to " + file.toUri())
                .contains("Read 1000 rows in 4 categories")
                .contains("| books    |    250 |");
    }
}
