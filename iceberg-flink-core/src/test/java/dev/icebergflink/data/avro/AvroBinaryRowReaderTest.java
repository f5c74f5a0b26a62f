package dev.icebergflink.data.avro;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.data.FormatSuite;
import dev.icebergflink.testing.RandomRowData;
import dev.icebergflink.testing.RowDataAssert;
import dev.icebergflink.testing.TestSchemas;
import java.io.File;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.util.Utf8;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The Avro reader's top-level rows are {@link BinaryRowData} decoded straight from the file: every
 * primitive type with its exact value and nulls, promotions, reordered and missing columns,
 * constants, nested values, unions with null in either branch, and rows that stay intact while
 * later rows are read into the same shared chunks.
 */
class AvroBinaryRowReaderTest extends FormatSuite {

    @Override
    protected FileFormat format() {
        return FileFormat.AVRO;
    }

    @Test
    void everyPrimitiveIsDecodedIntoABinaryRowWithItsValue() {
        Schema schema = TestSchemas.ALL_PRIMITIVES;
        byte[] uuid = new byte[16];
        for (int i = 0; i < uuid.length; i++) {
            uuid[i] = (byte) (0xF0 + i);
        }
        LocalDateTime beforeEpoch = LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000);
        Instant instant = Instant.parse("2024-02-29T12:34:56.789012Z");
        String longString = "a string that is much longer than seven bytes, with ü and 字";
        RowData full =
                GenericRowData.of(
                        true,
                        -42,
                        Long.MIN_VALUE,
                        -1.25f,
                        Double.NaN,
                        -719_162, // 0001-01-01
                        86_399_999, // 23:59:59.999
                        TimestampData.fromLocalDateTime(beforeEpoch),
                        TimestampData.fromInstant(instant),
                        StringData.fromString(longString),
                        uuid,
                        new byte[] {1, 2, 3, 4, 5, 6, 7},
                        new byte[] {(byte) 0xFF, 0, 1},
                        DecimalData.fromBigDecimal(new BigDecimal("-1234567.89"), 9, 2),
                        DecimalData.fromBigDecimal(new BigDecimal("-999999999999.999999"), 18, 6),
                        DecimalData.fromBigDecimal(
                                new BigDecimal("-1234567890123456789012345678.0123456789"), 38, 10),
                        Integer.MAX_VALUE,
                        Long.MAX_VALUE,
                        StringData.fromString(""),
                        TimestampData.fromEpochMillis(-1L, 999_000),
                        DecimalData.fromBigDecimal(new BigDecimal("0E-10"), 38, 10),
                        new byte[0]);
        GenericRowData nulls = new GenericRowData(schema.columns().size());
        nulls.setField(16, 7);
        nulls.setField(17, 8L);
        nulls.setField(18, StringData.fromString("s"));
        nulls.setField(19, TimestampData.fromEpochMillis(0L));
        nulls.setField(20, DecimalData.fromBigDecimal(BigDecimal.ONE, 38, 10));
        nulls.setField(21, new byte[] {9});
        File file = files.newFile(dir);
        files.writeRows(file, schema, null, List.of(full, nulls));

        List<RowData> rows = files.readRows(file, schema);

        assertThat(rows)
                .hasSize(2)
                .allSatisfy(r -> assertThat(r).isInstanceOf(BinaryRowData.class));
        RowData row = rows.get(0);
        assertThat(row.getBoolean(0)).isTrue();
        assertThat(row.getInt(1)).isEqualTo(-42);
        assertThat(row.getLong(2)).isEqualTo(Long.MIN_VALUE);
        assertThat(row.getFloat(3)).isEqualTo(-1.25f);
        assertThat(row.getDouble(4)).isNaN();
        assertThat(row.getInt(5)).isEqualTo(-719_162);
        assertThat(row.getInt(6)).isEqualTo(86_399_999);
        assertThat(row.getTimestamp(7, 6).toLocalDateTime()).isEqualTo(beforeEpoch);
        assertThat(row.getTimestamp(8, 6).toInstant()).isEqualTo(instant);
        assertThat(row.getString(9).toString()).isEqualTo(longString);
        assertThat(row.getBinary(10)).containsExactly(uuid);
        assertThat(row.getBinary(11)).containsExactly(1, 2, 3, 4, 5, 6, 7);
        assertThat(row.getBinary(12)).containsExactly(0xFF, 0, 1);
        assertThat(row.getDecimal(13, 9, 2).toBigDecimal())
                .isEqualTo(new BigDecimal("-1234567.89"));
        assertThat(row.getDecimal(14, 18, 6).toBigDecimal())
                .isEqualTo(new BigDecimal("-999999999999.999999"));
        assertThat(row.getDecimal(15, 38, 10).toBigDecimal())
                .isEqualTo(new BigDecimal("-1234567890123456789012345678.0123456789"));
        assertThat(row.getInt(16)).isEqualTo(Integer.MAX_VALUE);
        assertThat(row.getLong(17)).isEqualTo(Long.MAX_VALUE);
        assertThat(row.getString(18).toString()).isEmpty();
        assertThat(row.getTimestamp(19, 6)).isEqualTo(TimestampData.fromEpochMillis(-1L, 999_000));
        assertThat(row.getDecimal(20, 38, 10).toBigDecimal()).isEqualByComparingTo("0");
        assertThat(row.getBinary(21)).isEmpty();

