package dev.icebergflink.data.orc;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import java.io.File;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Projection and schema evolution: columns are matched by field id, with type promotion. */
class FlinkOrcSchemaEvolutionTest {

    private static final Schema WRITTEN =
            new Schema(
                    required(1, "id", Types.LongType.get()),
                    optional(2, "name", Types.StringType.get()),
                    optional(3, "score", Types.IntegerType.get()),
                    optional(4, "ratio", Types.FloatType.get()),
                    optional(5, "amount", Types.DecimalType.of(9, 2)),
                    optional(
                            6,
                            "nested",
                            Types.StructType.of(
                                    optional(7, "a", Types.IntegerType.get()),
                                    optional(8, "b", Types.StringType.get()))));

    @TempDir Path temp;

    private File file;

    @BeforeEach
    void writeFile() {
        file = temp.resolve("data.orc").toFile();
        List<RowData> rows =
                List.of(
                        GenericRowData.of(
                                1L,
                                StringData.fromString("one"),
                                10,
                                1.5f,
                                decimal("12.34", 9),
                                GenericRowData.of(100, StringData.fromString("x"))),
                        GenericRowData.of(2L, null, null, null, null, null),
                        GenericRowData.of(
                                3L,
                                StringData.fromString("three"),
                                -30,
                                -0.25f,
                                decimal("-9999999.99", 9),
                                GenericRowData.of(null, StringData.fromString("z"))));
        OrcTestFiles.writeRows(file, WRITTEN, FlinkSchemaUtil.convert(WRITTEN), rows);
    }

    @Test
    void readsASubsetInAnotherOrder() {
        Schema projection = WRITTEN.select("amount", "id", "nested.b");
        Schema reordered =
                new Schema(
                        projection.findField(5), projection.findField(1), projection.findField(6));

        List<RowData> read = OrcTestFiles.readRows(file, reordered);

        assertThat(read).hasSize(3);
        assertThat(read.get(0).getDecimal(0, 9, 2).toBigDecimal()).isEqualByComparingTo("12.34");
        assertThat(read.get(0).getLong(1)).isEqualTo(1L);
        RowData nested = read.get(0).getRow(2, 1);
        assertThat(nested.getArity()).isEqualTo(1);
        assertThat(nested.getString(0).toString()).isEqualTo("x");
        assertThat(read.get(1).isNullAt(0)).isTrue();
        assertThat(read.get(1).isNullAt(2)).isTrue();
        assertThat(read.get(2).getDecimal(0, 9, 2).toBigDecimal())
                .isEqualByComparingTo("-9999999.99");
        assertThat(read.get(2).getRow(2, 1).getString(0).toString()).isEqualTo("z");
    }

    @Test
    void columnsAddedLaterReadAsNull() {
        Schema evolved =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        optional(20, "added", Types.StringType.get()),
                        optional(
                                6,
                                "nested",
                                Types.StructType.of(
                                        optional(7, "a", Types.IntegerType.get()),
                                        optional(21, "added_inside", Types.LongType.get()))));

        List<RowData> read = OrcTestFiles.readRows(file, evolved);

        assertThat(read).extracting(row -> row.getLong(0)).containsExactly(1L, 2L, 3L);
        assertThat(read).allSatisfy(row -> assertThat(row.isNullAt(1)).isTrue());
        RowData first = read.get(0).getRow(2, 2);
        assertThat(first.getInt(0)).isEqualTo(100);
        assertThat(first.isNullAt(1)).isTrue();
        assertThat(read.get(2).getRow(2, 2).isNullAt(0)).isTrue();
    }

    @Test
    void renamedColumnsAreFoundById() {
        Schema renamed =
                new Schema(
                        required(1, "key", Types.LongType.get()),
                        optional(2, "full_name", Types.StringType.get()),
                        optional(
                                6,
                                "inner",
                                Types.StructType.of(optional(8, "label", Types.StringType.get()))));

        List<RowData> read = OrcTestFiles.readRows(file, renamed);

        assertThat(read.get(0).getString(1).toString()).isEqualTo("one");
        assertThat(read.get(0).getRow(2, 1).getString(0).toString()).isEqualTo("x");
        assertThat(read.get(2).getString(1).toString()).isEqualTo("three");
    }

    @Test
    void promotesIntFloatAndDecimalPrecision() {
        Schema promoted =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        optional(3, "score", Types.LongType.get()),
                        optional(4, "ratio", Types.DoubleType.get()),
                        optional(5, "amount", Types.DecimalType.of(18, 2)));

        List<RowData> read = OrcTestFiles.readRows(file, promoted);

        assertThat(read.get(0).getLong(1)).isEqualTo(10L);
        assertThat(read.get(0).getDouble(2)).isEqualTo(1.5d);
        DecimalData amount = read.get(0).getDecimal(3, 18, 2);
        assertThat(amount.precision()).isEqualTo(18);
        assertThat(amount.scale()).isEqualTo(2);
        assertThat(amount.toBigDecimal()).isEqualTo(new BigDecimal("12.34"));
        assertThat(read.get(1).isNullAt(1)).isTrue();
        assertThat(read.get(1).isNullAt(2)).isTrue();
        assertThat(read.get(1).isNullAt(3)).isTrue();
        assertThat(read.get(2).getLong(1)).isEqualTo(-30L);
        assertThat(read.get(2).getDouble(2)).isEqualTo(-0.25d);
        assertThat(read.get(2).getDecimal(3, 18, 2).toBigDecimal())
                .isEqualTo(new BigDecimal("-9999999.99"));
    }

    private static DecimalData decimal(String value, int precision) {
        return DecimalData.fromBigDecimal(new BigDecimal(value), precision, 2);
    }
}
