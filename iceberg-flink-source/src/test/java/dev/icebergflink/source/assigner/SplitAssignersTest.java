package dev.icebergflink.source.assigner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.source.SourceTestTables;
import dev.icebergflink.source.reader.ColumnStatsWatermarkExtractor;
import dev.icebergflink.source.split.IcebergSourceSplit;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.CombinedScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** FIFO, sequence-number and watermark ordering on splits of a real table. */
class SplitAssignersTest {

    @TempDir Path dir;

    /** One split per file; appended newest-first in ids so that orders differ from planning. */
    private List<IcebergSourceSplit> splitsOfThreeAppends() throws Exception {
        Table table = SourceTestTables.create(dir.resolve("t").toString(), 2);
        table.updateProperties().set(TableProperties.SPLIT_OPEN_FILE_COST, "134217728").commit();
        SourceTestTables.append(table, 200, 210);
        SourceTestTables.append(table, 0, 10);
        SourceTestTables.append(table, 100, 110);
        List<IcebergSourceSplit> splits = new ArrayList<>();
        try (CloseableIterable<CombinedScanTask> tasks =
                table.newScan().includeColumnStats().planTasks()) {
            tasks.forEach(task -> splits.add(IcebergSourceSplit.fromCombinedScanTask(task)));
        }
        assertThat(splits).hasSize(3);
        return splits;
    }

    private static List<IcebergSourceSplit> drain(SplitAssigner assigner) {
        List<IcebergSourceSplit> out = new ArrayList<>();
        for (var next = assigner.getNext(null); next.isPresent(); next = assigner.getNext(null)) {
            out.add(next.get());
        }
        return out;
    }

    private static long firstId(IcebergSourceSplit split) {
        return org.apache.iceberg.types.Conversions.fromByteBuffer(
                org.apache.iceberg.types.Types.LongType.get(),
                split.task().files().iterator().next().file().lowerBounds().get(1));
    }

    @Test
    void fifoKeepsPlanningOrderAndReturnsFailedSplitsFirst() throws Exception {
        List<IcebergSourceSplit> splits = splitsOfThreeAppends();
        SplitAssigner assigner = new SimpleSplitAssignerFactory().createAssigner();
        assigner.onDiscoveredSplits(splits);
        IcebergSourceSplit first = assigner.getNext("h").orElseThrow();
        assertThat(first).isEqualTo(splits.get(0));
        assigner.onUnassignedSplits(List.of(first.withPosition(0, 3)));
        assertThat(assigner.pendingSplitCount()).isEqualTo(3);
        assertThat(assigner.state()).first().isEqualTo(first.withPosition(0, 3));
        assertThat(drain(assigner))
                .containsExactly(first.withPosition(0, 3), splits.get(1), splits.get(2));
        assertThat(assigner.getNext(null)).isEmpty();
    }

    @Test
    void orderedBySequenceNumberServesOldestDataFirst() throws Exception {
        List<IcebergSourceSplit> splits = new ArrayList<>(splitsOfThreeAppends());
        java.util.Collections.reverse(splits);
        SplitAssigner assigner = new OrderedSplitAssignerFactory().createAssigner(splits);
        List<IcebergSourceSplit> order = drain(assigner);
        assertThat(order.stream().map(OrderedSplitAssignerFactory::dataSequenceNumber).toList())
                .containsExactly(1L, 2L, 3L);
        assertThat(order.stream().map(SplitAssignersTest::firstId).toList())
                .containsExactly(200L, 0L, 100L);
    }

    @Test
    void watermarkOrderServesSmallestEventTimeFirst() throws Exception {
        List<IcebergSourceSplit> splits = splitsOfThreeAppends();
        ColumnStatsWatermarkExtractor extractor =
                new ColumnStatsWatermarkExtractor(
                        SourceTestTables.SCHEMA, "ts", TimeUnit.MICROSECONDS, true);
        SplitAssigner assigner =
                new WatermarkOrderedSplitAssignerFactory(extractor).createAssigner();
        assigner.onDiscoveredSplits(splits);
        List<IcebergSourceSplit> order = drain(assigner);
        assertThat(order.stream().map(SplitAssignersTest::firstId).toList())
                .containsExactly(0L, 100L, 200L);
        assertThat(extractor.extractWatermark(order.get(1)))
                .isEqualTo(
                        java.time.LocalDateTime.of(2024, 1, 1, 0, 0)
                                .plusSeconds(100)
                                .toInstant(java.time.ZoneOffset.UTC)
                                .toEpochMilli());
    }

    @Test
    void watermarkOrderNeedsColumnStatistics() throws Exception {
        Table table = SourceTestTables.create(dir.resolve("nostats").toString(), 2);
        SourceTestTables.append(table, 0, 10);
        List<IcebergSourceSplit> splits = new ArrayList<>();
        try (CloseableIterable<CombinedScanTask> tasks = table.newScan().planTasks()) {
            tasks.forEach(task -> splits.add(IcebergSourceSplit.fromCombinedScanTask(task)));
        }
        ColumnStatsWatermarkExtractor extractor =
                new ColumnStatsWatermarkExtractor(
                        SourceTestTables.SCHEMA, "ts", TimeUnit.MICROSECONDS, true);
        assertThatThrownBy(() -> extractor.extractWatermark(splits.get(0)))
                .hasMessageContaining("'ts'");
    }
}
