package dev.icebergflink.data;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.testing.RowDataAssert;
import java.io.File;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.ArrayData;
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
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * Flink types without an exact Iceberg twin (TINYINT, SMALLINT, CHAR, VARCHAR(n), TIMESTAMP(3),
 * TIMESTAMP_LTZ(3), TIME(3), MULTISET, and narrower numbers into wider columns) are written into
 * their Iceberg counterparts and read back as the Iceberg-side types, in every file format; binary
 * rows and strings spread over memory segments are read correctly.
 */
public abstract class FormatFlinkTypesSuite extends FormatSuite {

    private static final RowType FLINK_ONLY =
            (RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("tiny", DataTypes.TINYINT()),
                                    DataTypes.FIELD("small", DataTypes.SMALLINT().notNull()),
                                    DataTypes.FIELD("fixed_chars", DataTypes.CHAR(5)),
                                    DataTypes.FIELD("short_text", DataTypes.VARCHAR(10)),
                                    DataTypes.FIELD("ts_millis", DataTypes.TIMESTAMP(3)),
                                    DataTypes.FIELD("ltz_millis", DataTypes.TIMESTAMP_LTZ(3)),
                                    DataTypes.FIELD(
                                            "words", DataTypes.MULTISET(DataTypes.STRING())),
                                    DataTypes.FIELD("time", DataTypes.TIME(3)),
                                    DataTypes.FIELD(
                                            "nested",
                                            DataTypes.ARRAY(
                                                    DataTypes.ROW(
                                                            DataTypes.FIELD(
                                                                    "t", DataTypes.TINYINT()),
                                                            DataTypes.FIELD(
                                                                    "m",
                                                                    DataTypes.MULTISET(
                                                                            DataTypes
                                                                                    .SMALLINT()))))),
                                    DataTypes.FIELD("tinies", DataTypes.ARRAY(DataTypes.TINYINT())),
                                    DataTypes.FIELD(
                                            "inner",
                                            DataTypes.ROW(
                                                    DataTypes.FIELD("s", DataTypes.SMALLINT()),
                                                    DataTypes.FIELD("c", DataTypes.CHAR(2)))))
                            .getLogicalType();

    /** Iceberg columns wider than the Flink types written into them (in lists, maps and units). */
    private static final Schema WIDER =
            new Schema(
                    optional(
                            3, "small_list", Types.ListType.ofOptional(4, Types.IntegerType.get())),
                    optional(
                            5,
                            "int_bag",
                            Types.MapType.ofRequired(
                                    6, 7, Types.IntegerType.get(), Types.IntegerType.get())),
                    optional(8, "ts_nanos_from_millis", Types.TimestampNanoType.withZone()),
                    optional(
                            9,
                            "bag",
                            Types.MapType.ofRequired(
                                    10, 11, Types.StringType.get(), Types.IntegerType.get())));

    private static final RowType NARROWER =
            RowType.of(
                    new LogicalType[] {
                        new ArrayType(new SmallIntType()),
                        new MultisetType(new IntType(false)),
                        new LocalZonedTimestampType(3),
                        new MultisetType(new VarCharType(5))
                    },
                    new String[] {"small_list", "int_bag", "ts_nanos_from_millis", "bag"});

    @Test
    void writesFlinkOnlyTypesAsTheirIcebergCounterparts() {
        Schema schema = FlinkSchemaUtil.toSchema(FLINK_ONLY);
        assertThat(schema.findType("tiny")).isEqualTo(Types.IntegerType.get());
        assertThat(schema.findType("words"))
                .isEqualTo(
                        Types.MapType.ofRequired(
                                schema.findField("words.key").fieldId(),
                                schema.findField("words.value").fieldId(),
                                Types.StringType.get(),
                                Types.IntegerType.get()));
        LocalDateTime local = LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123_000_000);
        Instant instant = Instant.parse("1969-07-20T20:17:40.456Z");
        Map<Object, Object> words = new LinkedHashMap<>();
        words.put(StringData.fromString("a"), 2);
        words.put(StringData.fromString("b"), 1);
        Map<Object, Object> shorts = new LinkedHashMap<>();
        shorts.put((short) -3, 4);
        List<RowData> rows =
                List.of(
                        GenericRowData.of(
                                (byte) -128,
                                (short) 32_767,
                                StringData.fromString("abc  "),
                                StringData.fromString("hello"),
                                TimestampData.fromLocalDateTime(local),
                                TimestampData.fromInstant(instant),
                                new GenericMapData(words),
                                45_296_789,
                                new GenericArrayData(
                                        new Object[] {
                                            GenericRowData.of(
                                                    (byte) 127, new GenericMapData(shorts)),
                                            null,
                                            GenericRowData.of(null, null)
                                        }),
                                new GenericArrayData(new Object[] {(byte) 1, null, (byte) -2}),
                                GenericRowData.of((short) -7, StringData.fromString("zz"))),
                        GenericRowData.of(
                                null,
                                (short) -1,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null));
        File file = files.newFile(dir);

