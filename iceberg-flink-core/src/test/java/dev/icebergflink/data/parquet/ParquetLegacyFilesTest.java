package dev.icebergflink.data.parquet;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.data.FormatTestFiles;
import java.io.File;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.NanoTime;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files written by other Parquet writers: INT96 and millisecond timestamps, millisecond times,
 * decimals as variable-length binary, and two-level lists.
 */
class ParquetLegacyFilesTest {

    private static final MessageType LEGACY =
            org.apache.parquet.schema.Types.buildMessage()
                    .required(PrimitiveTypeName.INT32)
                    .id(1)
                    .named("id")
                    .optional(PrimitiveTypeName.INT96)
                    .id(2)
                    .named("ts96")
                    .optional(PrimitiveTypeName.INT64)
                    .as(
                            LogicalTypeAnnotation.timestampType(
                                    true, LogicalTypeAnnotation.TimeUnit.MILLIS))
                    .id(3)
                    .named("ts_millis")
                    .optional(PrimitiveTypeName.INT32)
                    .as(
                            LogicalTypeAnnotation.timeType(
                                    false, LogicalTypeAnnotation.TimeUnit.MILLIS))
                    .id(4)
                    .named("time_millis")
                    .optional(PrimitiveTypeName.BINARY)
                    .as(LogicalTypeAnnotation.decimalType(2, 20))
                    .id(5)
                    .named("dec")
                    .optionalGroup()
                    .as(LogicalTypeAnnotation.listType())
                    .repeated(PrimitiveTypeName.INT32)
                    .id(7)
                    .named("array")
                    .id(6)
                    .named("legacy_list")
                    .optional(PrimitiveTypeName.INT64)
                    .as(
                            LogicalTypeAnnotation.timestampType(
                                    false, LogicalTypeAnnotation.TimeUnit.NANOS))
                    .id(8)
                    .named("ts_nanos")
                    .named("legacy");

    private static final Schema EXPECTED =
            new Schema(
                    required(1, "id", Types.IntegerType.get()),
                    optional(2, "ts96", Types.TimestampType.withZone()),
                    optional(3, "ts_millis", Types.TimestampType.withZone()),
                    optional(4, "time_millis", Types.TimeType.get()),
                    optional(5, "dec", Types.DecimalType.of(20, 2)),
                    optional(
                            6,
                            "legacy_list",
                            Types.ListType.ofRequired(7, Types.IntegerType.get())),
                    optional(8, "ts_nanos", Types.TimestampNanoType.withoutZone()));

    @TempDir File temp;

    @Test
    void readsLegacyEncodings() throws IOException {
        File file = new File(temp, "legacy.parquet");
        // 2001-09-09T01:46:40.123456789Z: epoch day 11574, 6400 seconds into the day.
        long epochDay = 11_574;
        long nanosOfDay = 6_400_000_000_000L + 123_456_789L;
        SimpleGroupFactory groups = new SimpleGroupFactory(LEGACY);
        try (ParquetWriter<Group> writer =
                ExampleParquetWriter.builder(new LocalOutputFile(file.toPath()))
                        .withType(LEGACY)
                        .build()) {
            Group first = groups.newGroup();
            first.add("id", 1);
            first.add("ts96", new NanoTime((int) (2_440_588L + epochDay), nanosOfDay));
            first.add("ts_millis", -1L);
            first.add("time_millis", 45_296_789);
            first.add(
                    "dec",
                    Binary.fromConstantByteArray(
                            new BigInteger("-123456789012345678").toByteArray()));
            Group list = first.addGroup("legacy_list");
            list.add("array", 3);
            list.add("array", -4);
            first.add("ts_nanos", -1L);
            writer.write(first);

            Group second = groups.newGroup();
            second.add("id", 2);
            writer.write(second);
        }

        List<RowData> rows = FormatTestFiles.of(FileFormat.PARQUET).readRows(file, EXPECTED);

        RowData first = rows.get(0);
        assertThat(first.getInt(0)).isEqualTo(1);
        assertThat(first.getTimestamp(1, 9).toInstant())
                .isEqualTo(Instant.parse("2001-09-09T01:46:40.123456789Z"));
        assertThat(first.getTimestamp(2, 6).toInstant())
                .isEqualTo(Instant.parse("1969-12-31T23:59:59.999Z"));
        assertThat(first.getInt(3)).isEqualTo(45_296_789);
        assertThat(first.getDecimal(4, 20, 2).toBigDecimal())
                .isEqualTo(new BigDecimal("-1234567890123456.78"));
        assertThat(first.getArray(5).size()).isEqualTo(2);
        assertThat(first.getArray(5).getInt(0)).isEqualTo(3);
        assertThat(first.getArray(5).getInt(1)).isEqualTo(-4);
        assertThat(first.getTimestamp(6, 9).toLocalDateTime())
                .isEqualTo(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999));

        RowData second = rows.get(1);
        assertThat(second.getInt(0)).isEqualTo(2);
        for (int pos = 1; pos < 7; pos++) {
            assertThat(second.isNullAt(pos)).as("position %s", pos).isTrue();
        }
    }
}
