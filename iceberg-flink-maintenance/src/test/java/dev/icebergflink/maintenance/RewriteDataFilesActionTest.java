package dev.icebergflink.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Validation of the rewrite builder and runs that need no Flink job. */
class RewriteDataFilesActionTest {

    @TempDir Path dir;

    private RewriteDataFilesAction rewrite(Table table) {
        return Actions.forTable(StreamExecutionEnvironment.getExecutionEnvironment(), table)
                .rewriteDataFiles();
    }

    @Test
    void anEmptyTableHasNothingToRewrite() {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        RewriteDataFilesActionResult result = rewrite(table).execute();
        assertThat(result.deletedDataFiles()).isEmpty();
        assertThat(result.addedDataFiles()).isEmpty();
        assertThat(result.snapshotId()).isEmpty();
    }

    @Test
    void tooFewFilesPerGroupAreLeftAlone() {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        MaintenanceTables.appendSmallFiles(table, 2, 3, 5, 31L);
        long snapshot = table.currentSnapshot().snapshotId();

        RewriteDataFilesActionResult result = rewrite(table).minInputFiles(4).execute();

        assertThat(result.deletedDataFilesCount()).isZero();
        table.refresh();
        assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
    }

    @Test
    void invalidSettingsAreRejectedWithTheAllowedValues() {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        MaintenanceTables.appendSmallFiles(table, 1, 1, 5, 37L);
        assertThatThrownBy(() -> rewrite(table).targetSizeInBytes(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("targetSizeInBytes must be positive, got 0");
        assertThatThrownBy(() -> rewrite(table).maxParallelism(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxParallelism");
        assertThatThrownBy(() -> rewrite(table).minInputFiles(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("minInputFiles");
        assertThatThrownBy(() -> rewrite(table).splitOpenFileCost(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("splitOpenFileCost");
        assertThatThrownBy(() -> rewrite(table).option("min-input-file", "2").execute())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Unknown rewrite option 'min-input-file'")
                .hasMessageContaining("min-input-files");
        assertThatThrownBy(() -> rewrite(table).option("output-spec-id", "0").execute())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("current partition spec");
    }
}
