package dev.icebergflink.data.orc;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.FlinkSchemaUtil;
import java.io.File;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flink types without an Iceberg type of their own (TINYINT, SMALLINT, CHAR, VARCHAR(n),
 * TIMESTAMP(3), TIMESTAMP_LTZ(3), MULTISET) are written into the matching Iceberg columns and read
 * back as the Iceberg-side types; binary rows, whose getters depend on the declared precision, are
 * read correctly.
 */
class FlinkOrcFlinkTypesTest {

    private static final RowType FLINK_TYPE =
            RowType.of(
                    new org.apache.flink.table.types.logical.LogicalType[] {
                        new TinyIntType(),
                        new SmallIntType(),
                        new CharType(5),
                        new VarCharType(10),
                        new TimestampType(3),
                        new LocalZonedTimestampType(3),
                        new MultisetType(new VarCharType(VarCharType.MAX_LENGTH)),
                        new ArrayType(new TinyIntType()),
                        RowType.of(new SmallIntType(), new CharType(2))
                    },
                    new String[] {
                        "tiny",
                        "small",
                        "fixed_chars",
                        "chars",
                        "ts3",
                        "ltz3",
                        "bag",
                        "tinies",
                        "inner"
                    });

    @TempDir Path temp;

    @Test
    void writesFlinkOnlyTypesIntoTheirIcebergColumns() {
        Schema schema = FlinkSchemaUtil.toSchema(FLINK_TYPE);
        assertThat(schema.findType("tiny")).isEqualTo(Types.IntegerType.get());
        assertThat(schema.findType("bag"))
                .isEqualTo(
                        Types.MapType.ofRequired(
                                schema.findField("bag").type().asMapType().keyId(),
                                schema.findField("bag").type().asMapType().valueId(),
                                Types.StringType.get(),
                                Types.IntegerType.get()));
        Map<Object, Object> bag = new LinkedHashMap<>();
        bag.put(StringData.fromString("apple"), 3);
        bag.put(StringData.fromString("pear"), 1);
        LocalDateTime local = LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123_000_000);
        Instant instant = Instant.parse("1969-07-20T20:17:40.007Z");
        RowData row =
                GenericRowData.of(
                        (byte) -128,
                        (short) 32767,
                        StringData.fromString("ab   "),
                        StringData.fromString("hello"),
                        TimestampData.fromLocalDateTime(local),
                        TimestampData.fromInstant(instant),
                        new GenericMapData(bag),
                        new GenericArrayData(new Object[] {(byte) 1, null, (byte) -2}),
                        GenericRowData.of((short) -7, StringData.fromString("zz")));
        RowData nulls = new GenericRowData(9);
        File file = temp.resolve("flink.orc").toFile();

        OrcTestFiles.writeRows(file, schema, FLINK_TYPE, List.of(row, nulls));
        List<RowData> read = OrcTestFiles.readRows(file, schema);

