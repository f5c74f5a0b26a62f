package dev.icebergflink.data.orc;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.data.FormatTestFiles;
import java.io.File;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Top-level decimal columns read over many ORC batches: compact ones are decoded from the second
 * batch on into {@code Decimal64ColumnVector}s that replace the batch's decimal vectors ({@link
 * Decimal64Vectors}), wide ones keep {@code HiveDecimalWritable}s, and a file whose decimal
 * precision is narrower than the one read (ORC converts it) keeps its original vectors. Every value
 * of every row is checked, for every precision class, with nulls, negative values, values with
 * trailing zeros and the extremes of each precision.
 */
class OrcDecimalColumnsTest {

    /** Several ORC batches of 1024 rows, the last one partial. */
    private static final int ROWS = 3_300;

    private static final FormatTestFiles ORC = FormatTestFiles.of(FileFormat.ORC);

    private static final Schema WRITTEN =
            new Schema(
                    required(1, "id", Types.LongType.get()),
                    optional(2, "tiny", Types.DecimalType.of(1, 0)),
                    optional(3, "price", Types.DecimalType.of(9, 2)),
                    optional(4, "cents", Types.DecimalType.of(10, 2)),
                    optional(5, "amount", Types.DecimalType.of(18, 4)),
                    optional(6, "whole", Types.DecimalType.of(18, 0)),
                    optional(7, "wide", Types.DecimalType.of(19, 2)),
                    optional(8, "huge", Types.DecimalType.of(38, 10)),
                    optional(9, "always_null", Types.DecimalType.of(12, 3)),
                    optional(10, "constant", Types.DecimalType.of(7, 3)));

    @TempDir Path temp;

    @Test
    void readsEveryPrecisionClassOverManyBatches() {
        List<RowData> written = rows(new Random(7));
        File file = temp.resolve("decimals.orc").toFile();
        ORC.writeRows(file, WRITTEN, null, written);

        List<RowData> read = ORC.readRows(file, WRITTEN);

        assertThat(read).hasSize(ROWS);
        for (int i = 0; i < ROWS; i++) {
            RowData expected = written.get(i);
            RowData actual = read.get(i);
            assertThat(actual.getLong(0)).isEqualTo(i);
            for (int pos = 1; pos < WRITTEN.columns().size(); pos++) {
                Types.DecimalType type = (Types.DecimalType) WRITTEN.columns().get(pos).type();
                assertThat(decimal(actual, pos, type))
                        .as("row %s column %s", i, WRITTEN.columns().get(pos).name())
                        .isEqualTo(decimal(expected, pos, type));
            }
        }
        assertThat(decimal(read.get(1), 5, Types.DecimalType.of(18, 0)))
                .isEqualTo(new BigDecimal("999999999999999999"));
        assertThat(decimal(read.get(2), 5, Types.DecimalType.of(18, 0)))
                .isEqualTo(new BigDecimal("-999999999999999999"));
        assertThat(decimal(read.get(ROWS - 1), 4, Types.DecimalType.of(18, 4)))
                .isEqualTo(new BigDecimal("-99999999999999.9999"));
    }

    @Test
    void readsDecimalsWidenedByTheReadSchemaOverManyBatches() {
        List<RowData> written = rows(new Random(11));
        File file = temp.resolve("narrow-decimals.orc").toFile();
        ORC.writeRows(file, WRITTEN, null, written);
        // precision widening: ORC converts price, cents and tiny; amount is read as written
        Schema widened =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        optional(2, "tiny", Types.DecimalType.of(3, 0)),
                        optional(3, "price", Types.DecimalType.of(12, 2)),
                        optional(4, "cents", Types.DecimalType.of(20, 2)),
                        optional(5, "amount", Types.DecimalType.of(18, 4)));

        List<RowData> read = ORC.readRows(file, widened);

