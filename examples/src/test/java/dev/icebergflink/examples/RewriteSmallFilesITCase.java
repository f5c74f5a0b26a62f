package dev.icebergflink.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.maintenance.RewriteDataFilesActionResult;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class RewriteSmallFilesITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = ExampleTesting.miniCluster();

    @TempDir Path warehouse;

    @Test
    void compactsTheSmallFilesIntoOnePerPartitionKeepingTheRows() throws Exception {
        ExampleTesting.Output output = new ExampleTesting.Output();

        RewriteDataFilesActionResult result =
                RewriteSmallFiles.run(
                        ExampleTesting.args(
                                ExampleTesting.catalogArgs(warehouse),
                                "--commits",
                                "3",
                                "--rows-per-commit",
                                "40",
                                "--parallelism",
                                "2"),
                        output.stream);

        Table table = ExampleTesting.loadTable(warehouse, "examples.small_files");
        // 3 commits of 4 categories: at least 12 small files before, one per category after.
        assertThat(result.deletedDataFilesCount()).isGreaterThanOrEqualTo(12);
        assertThat(result.addedDataFilesCount()).isEqualTo(4);
        assertThat(ExampleTables.dataFileCount(table)).isEqualTo(4);

        Map<Long, Record> byId = ExampleTesting.recordsById(table);
        assertThat(byId).hasSize(120);
        for (long id = 0; id < 120; id++) {
            assertThat(byId.get(id).getField("category"))
                    .isEqualTo(GeneratedEvents.CATEGORIES[(int) (id % 4)]);
            assertThat(byId.get(id).getField("amount")).isEqualTo(GeneratedEvents.amountOf(id));
        }
        // The content is unchanged by the rewrite: the rewrite snapshot replaced files only.
        assertThat(table.currentSnapshot().operation()).isEqualTo("replace");
        assertThat(output.text())
                .contains("Before: examples.small_files")
                .contains("After: examples.small_files")
                .contains("| category=books |          1 |   30 |")
                .contains("into 4 (");
    }
}
