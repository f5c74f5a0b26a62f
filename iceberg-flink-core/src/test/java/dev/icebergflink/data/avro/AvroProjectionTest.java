package dev.icebergflink.data.avro;

import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.data.FormatProjectionSuite;
import dev.icebergflink.data.FormatTestFiles;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The shared projection and schema evolution suite, for Avro files, and what is Avro's own: row
 * positions across Avro blocks and splits, and the reader's message when no projection is set.
 */
class AvroProjectionTest extends FormatProjectionSuite {

    @Override
    protected FileFormat format() {
        return FileFormat.AVRO;
    }

    @Test
    void rowPositionsCountAcrossAvroBlocks() {
        Schema schema = new Schema(required(1, "id", Types.LongType.get()));
        int count = 50_000; // many Avro blocks
        List<RowData> rows = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            rows.add(GenericRowData.of((long) i * 7));
        }
        File big = files.newFile(dir);
        files.writeRows(big, schema, null, rows);

        Schema projection =
                new Schema(MetadataColumns.ROW_POSITION, required(1, "id", Types.LongType.get()));
        List<RowData> read = files.readRows(big, projection);

        assertThat(read).hasSize(count);
        for (int i = 0; i < count; i++) {
            assertThat(read.get(i).getLong(0)).isEqualTo(i);
            assertThat(read.get(i).getLong(1)).isEqualTo(i * 7L);
        }

        // a split that starts mid-file still numbers its rows from the start of the file
        long half = big.length() / 2;
        List<RowData> firstHalf = readSplit(big, projection, 0, half);
        List<RowData> secondHalf = readSplit(big, projection, half, big.length() - half);
        assertThat(firstHalf).isNotEmpty();
        assertThat(secondHalf).isNotEmpty().hasSize(count - firstHalf.size());
        for (RowData row : secondHalf) {
            assertThat(row.getLong(1)).isEqualTo(row.getLong(0) * 7L);
        }
        assertThat(secondHalf.get(0).getLong(0)).isEqualTo(firstHalf.size());
    }

    private List<RowData> readSplit(File file, Schema projection, long start, long length) {
        return FormatTestFiles.collect(
                files.rowReader(file).project(projection).split(start, length).build());
    }

    @Test
    void aReaderWithoutAProjectionSaysWhatIsMissing() {
        assertThatThrownBy(() -> AvroRowDataReader.create(null, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("call project(schema) on the read builder");
    }
}
