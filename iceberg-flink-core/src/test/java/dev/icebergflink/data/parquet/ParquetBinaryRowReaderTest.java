package dev.icebergflink.data.parquet;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.data.FormatTestFiles;
import dev.icebergflink.testing.TestSchemas;
import java.io.File;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
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
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Parquet reader's top-level rows are {@link BinaryRowData} decoded straight from the columns:
 * every primitive type and null, the encodings other writers use, fields read by value readers next
 * to direct ones, and rows that stay intact while later rows are read (they share chunks).
 */
class ParquetBinaryRowReaderTest {

    private static final FormatTestFiles FILES = FormatTestFiles.of(FileFormat.PARQUET);
    private static final Schema PRIMITIVES = TestSchemas.ALL_PRIMITIVES;
    private static final LocalDateTime LOCAL =
            LocalDateTime.of(2024, 2, 29, 12, 34, 56, 123_456_000);
    private static final Instant INSTANT = Instant.parse("2001-09-09T01:46:40.123456Z");
    private static final Instant BEFORE_EPOCH = Instant.parse("1969-12-31T23:59:59.999999Z");
    private static final byte[] UUID_BYTES = bytes(16, 3);
    private static final byte[] FIXED_BYTES = bytes(7, -2);

    @TempDir File temp;

    @Test
    void readsEveryPrimitiveTypeAndNullIntoBinaryRows() {
        File file = new File(temp, "primitives.parquet");
        FILES.writeRows(file, PRIMITIVES, null, List.of(fullRow(), nullRow()));

        List<RowData> rows = FILES.readRows(file, PRIMITIVES);

        assertThat(rows).hasSize(2).allMatch(row -> row instanceof BinaryRowData);
        RowData full = rows.get(0);
        assertThat(full.getBoolean(0)).isTrue();
        assertThat(full.getInt(1)).isEqualTo(-7);
        assertThat(full.getLong(2)).isEqualTo(1L << 40);
        assertThat(full.getFloat(3)).isEqualTo(1.5f);
        assertThat(full.getDouble(4)).isEqualTo(-2.25);
        assertThat(full.getInt(5)).isEqualTo(19_000);
        assertThat(full.getInt(6)).isEqualTo(45_296_789);
        assertThat(full.getTimestamp(7, 6).toLocalDateTime()).isEqualTo(LOCAL);
        assertThat(full.getTimestamp(8, 6).toInstant()).isEqualTo(INSTANT);
        assertThat(full.getString(9).toString()).isEqualTo("héllo wörld");
        assertThat(full.getBinary(10)).containsExactly(UUID_BYTES);
        assertThat(full.getBinary(11)).containsExactly(FIXED_BYTES);
        assertThat(full.getBinary(12)).containsExactly(1, 2, 3);
        assertThat(full.getDecimal(13, 9, 2).toBigDecimal()).isEqualTo("-1234567.89");
        assertThat(full.getDecimal(14, 18, 6).toBigDecimal()).isEqualTo("123456789012.345678");
        assertThat(full.getDecimal(15, 38, 10).toBigDecimal())
                .isEqualTo("-1234567890123456789012345678.0123456789");
        assertRequiredFields(full);

        RowData nulls = rows.get(1);
        for (int pos = 0; pos < 16; pos++) {
            assertThat(nulls.isNullAt(pos)).as("field %s", pos).isTrue();
        }
        assertRequiredFields(nulls);
    }

