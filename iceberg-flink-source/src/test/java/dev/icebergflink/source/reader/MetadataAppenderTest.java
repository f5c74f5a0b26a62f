package dev.icebergflink.source.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.source.split.TestingSplits;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.FileScanTask;
import org.junit.jupiter.api.Test;

class MetadataAppenderTest {

    private static final MetadataAppender SNAPSHOT_THEN_TIME =
            new MetadataAppender(
                    List.of(ReadMetadataColumn.SNAPSHOT_ID, ReadMetadataColumn.COMMIT_TIME));

    @Test
    void appendsTheSnapshotAndCommitTimeOfAChangeAfterTheRowKeepingItsKind() {
        FileScanTask change = TestingSplits.changeSplit("meta").task().files().iterator().next();
        GenericRowData row = GenericRowData.ofKind(RowKind.DELETE, 7, StringData.fromString("x"));

        RowData appended = SNAPSHOT_THEN_TIME.append(row, SNAPSHOT_THEN_TIME.metadataOf(change));

        assertThat(appended.getArity()).isEqualTo(4);
        assertThat(appended.getRowKind()).isEqualTo(RowKind.DELETE);
        assertThat(appended.getInt(0)).isEqualTo(7);
        assertThat(appended.getString(1).toString()).isEqualTo("x");
        assertThat(appended.getLong(2)).isEqualTo(42L);
        assertThat(appended.getTimestamp(3, 3))
                .isEqualTo(TimestampData.fromEpochMillis(TestingSplits.COMMITTED_AT));
    }

    @Test
    void rowsOfAPlainTaskCarryNulls() {
        FileScanTask plain = TestingSplits.split("meta").task().files().iterator().next();

        RowData appended =
                SNAPSHOT_THEN_TIME.append(
                        GenericRowData.of(1, StringData.fromString("y")),
                        SNAPSHOT_THEN_TIME.metadataOf(plain));

        assertThat(appended.getArity()).isEqualTo(4);
        assertThat(appended.isNullAt(2)).isTrue();
        assertThat(appended.isNullAt(3)).isTrue();
    }

    @Test
    void withoutColumnsRowsPassUnchanged() {
        FileScanTask plain = TestingSplits.split("meta").task().files().iterator().next();
        RowData row = GenericRowData.of(1, StringData.fromString("y"));

        assertThat(MetadataAppender.NONE.isEmpty()).isTrue();
        assertThat(MetadataAppender.NONE.append(row, MetadataAppender.NONE.metadataOf(plain)))
                .isSameAs(row);
    }

    @Test
    void anUnknownKeyIsAnErrorListingTheKnownOnes() {
        assertThat(ReadMetadataColumn.ofKey("commit_time"))
                .isEqualTo(ReadMetadataColumn.COMMIT_TIME);
        assertThatThrownBy(() -> ReadMetadataColumn.ofKey("snapshot"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Unknown metadata column 'snapshot'; the Iceberg source provides"
                                + " 'snapshot_id', 'commit_time', '_file', '_pos', '_spec_id',"
                                + " '_partition', '_deleted', '_row_id',"
                                + " '_last_updated_sequence_number'");
    }

    @Test
    void placesFileColumnsReadByTheFileReaderAndTaskColumnsAtTheirRequestedPositions() {
        MetadataAppender mixed =
                new MetadataAppender(
                        List.of(
                                ReadMetadataColumn.POS,
                                ReadMetadataColumn.SNAPSHOT_ID,
                                ReadMetadataColumn.FILE));
        FileScanTask change = TestingSplits.changeSplit("meta").task().files().iterator().next();
        // as the file reader returns it: the projected field, then _pos and _file
        GenericRowData read =
                GenericRowData.ofKind(
                        RowKind.INSERT, 7, 3L, StringData.fromString("s3://b/f.parquet"));

        RowData appended = mixed.append(read, mixed.metadataOf(change));

        assertThat(mixed.readsFileColumns()).isTrue();
        assertThat(appended.getArity()).isEqualTo(4);
        assertThat(appended.getInt(0)).isEqualTo(7);
        assertThat(appended.getLong(1)).isEqualTo(3L);
        assertThat(appended.getLong(2)).isEqualTo(42L);
        assertThat(appended.getString(3).toString()).isEqualTo("s3://b/f.parquet");
    }

    @Test
    void fileColumnsAloneLeaveTheReadRowAsItIs() {
        MetadataAppender file =
                new MetadataAppender(List.of(ReadMetadataColumn.DELETED, ReadMetadataColumn.POS));
        FileScanTask plain = TestingSplits.split("meta").task().files().iterator().next();
        RowData read = GenericRowData.of(1, true, 0L);

        assertThat(file.append(read, file.metadataOf(plain))).isSameAs(read);
    }
}
