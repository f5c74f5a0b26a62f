package dev.icebergflink.source.reader;

import static dev.icebergflink.tasks.reader.TaskTestTables.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.source.split.IcebergSourceSplit;
import dev.icebergflink.tasks.reader.TaskTestTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IcebergReaderFunctionTest {

    private static final Schema PROJECTED = SCHEMA.select("id");

    @TempDir Path dir;

    private Table table;
    private IcebergSourceSplit split;

    /** One split of three files: ids 0-4 (Parquet), 5-11 (ORC), 12-14 (Avro). */
    @BeforeEach
    void writeTable() {
        table = TaskTestTables.create(dir, 2);
        TaskTestTables.append(table, FileFormat.PARQUET, TaskTestTables.records(0, 5, "a"));
        TaskTestTables.append(table, FileFormat.ORC, TaskTestTables.records(5, 12, "b"));
        TaskTestTables.append(table, FileFormat.AVRO, TaskTestTables.records(12, 15, "c"));
        List<FileScanTask> tasks = new ArrayList<>(TaskTestTables.planFiles(table, null, true));
        // in id order: Parquet (5 rows), ORC (7 rows), Avro (3 rows)
        tasks.sort(Comparator.comparingLong(task -> order(task.file().format())));
        split = ReaderTestTables.oneSplit(tasks);
    }

    private static long order(FileFormat format) {
        return List.of(FileFormat.PARQUET, FileFormat.ORC, FileFormat.AVRO).indexOf(format);
    }

    private IcebergReaderFunction<RowData> function(int batchSize) {
        return new IcebergReaderFunction<>(
                TaskTestTables.reader(table, PROJECTED, true),
                new IdentityRowDataConverter(dev.icebergflink.FlinkSchemaUtil.convert(PROJECTED)),
                batchSize);
    }

    private static List<String> describe(List<RecordAndPosition<RowData>> records) {
        List<String> out = new ArrayList<>();
        for (RecordAndPosition<RowData> record : records) {
            out.add(
                    record.record().getLong(0)
                            + "@"
                            + record.fileOffset()
                            + "/"
                            + record.recordOffset());
        }
        return out;
    }

    @Test
    void readsEveryFileOfTheSplitWithThePositionAfterEachRecord() {
        List<RecordAndPosition<RowData>> records =
                ReaderTestTables.readSplit(function(2048), split);

        assertThat(describe(records))
                .containsExactly(
                        "0@0/1", "1@0/2", "2@0/3", "3@0/4", "4@0/5", "5@1/1", "6@1/2", "7@1/3",
                        "8@1/4", "9@1/5", "10@1/6", "11@1/7", "12@2/1", "13@2/2", "14@2/3");
    }

    @Test
    void cutsBatchesAtTheBatchSizeAcrossFiles() throws Exception {
        List<Integer> sizes = new ArrayList<>();
        List<RowData> rows = new ArrayList<>();
        try (CloseableIterator<RecordBatch<RowData>> batches = function(4).read(split)) {
            while (batches.hasNext()) {
                RecordBatch<RowData> batch = batches.next();
                sizes.add(batch.size());
                List<RecordAndPosition<RowData>> records = new ArrayList<>();
                ReaderTestTables.drain(batch, records);
                records.forEach(record -> rows.add(record.record()));
            }
        }

        assertThat(sizes).containsExactly(4, 4, 4, 3);
        // rows are fresh objects: all kept rows still hold their own values after reading on
        assertThat(rows).hasSize(15).doesNotHaveDuplicates();
        for (int i = 0; i < rows.size(); i++) {
            assertThat(rows.get(i).getLong(0)).isEqualTo(i);
        }
    }

    @Test
    void resumesInTheMiddleOfAFile() {
        List<RecordAndPosition<RowData>> records =
                ReaderTestTables.readSplit(function(3), split.withPosition(1, 4));

        assertThat(describe(records))
                .containsExactly("9@1/5", "10@1/6", "11@1/7", "12@2/1", "13@2/2", "14@2/3");
    }

    @Test
    void resumesAtTheStartOfTheNextFileAfterAFinishedFile() {
        assertThat(describe(ReaderTestTables.readSplit(function(3), split.withPosition(0, 5))))
                .first()
                .isEqualTo("5@1/1");
        assertThat(describe(ReaderTestTables.readSplit(function(3), split.withPosition(2, 0))))
                .containsExactly("12@2/1", "13@2/2", "14@2/3");
        assertThat(ReaderTestTables.readSplit(function(3), split.withPosition(3, 0))).isEmpty();
    }

    @Test
    void restoringEveryCheckpointedPositionYieldsTheRestExactlyOnce() {
        List<String> all = describe(ReaderTestTables.readSplit(function(5), split));
        List<RecordAndPosition<RowData>> full = ReaderTestTables.readSplit(function(5), split);
        for (int emitted = 0; emitted < full.size(); emitted++) {
            RecordAndPosition<RowData> last = full.get(emitted);
            IcebergSourceSplit restored =
                    split.withPosition(last.fileOffset(), last.recordOffset());
            assertThat(describe(ReaderTestTables.readSplit(function(5), restored)))
                    .as("resume after %s", all.get(emitted))
                    .isEqualTo(all.subList(emitted + 1, all.size()));
        }
    }

    @Test
    void failsClearlyWhenAPositionIsBeyondTheFile() {
        IcebergSourceSplit beyond = split.withPosition(0, 9);
        assertThatThrownBy(() -> ReaderTestTables.readSplit(function(3), beyond))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Cannot resume split " + split.splitId())
                .hasMessageContaining("record 9")
                .hasMessageContaining("only 5 records");
    }

    @Test
    void rejectsBatchSizesBelowOne() {
        assertThatThrownBy(() -> function(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("batch size must be at least 1, got 0");
    }
}
