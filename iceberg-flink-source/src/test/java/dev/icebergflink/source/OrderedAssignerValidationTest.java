package dev.icebergflink.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.TableLoader;
import dev.icebergflink.source.assigner.OrderedSplitAssignerFactory;
import java.nio.file.Path;
import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code build()} rejects ordering by data sequence number where it cannot work: format v1 tables
 * (no sequence numbers) and split settings that pack several files into a split.
 */
class OrderedAssignerValidationTest {

    private static final long ONE_FILE_PER_SPLIT = 128L * 1024 * 1024;

    @TempDir Path dir;

    private IcebergSource.Builder<RowData> source(int formatVersion) {
        String location = dir.resolve("v" + formatVersion).toString();
        SourceTestTables.create(location, formatVersion);
        return IcebergSource.forRowData()
                .tableLoader(TableLoader.fromHadoopTable(location))
                .assignerFactory(new OrderedSplitAssignerFactory());
    }

    @Test
    void formatV1TablesAreRejectedWithTheReason() {
        assertThatThrownBy(() -> source(1).splitOpenFileCost(ONE_FILE_PER_SPLIT).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sequence number")
                .hasMessageContaining("format version 1")
                .hasMessageContaining("'format-version' = '2'");
    }

    @Test
    void splitsOfSeveralFilesAreRejected() {
        assertThatThrownBy(() -> source(2).splitSize(1000L).splitOpenFileCost(10L).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'split-file-open-cost' (now 10)")
                .hasMessageContaining("'split-size' (now 1000)");
    }

    @Test
    void oneFilePerSplitOnV2AndCustomComparatorsAnywhereAreAccepted() {
        assertThat(source(2).splitOpenFileCost(ONE_FILE_PER_SPLIT).build()).isNotNull();
        String location = dir.resolve("custom").toString();
        SourceTestTables.create(location, 1);
        assertThat(
                        IcebergSource.forRowData()
                                .tableLoader(TableLoader.fromHadoopTable(location))
                                .assignerFactory(
                                        new OrderedSplitAssignerFactory(
                                                (a, b) -> a.splitId().compareTo(b.splitId())))
                                .build())
                .isNotNull();
    }
}
