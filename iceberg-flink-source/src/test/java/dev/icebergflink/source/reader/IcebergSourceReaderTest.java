package dev.icebergflink.source.reader;

import static dev.icebergflink.tasks.reader.TaskTestTables.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.source.event.LimitReachedEvent;
import dev.icebergflink.source.split.IcebergSourceSplit;
import dev.icebergflink.tasks.reader.TaskTestTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.testutils.source.reader.TestingReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.testutils.MetricListener;
import org.apache.flink.runtime.metrics.groups.InternalSourceReaderMetricGroup;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IcebergSourceReaderTest {

    private static final Schema PROJECTED = SCHEMA.select("id");

    @TempDir Path dir;

    private Table table;
    private List<IcebergSourceSplit> splits;
    private MetricListener metrics;
    private TestingReaderContext context;

    /** Splits of one file each: ids 10-14 (ts 10000..), 0-2 (ts 0..), 20-23 (ts 20000..). */
    @BeforeEach
    void writeTable() {
        table = TaskTestTables.create(dir, 2);
        TaskTestTables.append(table, FileFormat.PARQUET, TaskTestTables.records(10, 15, "a"));
        TaskTestTables.append(table, FileFormat.PARQUET, TaskTestTables.records(0, 3, "b"));
        TaskTestTables.append(table, FileFormat.PARQUET, TaskTestTables.records(20, 24, "c"));
        List<FileScanTask> tasks = new ArrayList<>(TaskTestTables.planFiles(table, null, true));
        tasks.sort(
                (x, y) ->
                        x.file()
                                .partition()
                                .get(0, String.class)
                                .compareTo(y.file().partition().get(0, String.class)));
        splits = new ArrayList<>();
        for (FileScanTask task : tasks) {
            splits.add(ReaderTestTables.oneSplit(List.of(task)));
        }
        metrics = new MetricListener();
        context =
                new TestingReaderContext(
                        new Configuration(),
                        InternalSourceReaderMetricGroup.mock(metrics.getMetricGroup()));
    }

    private IcebergSourceReader<RowData> reader(
            int batchSize, long limit, SplitWatermarkExtractor watermarks) {
        IcebergReaderFunction<RowData> function =
                new IcebergReaderFunction<>(
                        TaskTestTables.reader(table, PROJECTED, true),
                        new IdentityRowDataConverter(FlinkSchemaUtil.convert(PROJECTED)),
                        batchSize);
        return new IcebergSourceReader<>(function, limit, watermarks, context);
    }

    private static RecordingReaderOutput<RowData> output() {
        return new RecordingReaderOutput<>(row -> String.valueOf(row.getLong(0)));
    }

    /** Polls until {@code count} records were emitted in total, waiting on availability. */
    private static void pollRecords(
            IcebergSourceReader<RowData> reader, RecordingReaderOutput<RowData> output, int count)
            throws Exception {
        while (output.records().size() < count) {
            InputStatus status = reader.pollNext(output);
            if (status == InputStatus.NOTHING_AVAILABLE) {
                reader.isAvailable().get(30, TimeUnit.SECONDS);
            }
        }
    }

    /** Polls until the reader reports the end of input. */
    private static void pollToEnd(
            IcebergSourceReader<RowData> reader, RecordingReaderOutput<RowData> output)
            throws Exception {
        InputStatus status;
        while ((status = reader.pollNext(output)) != InputStatus.END_OF_INPUT) {
            if (status == InputStatus.NOTHING_AVAILABLE) {
                reader.isAvailable().get(30, TimeUnit.SECONDS);
            }
        }
    }

    private long counter(String name) {
        return metrics.getCounter(IcebergSourceReaderMetrics.GROUP, name).orElseThrow().getCount();
    }

    @Test
    void asksForASplitWhenStartedIdleAndForAnotherWheneverOneIsFinished() throws Exception {
        try (IcebergSourceReader<RowData> reader = reader(2, -1, null)) {
            reader.start();
            assertThat(context.getNumSplitRequests()).isEqualTo(1);

            RecordingReaderOutput<RowData> output = output();
            reader.addSplits(List.of(splits.get(0)));
            pollRecords(reader, output, 5);
            reader.addSplits(List.of(splits.get(1)));
            reader.notifyNoMoreSplits();
            pollToEnd(reader, output);

            assertThat(output.events())
                    .containsExactly("10", "11", "12", "13", "14", "0", "1", "2");
            assertThat(context.getNumSplitRequests()).isEqualTo(3);
            assertThat(counter("assignedSplits")).isEqualTo(2);
            assertThat(counter("finishedSplits")).isEqualTo(2);
            assertThat(counter("finishedFileTasks")).isEqualTo(2);
        }
    }

    @Test
    void doesNotAskForASplitWhenStartedWithRestoredSplits() throws Exception {
        try (IcebergSourceReader<RowData> reader = reader(2, -1, null)) {
            reader.addSplits(List.of(splits.get(0)));
            reader.start();
            assertThat(context.getNumSplitRequests()).isZero();
        }
    }

    @Test
    void checkpointsEachSplitAtThePositionAfterItsLastEmittedRecord() throws Exception {
        List<IcebergSourceSplit> checkpointed;
        RecordingReaderOutput<RowData> output = output();
        try (IcebergSourceReader<RowData> reader = reader(2, -1, null)) {
            reader.start();
            reader.addSplits(List.of(splits.get(0)));
            pollRecords(reader, output, 3);
            checkpointed = reader.snapshotState(1L);
        }
        assertThat(checkpointed).containsExactly(splits.get(0).withPosition(0, 3));

        // a restored reader continues right after the last emitted record
        try (IcebergSourceReader<RowData> restored = reader(2, -1, null)) {
            restored.addSplits(checkpointed);
            restored.start();
            restored.notifyNoMoreSplits();
            pollToEnd(restored, output);
        }
        assertThat(output.events()).containsExactly("10", "11", "12", "13", "14");
    }

    @Test
    void emitsAtMostTheLimitAndStillFinishesEverySplit() throws Exception {
        try (IcebergSourceReader<RowData> reader = reader(2, 6, null)) {
            reader.start();
            RecordingReaderOutput<RowData> output = output();
            reader.addSplits(splits);
            reader.notifyNoMoreSplits();
            pollToEnd(reader, output);

            assertThat(output.events()).containsExactly("10", "11", "12", "13", "14", "0");
            assertThat(counter("finishedSplits")).isEqualTo(3);
            // the enumerator hears once that the limit is reached, so it can end the read
            assertThat(context.getSentEvents()).containsExactly(new LimitReachedEvent());
        }
    }

    @Test
    void emitsEachSplitsWatermarkBeforeItsFirstRecordNeverGoingBack() throws Exception {
        SplitWatermarkExtractor watermarks =
                new ColumnStatsWatermarkExtractor(
                        table.schema(), "ts", TimeUnit.MILLISECONDS, true);
        try (IcebergSourceReader<RowData> reader = reader(10, -1, watermarks)) {
            reader.start();
            RecordingReaderOutput<RowData> output = output();
            reader.addSplits(List.of(splits.get(0)));
            pollRecords(reader, output, 5);
            reader.addSplits(List.of(splits.get(1)));
            pollRecords(reader, output, 8);
            reader.addSplits(List.of(splits.get(2)));
            reader.notifyNoMoreSplits();
            pollToEnd(reader, output);

            assertThat(output.events())
                    .containsExactly(
                            "wm:9999",
                            "10",
                            "11",
                            "12",
                            "13",
                            "14", // split a: min ts 10000
                            "0",
                            "1",
                            "2", // split b: min ts 0, would move back: not emitted
                            "wm:19999",
                            "20",
                            "21",
                            "22",
                            "23");
        }
    }
}
