package dev.icebergflink.data.avro;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.testing.RowDataAssert;
import java.io.File;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Literal;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading with a projection that differs from the file: subsets and reordering, nested subsets,
 * added columns (null or their initial default), renames matched by id, type promotions, and values
 * that do not come from the file (row positions and constants).
 */
class FlinkAvroProjectionTest {

    private static final int ROWS = 200;

    private static final Schema FILE_SCHEMA =
            new Schema(
                    required(1, "id", Types.LongType.get()),
                    optional(2, "name", Types.StringType.get()),
                    optional(3, "price", Types.DecimalType.of(9, 2)),
                    optional(4, "qty", Types.IntegerType.get()),
                    optional(5, "ratio", Types.FloatType.get()),
                    optional(
                            6,
                            "nested",
                            Types.StructType.of(
                                    optional(7, "a", Types.IntegerType.get()),
                                    optional(8, "b", Types.StringType.get()))));

    @TempDir Path dir;

    private File file;
    private List<RowData> written;

    @BeforeEach
    void writeFile() {
        written = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            written.add(
                    GenericRowData.of(
                            (long) i,
                            i % 7 == 0 ? null : StringData.fromString("name-" + i),
                            DecimalData.fromBigDecimal(
                                    BigDecimal.valueOf(i * 101L - 5000, 2), 9, 2),
                            i % 5 == 0 ? null : i * 3,
                            i * 0.25f,
                            i % 9 == 0
                                    ? null
                                    : GenericRowData.of(-i, StringData.fromString("b" + i))));
        }
        file = AvroTestFiles.newFile(dir);
        AvroTestFiles.writeRows(file, FILE_SCHEMA, FlinkSchemaUtil.convert(FILE_SCHEMA), written);
    }

    @Test
    void readsASubsetInAnotherOrder() {
        Schema projection = FILE_SCHEMA.select("qty", "id");

        List<RowData> rows = AvroTestFiles.readRows(file, reorder(projection, "qty", "id"));

        assertThat(rows).hasSize(ROWS);
        for (int i = 0; i < ROWS; i++) {
            RowData row = rows.get(i);
            assertThat(row.getArity()).isEqualTo(2);
            assertThat(row.isNullAt(0)).isEqualTo(i % 5 == 0);
            if (i % 5 != 0) {
                assertThat(row.getInt(0)).isEqualTo(i * 3);
            }
            assertThat(row.getLong(1)).isEqualTo(i);
        }
    }

    @Test
    void readsASubsetOfANestedStruct() {
        Schema projection =
                new Schema(
                        optional(
                                6,
                                "nested",
                                Types.StructType.of(optional(8, "b", Types.StringType.get()))),
                        required(1, "id", Types.LongType.get()));

        List<RowData> rows = AvroTestFiles.readRows(file, projection);

        for (int i = 0; i < ROWS; i++) {
            RowData row = rows.get(i);
            if (i % 9 == 0) {
                assertThat(row.isNullAt(0)).isTrue();
            } else {
                RowData nested = row.getRow(0, 1);
                assertThat(nested.getArity()).isEqualTo(1);
                assertThat(nested.getString(0).toString()).isEqualTo("b" + i);
            }
            assertThat(row.getLong(1)).isEqualTo(i);
        }
    }

    @Test
    void readsAnAddedColumnAsNullAndAnAddedColumnWithADefaultAsTheDefault() {
        Schema projection =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        optional(20, "added", Types.StringType.get()),
                        Types.NestedField.optional("added_with_default")
                                .withId(21)
                                .ofType(Types.StringType.get())
                                .withInitialDefault(Literal.of("fallback"))
                                .build(),
                        Types.NestedField.required("added_decimal")
                                .withId(22)
                                .ofType(Types.DecimalType.of(10, 3))
                                .withInitialDefault(Literal.of(new BigDecimal("-1.250")))
                                .build());

        List<RowData> rows = AvroTestFiles.readRows(file, projection);

        for (int i = 0; i < ROWS; i++) {
            RowData row = rows.get(i);
            assertThat(row.getLong(0)).isEqualTo(i);
            assertThat(row.isNullAt(1)).isTrue();
            assertThat(row.getString(2).toString()).isEqualTo("fallback");
            assertThat(row.getDecimal(3, 10, 3).toBigDecimal()).isEqualByComparingTo("-1.250");
        }
    }

    @Test
    void findsARenamedColumnById() {
        Schema projection =
                new Schema(
                        required(1, "key", Types.LongType.get()),
                        optional(2, "full_name", Types.StringType.get()));

        List<RowData> rows = AvroTestFiles.readRows(file, projection);

        for (int i = 0; i < ROWS; i++) {
            RowData row = rows.get(i);
            assertThat(row.getLong(0)).isEqualTo(i);
            if (i % 7 == 0) {
                assertThat(row.isNullAt(1)).isTrue();
            } else {
                assertThat(row.getString(1).toString()).isEqualTo("name-" + i);
            }
        }
    }

    @Test
    void promotesIntToLongFloatToDoubleAndWidensDecimalPrecision() {
        Schema projection =
                new Schema(
                        optional(4, "qty", Types.LongType.get()),
                        optional(5, "ratio", Types.DoubleType.get()),
                        optional(3, "price", Types.DecimalType.of(18, 2)));

        List<RowData> rows = AvroTestFiles.readRows(file, projection);

        List<RowData> expected = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            expected.add(
                    GenericRowData.of(
                            i % 5 == 0 ? null : (long) (i * 3),
                            (double) (i * 0.25f),
                            DecimalData.fromBigDecimal(
                                    BigDecimal.valueOf(i * 101L - 5000, 2), 18, 2)));
        }
        RowDataAssert.assertRowsEqual(projection, expected, rows);
        assertThat(rows.get(1).getDecimal(2, 18, 2).precision()).isEqualTo(18);
        assertThat(((GenericRowData) rows.get(1)).getField(0)).isInstanceOf(Long.class);
        assertThat(((GenericRowData) rows.get(1)).getField(1)).isInstanceOf(Double.class);
    }

    @Test
    void readsRowPositionsAndConstants() {
        Schema projection =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        MetadataColumns.ROW_POSITION,
                        MetadataColumns.FILE_PATH,
                        optional(30, "partition_value", Types.StringType.get()),
                        optional(2, "name", Types.StringType.get()));
        StringData path = StringData.fromString(file.getAbsolutePath());
        Map<Integer, ?> constants =
                Map.of(
                        MetadataColumns.FILE_PATH.fieldId(),
                        path,
                        30,
                        StringData.fromString("p=1"),
                        2,
                        StringData.fromString("replaced"));

        List<RowData> rows =
                AvroTestFiles.readRows(
                        file, projection, FlinkSchemaUtil.convert(projection), constants);

        assertThat(rows).hasSize(ROWS);
        for (int i = 0; i < ROWS; i++) {
            RowData row = rows.get(i);
            assertThat(row.getLong(0)).isEqualTo(i);
            assertThat(row.getLong(1)).as("_pos of row %s", i).isEqualTo(i);
            assertThat(row.getString(2)).isEqualTo(path);
            assertThat(row.getString(3).toString()).isEqualTo("p=1");
            assertThat(row.getString(4).toString()).isEqualTo("replaced");
        }
    }

    @Test
    void rowPositionsCountAcrossAvroBlocks() {
        Schema schema = new Schema(required(1, "id", Types.LongType.get()));
        int count = 50_000; // many Avro blocks
        List<RowData> rows = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            rows.add(GenericRowData.of((long) i * 7));
        }
        File big = AvroTestFiles.newFile(dir);
        AvroTestFiles.writeRows(big, schema, null, rows);

        Schema projection =
                new Schema(MetadataColumns.ROW_POSITION, required(1, "id", Types.LongType.get()));
        List<RowData> read = AvroTestFiles.readRows(big, projection);

        assertThat(read).hasSize(count);
        for (int i = 0; i < count; i++) {
            assertThat(read.get(i).getLong(0)).isEqualTo(i);
            assertThat(read.get(i).getLong(1)).isEqualTo(i * 7L);
        }

        // a split that starts mid-file still numbers its rows from the start of the file
        long half = big.length() / 2;
        List<RowData> firstHalf = readSplit(big, projection, 0, half);
        List<RowData> secondHalf = readSplit(big, projection, half, big.length() - half);
        assertThat(firstHalf).isNotEmpty();
        assertThat(secondHalf).isNotEmpty().hasSize(count - firstHalf.size());
        for (RowData row : secondHalf) {
            assertThat(row.getLong(1)).isEqualTo(row.getLong(0) * 7L);
        }
        assertThat(secondHalf.get(0).getLong(0)).isEqualTo(firstHalf.size());
    }

    private static List<RowData> readSplit(File file, Schema projection, long start, long length) {
        return AvroTestFiles.collect(
                AvroTestFiles.MODEL
                        .readBuilder(org.apache.iceberg.Files.localInput(file))
                        .project(projection)
                        .split(start, length)
                        .build());
    }

    @Test
    void rejectsAnEngineProjectionOfAnotherShape() {
        Schema projection = FILE_SCHEMA.select("id", "name");
        RowType wrong = RowType.of(new BigIntType());

        assertThatThrownBy(() -> AvroTestFiles.readRows(file, projection, wrong, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "has 1 fields but the projected Iceberg schema has 2 columns");
    }

    @Test
    void failsOnAMissingRequiredColumnWithoutDefault() {
        Schema projection =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        required(40, "must_exist", Types.IntegerType.get()));

        assertThatThrownBy(() -> AvroTestFiles.readRows(file, projection))
                .hasStackTraceContaining("must_exist");
    }

    private static Schema reorder(Schema schema, String... names) {
        List<Types.NestedField> fields = new ArrayList<>();
        for (String name : names) {
            fields.add(schema.findField(name));
        }
        return new Schema(fields);
    }
}
