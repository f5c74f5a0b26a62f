package dev.icebergflink.data.row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.table.data.RowData;
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
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

/**
 * Rows built column by column are byte for byte the rows {@link BinaryRowBuilder} builds from the
 * same values, for every type it takes, with nulls, values inside their slot and beyond it, and
 * rows too large to share a chunk; and they stay intact while later batches are built.
 */
class BinaryRowBatchBuilderTest {

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
                        new TimeType(3),
                        VarCharType.STRING_TYPE,
                        new VarBinaryType(VarBinaryType.MAX_LENGTH),
                        new DecimalType(10, 2),
                        new DecimalType(18, 4),
                        new TimestampType(3),
                        new TimestampType(6),
                        new TimestampType(9),
                        new LocalZonedTimestampType(3),
                        new LocalZonedTimestampType(6),
                        VarCharType.STRING_TYPE
                    });

    /** One row's values: a Long, Integer, ... per field, a byte[] for bytes, long[2] for times. */
    private static Object[] randomValues(Random random) {
        Object[] values = new Object[ROW_TYPE.getFieldCount()];
        values[0] = random.nextLong();
        values[1] = random.nextInt();
        values[2] = random.nextInt(256) - 128;
        values[3] = random.nextInt(65_536) - 32_768;
        values[4] = random.nextBoolean();
        values[5] = random.nextFloat();
        values[6] = random.nextDouble();
        values[7] = random.nextInt(50_000);
        values[8] = random.nextInt(86_400_000);
        values[9] = bytes(random, random.nextInt(4) == 0 ? 5_000 : 20);
        values[10] = bytes(random, 12);
        values[11] = random.nextLong() % 10_000_000_000L;
        values[12] = random.nextLong();
        for (int pos = 13; pos <= 17; pos++) {
            values[pos] = new long[] {random.nextLong() >> 20, random.nextInt(1_000_000)};
        }
        values[18] = bytes(random, 8);
        for (int pos = 0; pos < values.length; pos++) {
            if (random.nextInt(6) == 0) {
                values[pos] = null;
            }
        }
        return values;
    }

    /** Random bytes of a random length up to {@code max}: empty, inside a slot, or beyond. */
    private static byte[] bytes(Random random, int max) {
        byte[] bytes = new byte[random.nextInt(max + 1)];
        random.nextBytes(bytes);
        return bytes;
    }

    @Test
    void rowsAreByteForByteThoseOfTheRowBuilder() {
        Random random = new Random(42);
        BinaryRowBatchBuilder batchBuilder = new BinaryRowBatchBuilder(ROW_TYPE);
        BinaryRowBuilder rowBuilder = new BinaryRowBuilder(ROW_TYPE);
        List<RowData> columnByColumn = new ArrayList<>();
        List<RowData> rowByRow = new ArrayList<>();
        for (int batch = 0; batch < 20; batch++) {
            List<Object[]> values = new ArrayList<>();
            int rows = 1 + random.nextInt(300);
            for (int r = 0; r < rows; r++) {
                values.add(randomValues(random));
            }
            buildBatch(batchBuilder, values);
            for (int r = 0; r < rows; r++) {
                columnByColumn.add(batchBuilder.row(r));
                rowByRow.add(buildRow(rowBuilder, values.get(r)));
            }
        }

        assertThat(columnByColumn).hasSize(rowByRow.size());
        for (int i = 0; i < rowByRow.size(); i++) {
            // BinaryRowData compares its bytes; checked after every batch was built
            assertThat(columnByColumn.get(i)).as("row %d", i).isEqualTo(rowByRow.get(i));
        }
        // and Flink reads (and copies) them as the values they were built from
        RowDataSerializer serializer = new RowDataSerializer(ROW_TYPE);
        RowData copy = serializer.copy(columnByColumn.get(0));
        assertThat(copy).isEqualTo(rowByRow.get(0));
    }

    @Test
    void fieldsReadBackAsTheirValues() {
        BinaryRowBatchBuilder builder = new BinaryRowBatchBuilder(ROW_TYPE);
        Object[] values = new Object[ROW_TYPE.getFieldCount()];
        values[0] = 7L;
        values[1] = -12;
        values[2] = 5;
        values[3] = 300;
        values[4] = true;
        values[5] = 1.5f;
        values[6] = -2.25;
        values[7] = 19_000;
        values[8] = 3_600_000;
        values[9] = "a string longer than seven bytes".getBytes();
        values[10] = new byte[] {1, 2, 3};
        values[11] = 1_234_567L;
        values[12] = -98_765_432_101L;
        for (int pos = 13; pos <= 17; pos++) {
            values[pos] = new long[] {1_700_000_000_123L, 456_789};
        }
        values[18] = null;
        buildBatch(builder, List.<Object[]>of(values));

        RowData row = builder.row(0);
        assertThat(row).isInstanceOf(BinaryRowData.class);
        assertThat(row.getLong(0)).isEqualTo(7L);
        assertThat(row.getInt(1)).isEqualTo(-12);
        assertThat(row.getByte(2)).isEqualTo((byte) 5);
        assertThat(row.getShort(3)).isEqualTo((short) 300);
        assertThat(row.getBoolean(4)).isTrue();
        assertThat(row.getFloat(5)).isEqualTo(1.5f);
        assertThat(row.getDouble(6)).isEqualTo(-2.25);
        assertThat(row.getInt(7)).isEqualTo(19_000);
        assertThat(row.getInt(8)).isEqualTo(3_600_000);
        assertThat(row.getString(9).toString()).isEqualTo("a string longer than seven bytes");
        assertThat(row.getBinary(10)).containsExactly(1, 2, 3);
        assertThat(row.getDecimal(11, 10, 2).toBigDecimal()).isEqualByComparingTo("12345.67");
        assertThat(row.getDecimal(12, 18, 4).toBigDecimal()).isEqualByComparingTo("-9876543.2101");
        assertThat(row.getTimestamp(13, 3))
                .isEqualTo(TimestampData.fromEpochMillis(1_700_000_000_123L));
        assertThat(row.getTimestamp(14, 6))
                .isEqualTo(TimestampData.fromEpochMillis(1_700_000_000_123L, 456_789));
        assertThat(row.getTimestamp(15, 9))
                .isEqualTo(TimestampData.fromEpochMillis(1_700_000_000_123L, 456_789));
        assertThat(row.getTimestamp(17, 6))
                .isEqualTo(TimestampData.fromEpochMillis(1_700_000_000_123L, 456_789));
        assertThat(row.isNullAt(18)).isTrue();
        assertThat(row.isNullAt(17)).isFalse();
    }

    @Test
    void typesItCannotHoldAreRefusedByName() {
        assertThat(BinaryRowBatchBuilder.supports(new DecimalType(38, 10))).isFalse();
        assertThat(BinaryRowBatchBuilder.supports(new ArrayType(new IntType()))).isFalse();
        assertThatThrownBy(
                        () ->
                                new BinaryRowBatchBuilder(
                                        RowType.of(new IntType(), new DecimalType(38, 10))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Field 1")
                .hasMessageContaining("DECIMAL(38, 10)");
    }

    /** Builds the rows of {@code values} column by column, as a columnar reader does. */
    private static void buildBatch(BinaryRowBatchBuilder builder, List<Object[]> values) {
        int rows = values.size();
        builder.begin(rows);
        for (int pos = 0; pos < ROW_TYPE.getFieldCount(); pos++) {
            for (int r = 0; r < rows; r++) {
                Object value = values.get(r)[pos];
                if (value instanceof byte[] bytes) {
                    builder.addBytesLength(r, bytes.length);
                } else if (value instanceof long[]) {
                    builder.addTimestamp(r, pos);
                }
            }
        }
        builder.layOut();
        for (int pos = 0; pos < ROW_TYPE.getFieldCount(); pos++) {
            for (int r = 0; r < rows; r++) {
                Object value = values.get(r)[pos];
                if (value == null) {
                    builder.setNull(r, pos);
                } else if (value instanceof Long l) {
                    builder.setLong(r, pos, l);
                } else if (value instanceof Integer i) {
                    builder.setInt(r, pos, i);
                } else if (value instanceof Boolean b) {
                    builder.setBoolean(r, pos, b);
                } else if (value instanceof Float f) {
                    builder.setFloat(r, pos, f);
                } else if (value instanceof Double d) {
                    builder.setDouble(r, pos, d);
                } else if (value instanceof byte[] bytes) {
                    builder.setBytes(r, pos, bytes, 0, bytes.length);
                } else {
                    long[] time = (long[]) value;
                    builder.setTimestamp(r, pos, time[0], (int) time[1]);
                }
            }
        }
    }

    /** Builds one row of {@code values} with the row builder. */
    private static RowData buildRow(BinaryRowBuilder builder, Object[] values) {
        builder.begin();
        for (int pos = 0; pos < values.length; pos++) {
            Object value = values[pos];
            LogicalType type = ROW_TYPE.getTypeAt(pos);
            if (value == null) {
                builder.setNull(pos);
            } else if (type instanceof DecimalType) {
                builder.setCompactDecimal(pos, (Long) value);
            } else if (value instanceof Long l) {
                builder.setLong(pos, l);
            } else if (value instanceof Integer i) {
                builder.setInt(pos, i);
            } else if (value instanceof Boolean b) {
                builder.setBoolean(pos, b);
            } else if (value instanceof Float f) {
                builder.setFloat(pos, f);
            } else if (value instanceof Double d) {
                builder.setDouble(pos, d);
            } else if (value instanceof byte[] bytes) {
                builder.setBytes(pos, bytes, 0, bytes.length);
            } else {
                long[] time = (long[]) value;
                builder.setTimestamp(pos, TimestampData.fromEpochMillis(time[0], (int) time[1]));
            }
        }
        return builder.finish();
    }
}
