package dev.icebergflink.data.orc;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.data.FormatTestFiles;
import java.io.File;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Time and timestamp units, and ORC's one unrepresentable timestamp range. */
class OrcTimestampTest {

    private static final Schema SCHEMA =
            new Schema(
                    optional(1, "ts", Types.TimestampType.withoutZone()),
                    optional(2, "ts_ns", Types.TimestampNanoType.withoutZone()),
                    optional(3, "t", Types.TimeType.get()));

    private static final RowType ROW_TYPE =
            RowType.of(new TimestampType(9), new TimestampType(9), new TimeType(3));

    private static final FormatTestFiles ORC = FormatTestFiles.of(FileFormat.ORC);

    @TempDir Path temp;

    @Test
    void truncatesToMicrosForTimestampAndKeepsNanosForTimestampNs() {
        LocalDateTime value = LocalDateTime.of(1901, 3, 4, 5, 6, 7, 123_456_789);
        RowData row =
                GenericRowData.of(
                        TimestampData.fromLocalDateTime(value),
                        TimestampData.fromLocalDateTime(value),
                        (5 * 3600 + 6 * 60 + 7) * 1000 + 123);
        File file = temp.resolve("units.orc").toFile();

        ORC.writeRows(file, SCHEMA, ROW_TYPE, List.of(row));
        RowData read = ORC.readRows(file, SCHEMA).get(0);
        Record generic = ORC.readRecords(file, SCHEMA).get(0);

        assertThat(read.getTimestamp(0, 6).toLocalDateTime())
                .isEqualTo(LocalDateTime.of(1901, 3, 4, 5, 6, 7, 123_456_000));
        assertThat(read.getTimestamp(1, 9).toLocalDateTime()).isEqualTo(value);
        assertThat(read.getInt(2)).isEqualTo((5 * 3600 + 6 * 60 + 7) * 1000 + 123);
        assertThat(generic.get(0)).isEqualTo(LocalDateTime.of(1901, 3, 4, 5, 6, 7, 123_456_000));
        assertThat(generic.get(1)).isEqualTo(value);
        assertThat(generic.get(2)).isEqualTo(LocalTime.of(5, 6, 7, 123_000_000));
    }

    @Test
    void readsTimesWithMicrosTruncatedToMillis() {
        Record record = GenericRecord.create(SCHEMA);
        record.set(2, LocalTime.of(23, 59, 59, 999_999_000));
        File file = temp.resolve("time.orc").toFile();

        ORC.writeRecords(file, SCHEMA, List.of(record));

        assertThat(ORC.readRows(file, SCHEMA).get(0).getInt(2)).isEqualTo(86_399_999);
    }

    /**
     * ORC stores seconds truncated toward zero, so a timestamp in (-1 s, 0) with a fraction of a
     * millisecond or more reads back one second later, whichever writer and reader are used. Ours
     * behave exactly like iceberg-data's generic ones; one second earlier or later is fine.
     */
    @Test
    void matchesTheGenericWriterJustBeforeTheEpoch() {
        LocalDateTime[] values = {
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000),
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 1_000_000),
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000),
            LocalDateTime.of(1969, 12, 31, 23, 59, 58, 999_999_000),
            LocalDateTime.of(1970, 1, 1, 0, 0, 0, 999_999_000)
        };
        List<RowData> rows = new ArrayList<>();
        List<Record> records = new ArrayList<>();
        for (LocalDateTime value : values) {
            rows.add(
                    GenericRowData.of(
                            TimestampData.fromLocalDateTime(value),
                            TimestampData.fromLocalDateTime(value),
                            null));
            Record record = GenericRecord.create(SCHEMA);
            record.set(0, value);
            record.set(1, value);
            records.add(record);
        }
        File ours = temp.resolve("ours.orc").toFile();
        File generic = temp.resolve("generic.orc").toFile();

        ORC.writeRows(ours, SCHEMA, ROW_TYPE, rows);
        ORC.writeRecords(generic, SCHEMA, records);
        List<LocalDateTime> oursByOurs = timestamps(ORC.readRows(ours, SCHEMA));
        List<LocalDateTime> genericByOurs = timestamps(ORC.readRows(generic, SCHEMA));
        List<Object> oursByGeneric = new ArrayList<>();
        ORC.readRecords(ours, SCHEMA).forEach(r -> oursByGeneric.add(r.get(0)));

        assertThat(oursByOurs)
                .containsExactly(
                        LocalDateTime.of(1970, 1, 1, 0, 0, 0, 999_999_000),
                        LocalDateTime.of(1970, 1, 1, 0, 0, 0, 1_000_000),
                        LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000),
                        LocalDateTime.of(1969, 12, 31, 23, 59, 58, 999_999_000),
                        LocalDateTime.of(1970, 1, 1, 0, 0, 0, 999_999_000));
        assertThat(genericByOurs).isEqualTo(oursByOurs);
        assertThat(oursByGeneric).isEqualTo(new ArrayList<Object>(oursByOurs));
    }

    private static List<LocalDateTime> timestamps(List<RowData> rows) {
        List<LocalDateTime> result = new ArrayList<>();
        for (RowData row : rows) {
            result.add(row.getTimestamp(0, 6).toLocalDateTime());
        }
        return result;
    }
}