    @Test
    void readsTheEncodingsOfOtherWritersIntoBinaryRows() throws IOException {
        MessageType fileSchema =
                org.apache.parquet.schema.Types.buildMessage()
                        .required(PrimitiveTypeName.INT32)
                        .id(1)
                        .named("id")
                        .optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY)
                        .length(5)
                        .as(LogicalTypeAnnotation.decimalType(2, 10))
                        .id(2)
                        .named("dec_fixed")
                        .optional(PrimitiveTypeName.BINARY)
                        .as(LogicalTypeAnnotation.decimalType(3, 12))
                        .id(3)
                        .named("dec_binary")
                        .optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY)
                        .length(12)
                        .as(LogicalTypeAnnotation.decimalType(0, 18))
                        .id(4)
                        .named("dec_wide_fixed")
                        .optional(PrimitiveTypeName.INT32)
                        .as(LogicalTypeAnnotation.decimalType(2, 9))
                        .id(5)
                        .named("dec_widened")
                        .optional(PrimitiveTypeName.INT32)
                        .id(6)
                        .named("int_as_long")
                        .optional(PrimitiveTypeName.FLOAT)
                        .id(7)
                        .named("float_as_double")
                        .optional(PrimitiveTypeName.INT64)
                        .as(LogicalTypeAnnotation.timeType(false, TimeUnit.NANOS))
                        .id(8)
                        .named("time_nanos")
                        .optional(PrimitiveTypeName.INT64)
                        .as(LogicalTypeAnnotation.timestampType(true, TimeUnit.NANOS))
                        .id(9)
                        .named("ts_nanos")
                        .optionalGroup()
                        .optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY)
                        .length(5)
                        .as(LogicalTypeAnnotation.decimalType(2, 10))
                        .id(11)
                        .named("inner_dec")
                        .optional(PrimitiveTypeName.INT32)
                        .id(12)
                        .named("inner_long")
                        .id(10)
                        .named("nested")
                        .named("other_writer");
        Schema expected =
                new Schema(
                        required(1, "id", Types.IntegerType.get()),
                        optional(2, "dec_fixed", Types.DecimalType.of(10, 2)),
                        optional(3, "dec_binary", Types.DecimalType.of(12, 3)),
                        optional(4, "dec_wide_fixed", Types.DecimalType.of(18, 0)),
                        optional(5, "dec_widened", Types.DecimalType.of(20, 2)),
                        optional(6, "int_as_long", Types.LongType.get()),
                        optional(7, "float_as_double", Types.DoubleType.get()),
                        optional(8, "time_nanos", Types.TimeType.get()),
                        optional(9, "ts_nanos", Types.TimestampNanoType.withZone()),
                        optional(
                                10,
                                "nested",
                                Types.StructType.of(
                                        optional(11, "inner_dec", Types.DecimalType.of(10, 2)),
                                        optional(12, "inner_long", Types.LongType.get()))));
        File file = new File(temp, "other-writer.parquet");
        SimpleGroupFactory groups = new SimpleGroupFactory(fileSchema);
        try (ParquetWriter<Group> writer =
                ExampleParquetWriter.builder(new LocalOutputFile(file.toPath()))
                        .withType(fileSchema)
                        .build()) {
            Group first = groups.newGroup();
            first.add("id", 1);
            first.add("dec_fixed", fixed(new BigInteger("-1234567890"), 5));
            first.add("dec_binary", Binary.fromConstantByteArray(unscaled("123456789.012")));
            first.add("dec_wide_fixed", fixed(BigInteger.valueOf(-5), 12));
            first.add("dec_widened", -12345);
            first.add("int_as_long", Integer.MIN_VALUE);
            first.add("float_as_double", 0.75f);
            first.add("time_nanos", 45_296_789_999_999L);
            first.add("ts_nanos", -1L);
            Group nested = first.addGroup("nested");
            nested.add("inner_dec", fixed(BigInteger.valueOf(99), 5));
            nested.add("inner_long", 8);
            writer.write(first);

            Group second = groups.newGroup();
            second.add("id", 2);
            writer.write(second);
        }

        List<RowData> rows = FILES.readRows(file, expected);

        assertThat(rows).hasSize(2).allMatch(row -> row instanceof BinaryRowData);
        RowData first = rows.get(0);
        assertThat(first.getInt(0)).isEqualTo(1);
        assertThat(first.getDecimal(1, 10, 2).toBigDecimal()).isEqualTo("-12345678.90");
        assertThat(first.getDecimal(2, 12, 3).toBigDecimal()).isEqualTo("123456789.012");
        assertThat(first.getDecimal(3, 18, 0).toBigDecimal()).isEqualTo("-5");
        assertThat(first.getDecimal(4, 20, 2).toBigDecimal()).isEqualTo("-123.45");
        assertThat(first.getLong(5)).isEqualTo(Integer.MIN_VALUE);
        assertThat(first.getDouble(6)).isEqualTo(0.75);
        assertThat(first.getInt(7)).isEqualTo(45_296_789);
        assertThat(first.getTimestamp(8, 9).toInstant())
                .isEqualTo(Instant.parse("1969-12-31T23:59:59.999999999Z"));
        RowData inner = first.getRow(9, 2);
        assertThat(inner.getDecimal(0, 10, 2).toBigDecimal()).isEqualTo("0.99");
        assertThat(inner.getLong(1)).isEqualTo(8L);

        RowData second = rows.get(1);
        assertThat(second.getInt(0)).isEqualTo(2);
        for (int pos = 1; pos < 10; pos++) {
            assertThat(second.isNullAt(pos)).as("field %s", pos).isTrue();
        }
    }

    @Test
    void readsValueReaderFieldsBetweenDirectColumns() {
        Schema schema =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        optional(
                                2,
                                "point",
                                Types.StructType.of(
                                        required(3, "x", Types.IntegerType.get()),
                                        optional(4, "label", Types.StringType.get()))),
                        optional(5, "name", Types.StringType.get()));
        List<RowData> written = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            written.add(
                    GenericRowData.of(
                            (long) i,
                            i % 5 == 0
                                    ? null
                                    : GenericRowData.of(i * 3, StringData.fromString("p" + i)),
                            StringData.fromString("name-" + i)));
        }
        File file = new File(temp, "mixed.parquet");
        FILES.writeRows(file, schema, null, written);
        Schema projection =
                new Schema(
                        MetadataColumns.ROW_POSITION,
                        schema.findField(5),
                        optional(6, "region", Types.StringType.get()),
                        schema.findField(2),
                        schema.findField(1));

        List<RowData> rows =
                FILES.readRows(
                        file,
                        projection,
                        null,
                        java.util.Map.of(6, StringData.fromString("eu-west")));

        assertThat(rows).hasSize(300).allMatch(row -> row instanceof BinaryRowData);
        for (int i = 0; i < 300; i++) {
            RowData row = rows.get(i);
            assertThat(row.getLong(0)).isEqualTo(i);
            assertThat(row.getString(1).toString()).isEqualTo("name-" + i);
            assertThat(row.getString(2).toString()).isEqualTo("eu-west");
            if (i % 5 == 0) {
                assertThat(row.isNullAt(3)).as("point of row %s", i).isTrue();
            } else {
                // nested rows are read into a reused container: each must still hold its own
                RowData point = row.getRow(3, 2);
                assertThat(point.getInt(0)).isEqualTo(i * 3);
                assertThat(point.getString(1).toString()).isEqualTo("p" + i);
            }
            assertThat(row.getLong(4)).isEqualTo(i);
        }
    }

    @Test
    void rowsStayIntactWhileLaterRowsAreRead() throws IOException {
        Schema schema =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        optional(2, "text", Types.StringType.get()),
                        optional(3, "data", Types.BinaryType.get()));
        Random random = new Random(17L);
        List<RowData> written = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            // mostly small rows sharing chunks, some larger than a shared slice
            int length = i % 400 == 7 ? 6000 : random.nextInt(200);
            byte[] data = new byte[random.nextInt(50)];
            random.nextBytes(data);
            written.add(
                    GenericRowData.of(
                            (long) i,
                            i % 11 == 0 ? null : StringData.fromString(text(random, length)),
                            data));
        }
        File file = new File(temp, "many.parquet");
        FILES.writeRows(file, schema, null, written);
        RowDataSerializer serializer = new RowDataSerializer(FlinkSchemaUtil.convert(schema));

        List<RowData> kept = new ArrayList<>();
        List<RowData> copiedWhenRead = new ArrayList<>();
        try (CloseableIterable<RowData> rows = FILES.rowReader(file).project(schema).build()) {
            for (RowData row : rows) {
                kept.add(row);
                copiedWhenRead.add(serializer.copy(row));
            }
        }

        assertThat(kept).hasSize(written.size());
        for (int i = 0; i < written.size(); i++) {
            RowData expected = written.get(i);
            for (RowData actual : List.of(kept.get(i), copiedWhenRead.get(i))) {
                assertThat(actual).isInstanceOf(BinaryRowData.class);
                assertThat(actual.getLong(0)).isEqualTo(i);
                if (expected.isNullAt(1)) {
                    assertThat(actual.isNullAt(1)).as("text of row %s", i).isTrue();
                } else {
                    assertThat(actual.getString(1)).isEqualTo(expected.getString(1));
                }
                assertThat(actual.getBinary(2)).containsExactly(expected.getBinary(2));
            }
        }
    }

    private static GenericRowData fullRow() {
        return GenericRowData.of(
                true,
                -7,
                1L << 40,
                1.5f,
                -2.25,
                19_000,
                45_296_789,
                TimestampData.fromLocalDateTime(LOCAL),
                TimestampData.fromInstant(INSTANT),
                StringData.fromString("héllo wörld"),
                UUID_BYTES,
                FIXED_BYTES,
                new byte[] {1, 2, 3},
                decimal("-1234567.89", 9, 2),
                decimal("123456789012.345678", 18, 6),
                decimal("-1234567890123456789012345678.0123456789", 38, 10),
                42,
                -1L,
                StringData.fromString(""),
                TimestampData.fromInstant(BEFORE_EPOCH),
                decimal("0.0000000001", 38, 10),
                new byte[0]);
    }

    private static GenericRowData nullRow() {
        GenericRowData row = fullRow();
        for (int pos = 0; pos < 16; pos++) {
            row.setField(pos, null);
        }
        return row;
    }

    private static void assertRequiredFields(RowData row) {
        assertThat(row.getInt(16)).isEqualTo(42);
        assertThat(row.getLong(17)).isEqualTo(-1L);
        assertThat(row.getString(18).toString()).isEmpty();
        assertThat(row.getTimestamp(19, 6).toInstant()).isEqualTo(BEFORE_EPOCH);
        assertThat(row.getDecimal(20, 38, 10).toBigDecimal()).isEqualTo("0.0000000001");
        assertThat(row.getBinary(21)).isEmpty();
    }

    private static DecimalData decimal(String value, int precision, int scale) {
        return DecimalData.fromBigDecimal(new BigDecimal(value), precision, scale);
    }

    private static byte[] bytes(int length, int start) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (start + i * 37);
        }
        return bytes;
    }

    private static byte[] unscaled(String decimal) {
        return new BigDecimal(decimal).unscaledValue().toByteArray();
    }

    /** Big-endian two's complement in exactly {@code length} bytes, sign-extended. */
    private static Binary fixed(BigInteger value, int length) {
        byte[] minimal = value.toByteArray();
        byte[] bytes = new byte[length];
        Arrays.fill(bytes, 0, length - minimal.length, (byte) (value.signum() < 0 ? -1 : 0));
        System.arraycopy(minimal, 0, bytes, length - minimal.length, minimal.length);
        return Binary.fromConstantByteArray(bytes);
    }

    private static String text(Random random, int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(i % 13 == 0 ? 'ß' : (char) ('a' + random.nextInt(26)));
        }
        return text.toString();
    }
}
