package dev.icebergflink.source.reader;

import static dev.icebergflink.tasks.reader.TaskTestTables.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.source.split.IcebergSourceSplit;
import dev.icebergflink.tasks.reader.TaskTestTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsRemoval;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IcebergSourceSplitReaderTest {

    private static final Schema PROJECTED = SCHEMA.select("id");

    @TempDir Path dir;

    private Table table;
    private List<IcebergSourceSplit> splits;

    /** Two one-file splits: ids 0-4 and 5-9. */
    @BeforeEach
    void writeTable() {
        table = TaskTestTables.create(dir, 2);
        TaskTestTables.append(table, FileFormat.PARQUET, TaskTestTables.records(0, 5, "a"));
        TaskTestTables.append(table, FileFormat.PARQUET, TaskTestTables.records(5, 10, "b"));
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
    }

    private IcebergSourceSplitReader<RowData> splitReader(int batchSize, RecordLimiter limiter) {
        IcebergReaderFunction<RowData> function =
                new IcebergReaderFunction<>(
                        TaskTestTables.reader(table, PROJECTED, true),
                        new IdentityRowDataConverter(FlinkSchemaUtil.convert(PROJECTED)),
                        batchSize);
        return new IcebergSourceSplitReader<>(function, limiter, FileTaskListener.NONE);
    }

    /** One fetch, as "split:id@file/record,..." plus "finished:split" entries. */
    private static List<String> describe(RecordsWithSplitIds<RecordAndPosition<RowData>> fetch) {
        List<String> out = new ArrayList<>();
        String splitId;
        while ((splitId = fetch.nextSplit()) != null) {
            StringBuilder text = new StringBuilder(shortId(splitId)).append(':');
            RecordAndPosition<RowData> record;
            while ((record = fetch.nextRecordFromSplit()) != null) {
                text.append(record.record().getLong(0))
                        .append('@')
                        .append(record.fileOffset())
                        .append('/')
                        .append(record.recordOffset())
                        .append(',');
            }
            out.add(text.toString());
        }
        for (String finished : fetch.finishedSplits()) {
            out.add("finished:" + shortId(finished));
        }
        fetch.recycle();
        return out;
    }

    private static String shortId(String splitId) {
        return splitId.substring(splitId.length() - 4);
    }

    private String id(int index) {
        return shortId(splits.get(index).splitId());
    }

    @Test
    void readsSplitsInArrivalOrderOneBatchPerFetchAndReportsThemFinished() throws Exception {
        try (IcebergSourceSplitReader<RowData> reader = splitReader(3, RecordLimiter.unlimited())) {
            reader.handleSplitsChanges(new SplitsAddition<>(splits));

            List<String> fetches = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                fetches.addAll(describe(reader.fetch()));
            }

            assertThat(fetches)
                    .containsExactly(
                            id(0) + ":0@0/1,1@0/2,2@0/3,",
                            id(0) + ":3@0/4,4@0/5,",
                            "finished:" + id(0),
                            id(1) + ":5@0/1,6@0/2,7@0/3,",
                            id(1) + ":8@0/4,9@0/5,",
                            "finished:" + id(1));
            assertThat(describe(reader.fetch())).isEmpty();
        }
    }

    @Test
    void resumesARestoredSplitAtItsPosition() throws Exception {
        try (IcebergSourceSplitReader<RowData> reader =
                splitReader(10, RecordLimiter.unlimited())) {
            reader.handleSplitsChanges(
                    new SplitsAddition<>(List.of(splits.get(1).withPosition(0, 3))));

            assertThat(describe(reader.fetch())).containsExactly(id(1) + ":8@0/4,9@0/5,");
            assertThat(describe(reader.fetch())).containsExactly("finished:" + id(1));
        }
    }

    @Test
    void stopsAtTheLimitAcrossSplitsAndSplitReaders() throws Exception {
        RecordLimiter limiter = RecordLimiter.of(7);
        List<String> fetches = new ArrayList<>();
        try (IcebergSourceSplitReader<RowData> reader = splitReader(4, limiter)) {
            reader.handleSplitsChanges(new SplitsAddition<>(List.of(splits.get(0))));
            for (int i = 0; i < 3; i++) {
                fetches.addAll(describe(reader.fetch()));
            }
        }
        // a new fetcher (and split reader) after the first one went idle shares the limit
        try (IcebergSourceSplitReader<RowData> reader = splitReader(4, limiter)) {
            reader.handleSplitsChanges(new SplitsAddition<>(List.of(splits.get(1))));
            for (int i = 0; i < 3; i++) {
                fetches.addAll(describe(reader.fetch()));
            }
        }

        assertThat(fetches)
                .containsExactly(
                        id(0) + ":0@0/1,1@0/2,2@0/3,3@0/4,",
                        id(0) + ":4@0/5,",
                        "finished:" + id(0),
                        id(1) + ":5@0/1,6@0/2,",
                        "finished:" + id(1));
        assertThat(limiter.reached()).isTrue();
    }

    @Test
    void readsOtherSplitsWhileOneIsPausedAndContinuesItWhenResumed() throws Exception {
        try (IcebergSourceSplitReader<RowData> reader = splitReader(2, RecordLimiter.unlimited())) {
            reader.handleSplitsChanges(new SplitsAddition<>(splits));
            List<String> fetches = new ArrayList<>(describe(reader.fetch()));

            reader.pauseOrResumeSplits(List.of(splits.get(0)), List.of());
            fetches.addAll(describe(reader.fetch()));
            reader.pauseOrResumeSplits(List.of(splits.get(1)), List.of());
            // every split paused: the fetch returns nothing once its short wait is over
            fetches.addAll(describe(reader.fetch()));
            reader.pauseOrResumeSplits(List.of(), List.of(splits.get(0)));
            fetches.addAll(describe(reader.fetch()));

            assertThat(fetches)
                    .containsExactly(
                            id(0) + ":0@0/1,1@0/2,",
                            id(1) + ":5@0/1,6@0/2,",
                            id(0) + ":2@0/3,3@0/4,");
        }
    }

    @Test
    void refusesToRemoveSplits() throws Exception {
        try (IcebergSourceSplitReader<RowData> reader = splitReader(2, RecordLimiter.unlimited())) {
            assertThatThrownBy(() -> reader.handleSplitsChanges(new SplitsRemoval<>(splits)))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("only supports adding splits");
        }
    }

    @Test
    void finishedSplitIdsAreReportedOnce() throws Exception {
        try (IcebergSourceSplitReader<RowData> reader =
                splitReader(10, RecordLimiter.unlimited())) {
            reader.handleSplitsChanges(new SplitsAddition<>(List.of(splits.get(0))));
            reader.fetch();
            assertThat(reader.fetch().finishedSplits()).isEqualTo(Set.of(splits.get(0).splitId()));
            assertThat(reader.fetch().finishedSplits()).isEmpty();
        }
    }
}
