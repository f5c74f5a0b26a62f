package dev.icebergflink.data;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.testing.RowDataAssert;
import java.io.File;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.expressions.Literal;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.DateTimeUtil;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reading with a projection that differs from the file, in every file format: subsets and
 * reordering, nested subsets, added columns (null or their initial default), renames matched by id,
 * type promotions, and values that do not come from the file (row positions, metadata columns and
 * constants).
 */
public abstract class FormatProjectionSuite extends FormatSuite {

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
                                    optional(8, "b", Types.StringType.get()))),
                    optional(9, "tags", Types.ListType.ofOptional(10, Types.IntegerType.get())));

    /** The written file, of {@link #ROWS} rows of {@link #FILE_SCHEMA}. */
    protected File file;

    @BeforeEach
    void writeFile() {
        List<RowData> written = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            written.add(
                    GenericRowData.of(
                            (long) i,
                            i % 7 == 0 ? null : StringData.fromString("name-" + i),
                            DecimalData.fromBigDecimal(price(i), 9, 2),
                            i % 5 == 0 ? null : i * 3,
                            i % 4 == 0 ? null : i * 0.25f,
                            i % 9 == 0
                                    ? null
                                    : GenericRowData.of(
                                            -i, i % 3 == 0 ? null : StringData.fromString("b" + i)),
                            new GenericArrayData(new Object[] {i, null, -i})));
        }
        file = files.newFile(dir);
        files.writeRows(file, FILE_SCHEMA, FlinkSchemaUtil.convert(FILE_SCHEMA), written);
    }

    private static BigDecimal price(int i) {
        return BigDecimal.valueOf(i * 101L - 5000, 2);
    }

    @Test
    void readsASubsetInAnotherOrder() {
        Schema projection =
                new Schema(
                        FILE_SCHEMA.findField("qty"),
                        FILE_SCHEMA.findField("id"),
                        FILE_SCHEMA.findField("price"));

        List<RowData> rows = files.readRows(file, projection);

        assertThat(rows).hasSize(ROWS);
        for (int i = 0; i < ROWS; i++) {
            RowData row = rows.get(i);
            assertThat(row.getArity()).isEqualTo(3);
            assertThat(row.isNullAt(0)).isEqualTo(i % 5 == 0);
            if (i % 5 != 0) {
                assertThat(row.getInt(0)).isEqualTo(i * 3);
            }
            assertThat(row.getLong(1)).isEqualTo(i);
            assertThat(row.getDecimal(2, 9, 2).toBigDecimal()).isEqualTo(price(i));
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

        List<RowData> rows = files.readRows(file, projection);

        for (int i = 0; i < ROWS; i++) {
            RowData row = rows.get(i);
            if (i % 9 == 0) {
                assertThat(row.isNullAt(0)).isTrue();
            } else {
                RowData nested = row.getRow(0, 1);
                assertThat(nested.getArity()).isEqualTo(1);
                assertThat(nested.isNullAt(0)).isEqualTo(i % 3 == 0);
                if (i % 3 != 0) {
                    assertThat(nested.getString(0).toString()).isEqualTo("b" + i);
                }
            }
            assertThat(row.getLong(1)).isEqualTo(i);
        }
    }

    /** Whether the format reads initial defaults of added columns; Iceberg's ORC reader cannot. */
    protected boolean readsInitialDefaults() {
        return true;
    }

    @Test
    void readsAddedColumnsAsNull() {
        Schema evolved =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        optional(20, "added", Types.StringType.get()),
                        optional(
                                6,
                                "nested",
                                Types.StructType.of(
                                        optional(7, "a", Types.IntegerType.get()),
                                        optional(24, "added_inside", Types.DoubleType.get()))));

        List<RowData> rows = files.readRows(file, evolved);

        assertThat(rows).hasSize(ROWS);
        for (int i = 0; i < ROWS; i++) {
            RowData row = rows.get(i);
            assertThat(row.getLong(0)).isEqualTo(i);
            assertThat(row.isNullAt(1)).isTrue();
            if (i % 9 == 0) {
                assertThat(row.isNullAt(2)).isTrue();
            } else {
                assertThat(row.getRow(2, 2).getInt(0)).isEqualTo(-i);
                assertThat(row.getRow(2, 2).isNullAt(1)).isTrue();
            }
        }
    }

    @Test
    void readsAddedColumnsWithTheirInitialDefault() {
        Schema evolved =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        Types.NestedField.optional("added_with_default")
                                .withId(21)
                                .ofType(Types.StringType.get())
                                .withInitialDefault(Literal.of("fallback"))
                                .build(),
                        Types.NestedField.required("added_decimal")
                                .withId(22)
                                .ofType(Types.DecimalType.of(10, 3))
                                .withInitialDefault(Literal.of(new BigDecimal("-1.250")))
                                .build(),
                        Types.NestedField.optional("added_long")
                                .withId(23)
                                .ofType(Types.LongType.get())
                                .withInitialDefault(Literal.of(34L))
                                .build());
        if (!readsInitialDefaults()) {
            assertThatThrownBy(() -> files.readRows(file, evolved))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("added_with_default");
            return;
        }

        List<RowData> rows = files.readRows(file, evolved);

        assertThat(rows).hasSize(ROWS);
        for (int i = 0; i < ROWS; i++) {
            RowData row = rows.get(i);
            assertThat(row.getLong(0)).isEqualTo(i);
            assertThat(row.getString(1).toString()).isEqualTo("fallback");
            assertThat(row.getDecimal(2, 10, 3).toBigDecimal()).isEqualByComparingTo("-1.250");
            assertThat(row.getLong(3)).isEqualTo(34L);
        }
    }

    @Test
    void findsRenamedColumnsById() {
        Schema renamed =
                new Schema(
                        required(1, "key", Types.LongType.get()),
                        optional(2, "full_name", Types.StringType.get()),
                        optional(
                                6,
                                "inner",
                                Types.StructType.of(optional(8, "label", Types.StringType.get()))));

        List<RowData> rows = files.readRows(file, renamed);

        for (int i = 0; i < ROWS; i++) {
            RowData row = rows.get(i);
            assertThat(row.getLong(0)).isEqualTo(i);
            if (i % 7 == 0) {
                assertThat(row.isNullAt(1)).isTrue();
            } else {
                assertThat(row.getString(1).toString()).isEqualTo("name-" + i);
            }
            if (i % 9 != 0 && i % 3 != 0) {
                assertThat(row.getRow(2, 1).getString(0).toString()).isEqualTo("b" + i);
            }
        }
    }

    @Test
    void promotesIntToLongFloatToDoubleAndWidensDecimalPrecision() {
        Schema promoted =
                new Schema(
                        optional(4, "qty", Types.LongType.get()),
                        optional(5, "ratio", Types.DoubleType.get()),
                        optional(3, "price", Types.DecimalType.of(18, 2)),
                        optional(9, "tags", Types.ListType.ofOptional(10, Types.LongType.get())));

        List<RowData> rows =
                files.readRows(file, promoted, FlinkSchemaUtil.convert(promoted), Map.of());

        List<RowData> expected = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            expected.add(
                    GenericRowData.of(
                            i % 5 == 0 ? null : (long) (i * 3),
                            i % 4 == 0 ? null : (double) (i * 0.25f),
                            DecimalData.fromBigDecimal(price(i), 18, 2),
                            new GenericArrayData(new Object[] {(long) i, null, (long) -i})));
        }
        RowDataAssert.assertRowsEqual(promoted, expected, rows);
        assertThat(rows.get(1).getDecimal(2, 18, 2).precision()).isEqualTo(18);
        assertThat(rows.get(1).getLong(0)).isEqualTo(3L);
        assertThat(rows.get(1).getDouble(1)).isEqualTo(0.25d);
    }

    @Test
    void widensDecimalsIntoTheBinaryEncodedRange() {
        Schema promoted = new Schema(optional(3, "price", Types.DecimalType.of(38, 2)));

        List<RowData> rows = files.readRows(file, promoted);

        for (int i = 0; i < ROWS; i++) {
            DecimalData price = rows.get(i).getDecimal(0, 38, 2);
            assertThat(price.precision()).isEqualTo(38);
            assertThat(price.toBigDecimal()).isEqualTo(price(i));
        }
    }

    @Test
    void readsRowPositionsMetadataColumnsAndConstants() {
        Schema projection =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        MetadataColumns.ROW_POSITION,
                        MetadataColumns.FILE_PATH,
                        optional(30, "region", Types.StringType.get()),
                        optional(31, "day", Types.TimestampType.withoutZone()),
                        optional(32, "blob", Types.BinaryType.get()),
                        optional(
                                33,
                                "partition",
                                Types.StructType.of(
                                        optional(34, "bucket", Types.IntegerType.get()))),
                        optional(35, "bucket", Types.IntegerType.get()),
                        optional(36, "amount", Types.DecimalType.of(9, 2)),
                        optional(37, "partition_value", Types.StringType.get()),
                        optional(2, "name", Types.StringType.get()),
                        MetadataColumns.IS_DELETED);
        LocalDateTime hour = LocalDateTime.of(2024, 5, 6, 7, 0, 0, 1_000);
        Map<Integer, Object> constants = new HashMap<>();
        constants.put(MetadataColumns.FILE_PATH.fieldId(), file.getPath());
        constants.put(30, "eu-west"); // Iceberg's internal CharSequence
        constants.put(31, DateTimeUtil.microsFromTimestamp(hour));
        constants.put(32, ByteBuffer.wrap(new byte[] {1, 2, 3}));
        constants.put(33, GenericRowData.of(5)); // already a Flink value
        constants.put(35, 7);
        constants.put(36, new BigDecimal("19.99"));
        constants.put(37, StringData.fromString("p=1")); // already a Flink value
        constants.put(2, "replaced"); // a constant wins over the file's column

        List<RowData> rows =
                files.readRows(file, projection, FlinkSchemaUtil.convert(projection), constants);

        assertThat(rows).hasSize(ROWS);
        for (int i = 0; i < ROWS; i++) {
            RowData row = rows.get(i);
            assertThat(row.getLong(0)).isEqualTo(i);
            assertThat(row.getLong(1)).as("_pos of row %s", i).isEqualTo(i);
            assertThat(row.getString(2).toString()).isEqualTo(file.getPath());
            assertThat(row.getString(3)).isEqualTo(StringData.fromString("eu-west"));
            assertThat(row.getTimestamp(4, 6)).isEqualTo(TimestampData.fromLocalDateTime(hour));
            assertThat(row.getBinary(5)).containsExactly(1, 2, 3);
            assertThat(row.getRow(6, 1).getInt(0)).isEqualTo(5);
            assertThat(row.getInt(7)).isEqualTo(7);
            assertThat(row.getDecimal(8, 9, 2).toBigDecimal()).isEqualTo(new BigDecimal("19.99"));
            assertThat(row.getString(9).toString()).isEqualTo("p=1");
            assertThat(row.getString(10).toString()).isEqualTo("replaced");
            assertThat(row.getBoolean(11)).isFalse();
        }
    }

    @Test
    void convertsNestedAndNullConstants() {
        Schema projection =
                new Schema(
                        optional(
                                40,
                                "p",
                                Types.StructType.of(
                                        optional(41, "s", Types.StringType.get()),
                                        optional(42, "d", Types.DecimalType.of(10, 2)))),
                        optional(
                                43,
                                "m",
                                Types.MapType.ofOptional(
                                        44, 45, Types.StringType.get(), Types.TimeType.get())),
                        optional(46, "nothing", Types.IntegerType.get()));
        Map<Integer, Object> constants = new HashMap<>();
        GenericRecord partition = GenericRecord.create(projection.findType(40).asStructType());
        partition.set(0, "x");
        partition.set(1, new BigDecimal("12.34"));
        constants.put(40, partition);
        constants.put(43, Map.of("noon", 43_200_000_000L));
        constants.put(46, null);

        List<RowData> rows = files.readRows(file, projection, null, constants);

        assertThat(rows).hasSize(ROWS);
        RowData row = rows.get(0);
        assertThat(row.getRow(0, 2).getString(0).toString()).isEqualTo("x");
        assertThat(row.getRow(0, 2).getDecimal(1, 10, 2).toBigDecimal())
                .isEqualTo(new BigDecimal("12.34"));
        MapData map = row.getMap(1);
        assertThat(map.size()).isEqualTo(1);
        assertThat(map.keyArray().getString(0).toString()).isEqualTo("noon");
        assertThat(map.valueArray().getInt(0)).isEqualTo(43_200_000);
        assertThat(row.isNullAt(2)).isTrue();
    }

    @Test
    void rowPositionsCountAcrossBatches() {
        Schema schema = new Schema(required(1, "id", Types.LongType.get()));
        int count = 2500; // several ORC batches of 1024
        List<RowData> written = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            written.add(GenericRowData.of((long) i * 7));
        }
        File big = files.newFile(dir);
        files.writeRows(big, schema, null, written);
        Schema projection = new Schema(MetadataColumns.ROW_POSITION, schema.findField(1));

        List<RowData> rows = files.readRows(big, projection);

        assertThat(rows).hasSize(count);
        for (int i = 0; i < count; i++) {
            assertThat(rows.get(i).getLong(0)).as("_pos of row %s", i).isEqualTo(i);
            assertThat(rows.get(i).getLong(1)).isEqualTo(i * 7L);
        }
    }

    @Test
    void rejectsAnEngineProjectionOfAnotherShape() {
        Schema projection = FILE_SCHEMA.select("id", "name");
        RowType wrong = RowType.of(new BigIntType());

        assertThatThrownBy(() -> files.readRows(file, projection, wrong, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "has 1 fields but the projected Iceberg schema has 2 columns");
    }

    @Test
    void failsOnAMissingRequiredColumnWithoutDefaultNamingIt() {
        Schema projection =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        required(40, "must_exist", Types.IntegerType.get()));

        assertThatThrownBy(() -> files.readRows(file, projection))
                .hasStackTraceContaining("must_exist");
    }
}