        RowData first = read.get(0);
        assertThat(first.getInt(0)).isEqualTo(-128);
        assertThat(first.getInt(1)).isEqualTo(32767);
        assertThat(first.getString(2).toString()).isEqualTo("ab   ");
        assertThat(first.getString(3).toString()).isEqualTo("hello");
        assertThat(first.getTimestamp(4, 6).toLocalDateTime()).isEqualTo(local);
        assertThat(first.getTimestamp(5, 6).toInstant()).isEqualTo(instant);
        MapData readBag = first.getMap(6);
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (int i = 0; i < readBag.size(); i++) {
            counts.put(readBag.keyArray().getString(i).toString(), readBag.valueArray().getInt(i));
        }
        assertThat(counts).containsExactly(Map.entry("apple", 3), Map.entry("pear", 1));
        assertThat(first.getArray(7).getInt(0)).isEqualTo(1);
        assertThat(first.getArray(7).isNullAt(1)).isTrue();
        assertThat(first.getArray(7).getInt(2)).isEqualTo(-2);
        assertThat(first.getRow(8, 2).getInt(0)).isEqualTo(-7);
        assertThat(first.getRow(8, 2).getString(1).toString()).isEqualTo("zz");
        for (int i = 0; i < 9; i++) {
            assertThat(read.get(1).isNullAt(i)).as("field %s of the null row", i).isTrue();
        }
    }

    @Test
    void readsBinaryRowsWithTheirDeclaredPrecisions() {
        RowType rowType =
                RowType.of(
                        new org.apache.flink.table.types.logical.LogicalType[] {
                            new TimestampType(3),
                            new LocalZonedTimestampType(3),
                            new DecimalType(10, 2),
                            new TinyIntType(),
                            new SmallIntType(),
                            new BigIntType()
                        },
                        new String[] {"ts", "ltz", "amount", "tiny", "small", "big"});
        Schema schema = FlinkSchemaUtil.toSchema(rowType);
        TimestampData ts = TimestampData.fromEpochMillis(1_700_000_000_123L);
        BinaryRowData row = new BinaryRowData(6);
        byte[] fixedPart = new byte[BinaryRowData.calculateFixPartSizeInBytes(6)];
        row.pointTo(MemorySegmentFactory.wrap(fixedPart), 0, fixedPart.length);
        row.setTimestamp(0, ts, 3);
        row.setTimestamp(1, ts, 3);
        row.setDecimal(2, DecimalData.fromBigDecimal(new BigDecimal("-12345678.90"), 10, 2), 10);
        row.setByte(3, (byte) 42);
        row.setShort(4, (short) -42);
        row.setNullAt(5);
        File file = temp.resolve("binary.orc").toFile();

        OrcTestFiles.writeRows(file, schema, rowType, List.of(row));
        RowData read = OrcTestFiles.readRows(file, schema).get(0);

        assertThat(read.getTimestamp(0, 6)).isEqualTo(ts);
        assertThat(read.getTimestamp(1, 6)).isEqualTo(ts);
        assertThat(read.getDecimal(2, 10, 2).toBigDecimal())
                .isEqualTo(new BigDecimal("-12345678.90"));
        assertThat(read.getInt(3)).isEqualTo(42);
        assertThat(read.getInt(4)).isEqualTo(-42);
        assertThat(read.isNullAt(5)).isTrue();
    }

    @Test
    void copiesStringsThatLiveInsideLargerOrSplitMemorySegments() {
        Schema schema = new Schema(optional(1, "s", Types.StringType.get()));
        byte[] utf8 = "héllo wörld 🚀".getBytes(StandardCharsets.UTF_8);
        byte[] padded = new byte[utf8.length + 7];
        System.arraycopy(utf8, 0, padded, 5, utf8.length);
        StringData offset =
                BinaryStringData.fromAddress(
                        new MemorySegment[] {MemorySegmentFactory.wrap(padded)}, 5, utf8.length);
        // Flink's segments all have one size; the string starts at 3 and crosses into the second
        byte[] head = new byte[16];
        byte[] tail = new byte[16];
        System.arraycopy(utf8, 0, head, 3, 13);
        System.arraycopy(utf8, 13, tail, 0, utf8.length - 13);
        StringData split =
                BinaryStringData.fromAddress(
                        new MemorySegment[] {
                            MemorySegmentFactory.wrap(head), MemorySegmentFactory.wrap(tail)
                        },
                        3,
                        utf8.length);
        File file = temp.resolve("strings.orc").toFile();

        OrcTestFiles.writeRows(
                file, schema, null, List.of(GenericRowData.of(offset), GenericRowData.of(split)));

        assertThat(OrcTestFiles.readRows(file, schema))
                .extracting(r -> r.getString(0).toString())
                .containsExactly("héllo wörld 🚀", "héllo wörld 🚀");
    }

    @Test
    void rejectsAFlinkTypeThatDoesNotFitTheColumnNamingIt() {
        Schema schema =
                new Schema(
                        optional(
                                1,
                                "outer",
                                Types.StructType.of(optional(2, "when", Types.DateType.get()))));
        RowType rowType = RowType.of(RowType.of(new IntType()));

        assertThatThrownBy(
                        () ->
                                OrcTestFiles.writeRows(
                                        temp.resolve("bad.orc").toFile(),
                                        schema,
                                        rowType,
                                        List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outer.when")
                .hasMessageContaining("INT")
                .hasMessageContaining("date");
    }

    @Test
    void rejectsADecimalThatDoesNotFitNamingTheColumn() {
        Schema schema = new Schema(optional(1, "price", Types.DecimalType.of(4, 2)));
        RowType rowType = RowType.of(new DecimalType(4, 2));
        RowData tooWide =
                GenericRowData.of(DecimalData.fromBigDecimal(new BigDecimal("123.45"), 5, 2));

        assertThatThrownBy(
                        () ->
                                OrcTestFiles.writeRows(
                                        temp.resolve("bad.orc").toFile(),
                                        schema,
                                        rowType,
                                        List.of(tooWide)))
                .hasMessageContaining("price")
                .hasMessageContaining("123.45");
    }
}