        assertThat(read).hasSize(ROWS);
        for (int i = 0; i < ROWS; i++) {
            RowData expected = written.get(i);
            RowData actual = read.get(i);
            assertThat(actual.getLong(0)).isEqualTo(i);
            for (int pos = 1; pos < widened.columns().size(); pos++) {
                assertThat(
                                decimal(
                                        actual,
                                        pos,
                                        (Types.DecimalType) widened.columns().get(pos).type()))
                        .as("row %s column %s", i, widened.columns().get(pos).name())
                        .isEqualTo(
                                decimal(
                                        expected,
                                        pos,
                                        (Types.DecimalType) WRITTEN.columns().get(pos).type()));
            }
        }
    }

    @Test
    void readsDecimalColumnsMissingFromTheFileAsNullOverManyBatches() {
        List<RowData> written = rows(new Random(13));
        File file = temp.resolve("older-decimals.orc").toFile();
        ORC.writeRows(file, WRITTEN, null, written);
        // columns added to the table after the file was written: ORC fills them with nulls
        Schema evolved =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        optional(3, "price", Types.DecimalType.of(9, 2)),
                        optional(30, "added_compact", Types.DecimalType.of(10, 2)),
                        optional(31, "added_wide", Types.DecimalType.of(30, 2)));

        List<RowData> read = ORC.readRows(file, evolved);

        assertThat(read).hasSize(ROWS);
        for (int i = 0; i < ROWS; i++) {
            RowData actual = read.get(i);
            assertThat(actual.getLong(0)).isEqualTo(i);
            assertThat(decimal(actual, 1, Types.DecimalType.of(9, 2)))
                    .as("row %s price", i)
                    .isEqualTo(decimal(written.get(i), 2, Types.DecimalType.of(9, 2)));
            assertThat(actual.isNullAt(2)).as("row %s added_compact", i).isTrue();
            assertThat(actual.isNullAt(3)).as("row %s added_wide", i).isTrue();
        }
    }

    /** Seeded rows; row 1 and 2 hold the extremes, every seventh row is null in most columns. */
    private static List<RowData> rows(Random random) {
        List<RowData> rows = new ArrayList<>(ROWS);
        for (int i = 0; i < ROWS; i++) {
            GenericRowData row = new GenericRowData(WRITTEN.columns().size());
            row.setField(0, (long) i);
            boolean nulls = i % 7 == 5;
            for (int pos = 1; pos < WRITTEN.columns().size(); pos++) {
                Types.DecimalType type = (Types.DecimalType) WRITTEN.columns().get(pos).type();
                BigDecimal value;
                if (pos == 8) {
                    value = null;
                } else if (pos == 9) {
                    value = new BigDecimal("1.500");
                } else if (nulls) {
                    value = null;
                } else if (i == 1 || i == 2 || i == ROWS - 1) {
                    java.math.BigInteger max =
                            java.math.BigInteger.TEN
                                    .pow(type.precision())
                                    .subtract(java.math.BigInteger.ONE);
                    value = new BigDecimal(i == 1 ? max : max.negate(), type.scale());
                } else {
                    value = randomValue(random, type, i);
                }
                row.setField(
                        pos,
                        value == null
                                ? null
                                : DecimalData.fromBigDecimal(
                                        value, type.precision(), type.scale()));
            }
            rows.add(row);
        }
        return rows;
    }

    /** A random value of the type; every fifth one has trailing zeros, some are negative. */
    private static BigDecimal randomValue(Random random, Types.DecimalType type, int i) {
        BigDecimal limit = BigDecimal.TEN.pow(Math.min(type.precision(), 18));
        long unscaled = (long) (random.nextDouble() * limit.doubleValue());
        unscaled = Math.min(unscaled, limit.longValue() - 1);
        if (i % 5 == 0) {
            unscaled = unscaled / 100 * 100;
        }
        BigDecimal value = BigDecimal.valueOf(random.nextBoolean() ? unscaled : -unscaled);
        if (type.precision() > 18) {
            value = value.multiply(BigDecimal.TEN.pow(type.precision() - 18));
        }
        return new BigDecimal(value.toBigInteger(), type.scale());
    }

    private static BigDecimal decimal(RowData row, int pos, Types.DecimalType type) {
        if (row.isNullAt(pos)) {
            return null;
        }
        return row.getDecimal(pos, type.precision(), type.scale()).toBigDecimal();
    }
}