        RowData nullRow = rows.get(1);
        for (int pos = 0; pos < 16; pos++) {
            assertThat(nullRow.isNullAt(pos)).as("field %s is null", pos).isTrue();
        }
        assertThat(nullRow.getInt(16)).isEqualTo(7);
        assertThat(nullRow.getString(18).toString()).isEqualTo("s");
        assertThat(nullRow.getBinary(21)).containsExactly(9);
    }

    @Test
    void rowsStayIntactWhileLaterRowsAreRead() throws IOException {
        Schema schema = TestSchemas.ALL_PRIMITIVES;
        // enough rows for many shared chunks of the row builder
        List<RowData> written = RandomRowData.generate(schema, 3000, 21L);
        File file = files.newFile(dir);
        files.writeRows(file, schema, null, written);
        RowDataSerializer serializer = new RowDataSerializer(FlinkSchemaUtil.convert(schema));

        List<RowData> kept = new ArrayList<>();
        List<RowData> copies = new ArrayList<>();
        try (CloseableIterable<RowData> rows = files.rowReader(file).project(schema).build()) {
            for (RowData row : rows) {
                assertThat(row).isInstanceOf(BinaryRowData.class);
                kept.add(row);
                copies.add(serializer.copy(row));
            }
        }

        RowDataAssert.assertRowsEqual(schema, written, kept);
        RowDataAssert.assertRowsEqual(schema, written, copies);
        BinaryRowData first = (BinaryRowData) kept.get(0);
        BinaryRowData last = (BinaryRowData) kept.get(kept.size() - 1);
        assertThat(first.getSegments()[0]).isNotSameAs(last.getSegments()[0]);
    }

    @Test
    void nestedValuesAreReadIntoTheBinaryRow() {
        Schema schema = TestSchemas.NESTED;
        List<RowData> written = RandomRowData.generate(schema, 200, 5L);
        File file = files.newFile(dir);
        files.writeRows(file, schema, null, written);

        List<RowData> rows = files.readRows(file, schema);

        assertThat(rows).allSatisfy(r -> assertThat(r).isInstanceOf(BinaryRowData.class));
        RowDataAssert.assertRowsEqual(schema, written, rows);
    }

    @Test
    void promotedReorderedMissingAndConstantColumnsKeepTheirPositions() {
        Schema fileSchema =
                new Schema(
                        required(1, "i", Types.IntegerType.get()),
                        optional(2, "f", Types.FloatType.get()),
                        optional(3, "small", Types.DecimalType.of(5, 2)),
                        optional(4, "wide", Types.DecimalType.of(9, 2)),
                        optional(5, "s", Types.StringType.get()),
                        optional(6, "replaced", Types.StringType.get()));
        List<RowData> written = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            written.add(
                    GenericRowData.of(
                            -i,
                            i % 3 == 0 ? null : i + 0.5f,
                            DecimalData.fromUnscaledLong(-i * 101L, 5, 2),
                            i % 4 == 0 ? null : DecimalData.fromUnscaledLong(i * 1001L, 9, 2),
                            StringData.fromString("s" + i),
                            StringData.fromString("file " + i)));
        }
        File file = files.newFile(dir);
        files.writeRows(file, fileSchema, null, written);
        Schema projection =
                new Schema(
                        optional(5, "renamed_s", Types.StringType.get()),
                        optional(4, "wide", Types.DecimalType.of(20, 2)),
                        MetadataColumns.ROW_POSITION,
                        required(1, "i", Types.LongType.get()),
                        optional(99, "missing", Types.IntegerType.get()),
                        optional(6, "replaced", Types.StringType.get()),
                        optional(2, "f", Types.DoubleType.get()),
                        optional(3, "small", Types.DecimalType.of(12, 2)),
                        optional(100, "constant", Types.StringType.get()));

        List<RowData> rows =
                files.readRows(
                        file, projection, null, Map.of(6, "from constant", 100, "partition"));

        assertThat(rows).hasSize(100);
        for (int i = 0; i < 100; i++) {
            RowData row = rows.get(i);
            assertThat(row).isInstanceOf(BinaryRowData.class);
            assertThat(row.getString(0).toString()).isEqualTo("s" + i);
            if (i % 4 == 0) {
                assertThat(row.isNullAt(1)).isTrue();
            } else {
                assertThat(row.getDecimal(1, 20, 2).toBigDecimal())
                        .isEqualTo(BigDecimal.valueOf(i * 1001L, 2));
            }
            assertThat(row.getLong(2)).isEqualTo(i);
            assertThat(row.getLong(3)).isEqualTo(-i);
            assertThat(row.isNullAt(4)).isTrue();
            assertThat(row.getString(5).toString()).isEqualTo("from constant");
            if (i % 3 == 0) {
                assertThat(row.isNullAt(6)).isTrue();
            } else {
                assertThat(row.getDouble(6)).isEqualTo(i + 0.5d);
            }
            assertThat(row.getDecimal(7, 12, 2).toBigDecimal())
                    .isEqualTo(BigDecimal.valueOf(-i * 101L, 2));
            assertThat(row.getString(8).toString()).isEqualTo("partition");
        }
    }

    @Test
    void readsUnionsWithNullAsTheSecondBranch() throws IOException {
        // Iceberg writes [null, type]; other writers may write [type, null]
        org.apache.avro.Schema avroSchema =
                SchemaBuilder.record("r")
                        .fields()
                        .name("id")
                        .prop("field-id", 1)
                        .type()
                        .unionOf()
                        .longType()
                        .and()
                        .nullType()
                        .endUnion()
                        .longDefault(0L)
                        .name("name")
                        .prop("field-id", 2)
                        .type()
                        .unionOf()
                        .stringType()
                        .and()
                        .nullType()
                        .endUnion()
                        .stringDefault("")
                        .name("data")
                        .prop("field-id", 3)
                        .type()
                        .unionOf()
                        .bytesType()
                        .and()
                        .nullType()
                        .endUnion()
                        .bytesDefault(new byte[0])
                        .endRecord();
        File file = files.newFile(dir);
        try (DataFileWriter<GenericData.Record> writer =
                new DataFileWriter<>(new GenericDatumWriter<>(avroSchema))) {
            writer.create(avroSchema, file);
            for (int i = 0; i < 10; i++) {
                GenericData.Record record = new GenericData.Record(avroSchema);
                record.put("id", i % 2 == 0 ? null : (long) i);
                record.put("name", i % 3 == 0 ? null : new Utf8("name " + i));
                record.put(
                        "data",
                        i % 5 == 0
                                ? null
                                : ByteBuffer.wrap(("d" + i).getBytes(StandardCharsets.UTF_8)));
                writer.append(record);
            }
        }
        Schema schema =
                new Schema(
                        optional(1, "id", Types.LongType.get()),
                        optional(2, "name", Types.StringType.get()),
                        optional(3, "data", Types.BinaryType.get()));

        List<RowData> rows = files.readRows(file, schema);

        assertThat(rows).hasSize(10);
        for (int i = 0; i < 10; i++) {
            RowData row = rows.get(i);
            assertThat(row).isInstanceOf(BinaryRowData.class);
            if (i % 2 == 0) {
                assertThat(row.isNullAt(0)).as("id of row %s", i).isTrue();
            } else {
                assertThat(row.getLong(0)).isEqualTo(i);
            }
            if (i % 3 == 0) {
                assertThat(row.isNullAt(1)).as("name of row %s", i).isTrue();
            } else {
                assertThat(row.getString(1).toString()).isEqualTo("name " + i);
            }
            if (i % 5 == 0) {
                assertThat(row.isNullAt(2)).as("data of row %s", i).isTrue();
            } else {
                assertThat(new String(row.getBinary(2), StandardCharsets.UTF_8)).isEqualTo("d" + i);
            }
        }
    }
}
