package dev.icebergflink.data.row;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

class BinaryRowBuilderTest {

    private static final RowType ROW_TYPE =
            RowType.of(
                    new LogicalType[] {
                        new BigIntType(),
                        new IntType(),
                        new TinyIntType(),
                        new SmallIntType(),
                        new BooleanType(),
                        new FloatType(),
                        new DoubleType(),
                        new DateType(),
                        VarCharType.STRING_TYPE,
                        new VarBinaryType(VarBinaryType.MAX_LENGTH),
                        new DecimalType(10, 2),
                        new DecimalType(38, 10),
                        new TimestampType(6),
                        new LocalZonedTimestampType(3),
                        new ArrayType(VarCharType.STRING_TYPE),
                        new MapType(VarCharType.STRING_TYPE, new IntType()),
                        RowType.of(new IntType(), VarCharType.STRING_TYPE),
                        VarCharType.STRING_TYPE
                    });

    @Test
    void typedSettersWriteTheBinaryLayoutFlinkReads() {
        BinaryRowBuilder builder = new BinaryRowBuilder(ROW_TYPE);
        byte[] buffer = "xxshort-and-a-much-longer-string-valueyy".getBytes(StandardCharsets.UTF_8);

        RowData row = buildFullRow(builder, buffer, 7L);

        assertThat(row).isInstanceOf(BinaryRowData.class);
        assertThat(row.getLong(0)).isEqualTo(7L);
        assertThat(row.getInt(1)).isEqualTo(-12);
        assertThat(row.getByte(2)).isEqualTo((byte) 5);
        assertThat(row.getShort(3)).isEqualTo((short) 300);
        assertThat(row.getBoolean(4)).isTrue();
        assertThat(row.getFloat(5)).isEqualTo(1.5f);
        assertThat(row.getDouble(6)).isEqualTo(-2.25);
        assertThat(row.getInt(7)).isEqualTo(19_000);
        assertThat(row.getString(8).toString()).isEqualTo("short-and-a-much-longer-string-value");
        assertThat(row.getBinary(9)).containsExactly(new byte[] {'s', 'h'});
        assertThat(row.getDecimal(10, 10, 2).toBigDecimal()).isEqualByComparingTo("12345.67");
        assertThat(row.getDecimal(11, 38, 10).toBigDecimal())
                .isEqualByComparingTo("123456789012345678.0123456789");
        assertThat(row.getTimestamp(12, 6))
                .isEqualTo(TimestampData.fromEpochMillis(1_700_000_000_123L, 456_000));
        assertThat(row.getTimestamp(13, 3))
                .isEqualTo(TimestampData.fromEpochMillis(1_600_000_000_001L));
        assertThat(row.getArray(14).getString(1).toString()).isEqualTo("b");
        assertThat(row.getMap(15).size()).isEqualTo(1);
        assertThat(row.getMap(15).keyArray().getString(0).toString()).isEqualTo("k");
        assertThat(row.getMap(15).valueArray().getInt(0)).isEqualTo(9);
        assertThat(row.getRow(16, 2).getInt(0)).isEqualTo(1);
        assertThat(row.getRow(16, 2).getString(1).toString()).isEqualTo("nested");
        assertThat(row.isNullAt(17)).isTrue();
    }

    @Test
    void rowsStayIntactWhileLaterRowsAreBuiltAndCopyLikeFlinkDoes() {
        BinaryRowBuilder builder = new BinaryRowBuilder(ROW_TYPE);
        byte[] buffer = "xxshort-and-a-much-longer-string-valueyy".getBytes(StandardCharsets.UTF_8);
        List<RowData> rows = new ArrayList<>();
        // enough rows to fill several shared chunks
        for (long id = 0; id < 2_000; id++) {
            rows.add(buildFullRow(builder, buffer, id));
            buffer[2] = (byte) ('a' + id % 26); // the source buffer is reused and changes
        }
        RowDataSerializer serializer = new RowDataSerializer(ROW_TYPE);
        for (int i = 0; i < rows.size(); i++) {
            RowData copy = serializer.copy(rows.get(i));
            assertThat(copy.getLong(0)).isEqualTo(i);
            char first = i == 0 ? 's' : (char) ('a' + (i - 1) % 26);
            assertThat(copy.getString(8).toString())
                    .isEqualTo(first + "hort-and-a-much-longer-string-value");
            assertThat(copy.getRow(16, 2).getString(1).toString()).isEqualTo("nested");
        }
    }