        files.writeRows(file, schema, FLINK_ONLY, rows);
        List<RowData> read = files.readRows(file, schema);

        RowData first = read.get(0);
        assertThat(first.getInt(0)).isEqualTo(-128);
        assertThat(first.getInt(1)).isEqualTo(32_767);
        assertThat(first.getString(2).toString()).isEqualTo("abc  ");
        assertThat(first.getString(3).toString()).isEqualTo("hello");
        assertThat(first.getTimestamp(4, 6).toLocalDateTime()).isEqualTo(local);
        assertThat(first.getTimestamp(5, 6).toInstant()).isEqualTo(instant);
        MapData counts = first.getMap(6);
        assertThat(counts.size()).isEqualTo(2);
        assertThat(counts.keyArray().getString(0).toString()).isEqualTo("a");
        assertThat(counts.valueArray().getInt(0)).isEqualTo(2);
        assertThat(counts.keyArray().getString(1).toString()).isEqualTo("b");
        assertThat(counts.valueArray().getInt(1)).isEqualTo(1);
        assertThat(first.getInt(7)).isEqualTo(45_296_789);
        ArrayData nested = first.getArray(8);
        assertThat(nested.size()).isEqualTo(3);
        assertThat(nested.getRow(0, 2).getInt(0)).isEqualTo(127);
        assertThat(nested.getRow(0, 2).getMap(1).keyArray().getInt(0)).isEqualTo(-3);
        assertThat(nested.getRow(0, 2).getMap(1).valueArray().getInt(0)).isEqualTo(4);
        assertThat(nested.isNullAt(1)).isTrue();
        assertThat(nested.getRow(2, 2).isNullAt(0)).isTrue();
        assertThat(nested.getRow(2, 2).isNullAt(1)).isTrue();
        assertThat(first.getArray(9).getInt(0)).isEqualTo(1);
        assertThat(first.getArray(9).isNullAt(1)).isTrue();
        assertThat(first.getArray(9).getInt(2)).isEqualTo(-2);
        assertThat(first.getRow(10, 2).getInt(0)).isEqualTo(-7);
        assertThat(first.getRow(10, 2).getString(1).toString()).isEqualTo("zz");

        RowData second = read.get(1);
        assertThat(second.getInt(1)).isEqualTo(-1);
        for (int pos : new int[] {0, 2, 3, 4, 5, 6, 7, 8, 9, 10}) {
            assertThat(second.isNullAt(pos)).as("position %s", pos).isTrue();
        }
    }

    @Test
    void writesNarrowerFlinkTypesIntoWiderColumns() {
        TimestampData millis = TimestampData.fromEpochMillis(-1_234_567_891L);
        GenericRowData written =
                GenericRowData.of(
                        new GenericArrayData(new Object[] {(short) 1, null, (short) -3}),
                        new GenericMapData(linkedMap(10, 3, -4, 1)),
                        millis,
                        new GenericMapData(
                                linkedMap(
                                        StringData.fromString("x"),
                                        2,
                                        StringData.fromString("yy"),
                                        1)));
        GenericRowData nulls = new GenericRowData(4);
        File file = files.newFile(dir);

        files.writeRows(file, WIDER, NARROWER, List.of(written, nulls));
        List<RowData> read = files.readRows(file, WIDER);

        GenericRowData expected =
                GenericRowData.of(
                        new GenericArrayData(new Object[] {1, null, -3}),
                        new GenericMapData(linkedMap(10, 3, -4, 1)),
                        millis,
                        new GenericMapData(
                                linkedMap(
                                        StringData.fromString("x"),
                                        2,
                                        StringData.fromString("yy"),
                                        1)));
        RowDataAssert.assertRowsEqual(WIDER, List.of(expected, nulls), read);
    }

    @Test
    void readsBinaryRowsWithTheirDeclaredPrecisions() {
        RowType rowType =
                RowType.of(
                        new LogicalType[] {
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
        File file = files.newFile(dir);

        files.writeRows(file, schema, rowType, List.of(row));
        RowData read = files.readRows(file, schema).get(0);

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
        File file = files.newFile(dir);

        files.writeRows(
                file, schema, null, List.of(GenericRowData.of(offset), GenericRowData.of(split)));

        assertThat(files.readRows(file, schema))
                .extracting(r -> r.getString(0).toString())
                .containsExactly("héllo wörld 🚀", "héllo wörld 🚀");
    }

    private static <K, V> Map<K, V> linkedMap(K k1, V v1, K k2, V v2) {
        Map<K, V> map = new LinkedHashMap<>();
        map.put(k1, v1);
        map.put(k2, v2);
        return map;
    }
}