    @Test
    void bytesOfFieldsFromDifferentAndChangingBuffersLandInTheirOwnFields() {
        RowType type =
                RowType.of(
                        VarCharType.STRING_TYPE,
                        new VarBinaryType(VarBinaryType.MAX_LENGTH),
                        VarCharType.STRING_TYPE);
        BinaryRowBuilder builder = new BinaryRowBuilder(type);
        byte[] names = "name-one|name-two".getBytes(StandardCharsets.UTF_8);
        byte[] payloads = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 10, 11, 12, 13};
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            // like column decoders: each field reads from its own buffer, a new one now and then
            byte[] comments =
                    ("comment number " + i + " of a batch").getBytes(StandardCharsets.UTF_8);
            builder.begin();
            builder.setBytes(0, names, i % 2 * 9, 8);
            builder.setBytes(1, payloads, i, 9);
            builder.setBytes(2, comments, 0, comments.length);
            rows.add(builder.finish());
        }

        for (int i = 0; i < rows.size(); i++) {
            RowData row = rows.get(i);
            assertThat(row.getString(0).toString()).isEqualTo(i % 2 == 0 ? "name-one" : "name-two");
            assertThat(row.getBinary(1))
                    .isEqualTo(java.util.Arrays.copyOfRange(payloads, i, i + 9));
            assertThat(row.getString(2).toString())
                    .isEqualTo("comment number " + i + " of a batch");
        }
    }

    @Test
    void largeRowsGetTheirOwnArray() {
        RowType type = RowType.of(new BigIntType(), VarCharType.STRING_TYPE);
        BinaryRowBuilder builder = new BinaryRowBuilder(type);
        byte[] large = new byte[BinaryRowBuilder.MAX_SHARED_SIZE * 2];
        java.util.Arrays.fill(large, (byte) 'z');

        builder.begin();
        builder.setLong(0, 1L);
        builder.setBytes(1, large, 0, large.length);
        BinaryRowData row = (BinaryRowData) builder.finish();
        builder.begin();
        builder.setLong(0, 2L);
        builder.setValue(1, StringData.fromString("small"));
        BinaryRowData next = (BinaryRowData) builder.finish();

        assertThat(row.getSegments()[0].size()).isEqualTo(row.getSizeInBytes());
        assertThat(row.getString(1).toString()).hasSize(large.length).matches("z+");
        assertThat(next.getLong(0)).isEqualTo(2L);
        assertThat(next.getString(1).toString()).isEqualTo("small");
        assertThat(next.getSegments()[0].size()).isEqualTo(BinaryRowBuilder.CHUNK_SIZE);
    }

    private static RowData buildFullRow(BinaryRowBuilder builder, byte[] buffer, long id) {
        builder.begin();
        builder.setLong(0, id);
        builder.setInt(1, -12);
        builder.setInt(2, 5);
        builder.setInt(3, 300);
        builder.setBoolean(4, true);
        builder.setFloat(5, 1.5f);
        builder.setDouble(6, -2.25);
        builder.setInt(7, 19_000);
        builder.setBytes(8, buffer, 2, buffer.length - 4);
        builder.setBytes(9, buffer, 2, 2);
        builder.setCompactDecimal(10, 1_234_567L);
        builder.setDecimal(
                11,
                DecimalData.fromBigDecimal(
                        new BigDecimal("123456789012345678.0123456789"), 38, 10));
        builder.setTimestamp(12, TimestampData.fromEpochMillis(1_700_000_000_123L, 456_000));
        builder.setTimestamp(13, TimestampData.fromEpochMillis(1_600_000_000_001L));
        builder.setValue(
                14,
                new GenericArrayData(
                        new Object[] {StringData.fromString("a"), StringData.fromString("b")}));
        builder.setValue(15, new GenericMapData(Map.of(StringData.fromString("k"), 9)));
        builder.setValue(16, GenericRowData.of(1, StringData.fromString("nested")));
        builder.setValue(17, null);
        return builder.finish();
    }
}
