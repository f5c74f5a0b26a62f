package dev.icebergflink.data.parquet;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.FlinkSchemaUtil;
import java.io.File;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading with a projection or an evolved schema: columns are matched by field id. */
class FlinkParquetSchemaEvolutionTest {

    private static final Schema WRITTEN =
            new Schema(
                    required(1, "id", Types.IntegerType.get()),
                    optional(2, "score", Types.FloatType.get()),
                    optional(3, "amount", Types.DecimalType.of(9, 2)),
                    optional(4, "name", Types.StringType.get()),
                    optional(
                            5,
                            "nested",
                            Types.StructType.of(
                                    optional(6, "a", Types.IntegerType.get()),
                                    optional(7, "b", Types.StringType.get()))),
                    optional(8, "tags", Types.ListType.ofOptional(9, Types.IntegerType.get())));

    private static final int ROWS = 20;

    @TempDir File temp;

    private File file;

    @BeforeEach
    void writeFile() {
        file = new File(temp, "data.parquet");
        ParquetTestFiles.writeRows(file, WRITTEN, FlinkSchemaUtil.convert(WRITTEN), rows());
    }

    private static List<RowData> rows() {
        RowData[] rows = new RowData[ROWS];
        for (int i = 0; i < ROWS; i++) {
            rows[i] =
                    GenericRowData.of(
                            i,
                            i % 4 == 0 ? null : i * 1.5f,
                            DecimalData.fromUnscaledLong(i * 101L - 500, 9, 2),
                            StringData.fromString("name-" + i),
                            GenericRowData.of(
                                    i * 10, i % 3 == 0 ? null : StringData.fromString("b" + i)),
                            new GenericArrayData(new Object[] {i, null, -i}));
        }
        return List.of(rows);
    }

    @Test
    void readsASubsetInAnotherOrder() {
        Schema projection = new Schema(WRITTEN.findField(4), WRITTEN.findField(1));

        List<RowData> read = ParquetTestFiles.readRows(file, projection);

        assertThat(read).hasSize(ROWS);
        for (int i = 0; i < ROWS; i++) {
            assertThat(read.get(i).getArity()).isEqualTo(2);
            assertThat(read.get(i).getString(0).toString()).isEqualTo("name-" + i);
            assertThat(read.get(i).getInt(1)).isEqualTo(i);
        }
    }

    @Test
    void projectsNestedFields() {
        Schema projection =
                new Schema(
                        optional(
                                5,
                                "nested",
                                Types.StructType.of(optional(7, "b", Types.StringType.get()))));

        List<RowData> read = ParquetTestFiles.readRows(file, projection);

        RowData nested = read.get(1).getRow(0, 1);
        assertThat(nested.getArity()).isEqualTo(1);
        assertThat(nested.getString(0).toString()).isEqualTo("b1");
        assertThat(read.get(3).getRow(0, 1).isNullAt(0)).isTrue();
    }

    @Test
    void addedColumnsReadAsNullOrTheirInitialDefault() {
        Schema evolved =
                new Schema(
                        required(1, "id", Types.IntegerType.get()),
                        optional(20, "added", Types.StringType.get()),
                        Types.NestedField.optional("added_with_default")
                                .withId(21)
                                .ofType(Types.LongType.get())
                                .withInitialDefault(34L)
                                .build(),
                        optional(
                                5,
                                "nested",
                                Types.StructType.of(
                                        optional(6, "a", Types.IntegerType.get()),
                                        optional(22, "c", Types.DoubleType.get()))));

        List<RowData> read = ParquetTestFiles.readRows(file, evolved);

        for (int i = 0; i < ROWS; i++) {
            RowData row = read.get(i);
            assertThat(row.getInt(0)).isEqualTo(i);
            assertThat(row.isNullAt(1)).isTrue();
            assertThat(row.getLong(2)).isEqualTo(34L);
            assertThat(row.getRow(3, 2).getInt(0)).isEqualTo(i * 10);
            assertThat(row.getRow(3, 2).isNullAt(1)).isTrue();
        }
    }

    @Test
    void renamedColumnsAreFoundById() {
        Schema renamed =
                new Schema(
                        required(1, "identifier", Types.IntegerType.get()),
                        optional(4, "full_name", Types.StringType.get()));

        List<RowData> read = ParquetTestFiles.readRows(file, renamed);

        assertThat(read.get(7).getInt(0)).isEqualTo(7);
        assertThat(read.get(7).getString(1).toString()).isEqualTo("name-7");
    }

    @Test
    void promotesIntToLongFloatToDoubleAndWidensDecimals() {
        Schema promoted =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        optional(2, "score", Types.DoubleType.get()),
                        optional(3, "amount", Types.DecimalType.of(18, 2)),
                        optional(8, "tags", Types.ListType.ofOptional(9, Types.LongType.get())));
        RowType rowType = FlinkSchemaUtil.convert(promoted);

        List<RowData> read = ParquetTestFiles.readRows(file, promoted, rowType, Map.of());

        for (int i = 0; i < ROWS; i++) {
            RowData row = read.get(i);
            assertThat(row.getLong(0)).isEqualTo((long) i);
            if (i % 4 == 0) {
                assertThat(row.isNullAt(1)).isTrue();
            } else {
                assertThat(row.getDouble(1)).isEqualTo(i * 1.5d);
            }
            DecimalData amount = row.getDecimal(2, 18, 2);
            assertThat(amount.precision()).isEqualTo(18);
            assertThat(amount.toBigDecimal()).isEqualTo(BigDecimal.valueOf(i * 101L - 500, 2));
            assertThat(row.getArray(3).getLong(0)).isEqualTo((long) i);
            assertThat(row.getArray(3).isNullAt(1)).isTrue();
        }
    }

    @Test
    void widensDecimalsIntoTheBinaryEncodedRange() {
        Schema promoted = new Schema(optional(3, "amount", Types.DecimalType.of(38, 2)));

        List<RowData> read = ParquetTestFiles.readRows(file, promoted);

        DecimalData amount = read.get(3).getDecimal(0, 38, 2);
        assertThat(amount.precision()).isEqualTo(38);
        assertThat(amount.toBigDecimal()).isEqualTo(new BigDecimal("-1.97"));
    }

    @Test
    void readsRowPositionsAndConstants() {
        Schema projection =
                new Schema(
                        required(1, "id", Types.IntegerType.get()),
                        optional(30, "region", Types.StringType.get()),
                        optional(31, "day", Types.TimestampType.withoutZone()),
                        optional(32, "blob", Types.BinaryType.get()),
                        optional(
                                33,
                                "partition",
                                Types.StructType.of(
                                        optional(34, "bucket", Types.IntegerType.get()))),
                        MetadataColumns.FILE_PATH,
                        MetadataColumns.ROW_POSITION,
                        MetadataColumns.IS_DELETED);
        Map<Integer, Object> constants = new HashMap<>();
        constants.put(30, "eu-west"); // Iceberg's internal CharSequence
        constants.put(31, 1_000_001L); // micros
        constants.put(32, ByteBuffer.wrap(new byte[] {1, 2, 3}));
        constants.put(33, GenericRowData.of(5)); // already a Flink value
        constants.put(MetadataColumns.FILE_PATH.fieldId(), file.getPath());

        List<RowData> read =
                ParquetTestFiles.readRows(
                        file, projection, FlinkSchemaUtil.convert(projection), constants);

        assertThat(read).hasSize(ROWS);
        for (int i = 0; i < ROWS; i++) {
            RowData row = read.get(i);
            assertThat(row.getInt(0)).isEqualTo(i);
            assertThat(row.getString(1)).isEqualTo(StringData.fromString("eu-west"));
            assertThat(row.getTimestamp(2, 6))
                    .isEqualTo(TimestampData.fromEpochMillis(1_000, 1_000));
            assertThat(row.getBinary(3)).containsExactly(1, 2, 3);
            assertThat(row.getRow(4, 1).getInt(0)).isEqualTo(5);
            assertThat(row.getString(5).toString()).isEqualTo(file.getPath());
            assertThat(row.getLong(6)).isEqualTo((long) i);
            assertThat(row.getBoolean(7)).isFalse();
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
        org.apache.iceberg.data.GenericRecord partition =
                org.apache.iceberg.data.GenericRecord.create(
                        projection.findType(40).asStructType());
        partition.set(0, "x");
        partition.set(1, new BigDecimal("12.34"));
        constants.put(40, partition);
        constants.put(43, Map.of("noon", 43_200_000_000L));
        constants.put(46, null);

        RowData row = ParquetTestFiles.readRows(file, projection, null, constants).get(0);

        assertThat(row.getRow(0, 2).getString(0).toString()).isEqualTo("x");
        assertThat(row.getRow(0, 2).getDecimal(1, 10, 2).toBigDecimal())
                .isEqualTo(new BigDecimal("12.34"));
        GenericMapData map = (GenericMapData) row.getMap(1);
        assertThat(map.get(StringData.fromString("noon"))).isEqualTo(43_200_000);
        assertThat(row.isNullAt(2)).isTrue();
    }

    @Test
    void missingRequiredColumnIsAnErrorNamingIt() {
        Schema evolved =
                new Schema(
                        required(1, "id", Types.IntegerType.get()),
                        optional(
                                5,
                                "nested",
                                Types.StructType.of(
                                        required(50, "must", Types.IntegerType.get()))));

        assertThatThrownBy(() -> ParquetTestFiles.readRows(file, evolved))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nested.must")
                .hasMessageContaining("id 50");
    }

    @Test
    void engineProjectionMustMatchTheProjectedColumns() {
        Schema projection = new Schema(required(1, "id", Types.IntegerType.get()));
        RowType twoFields = FlinkSchemaUtil.convert(WRITTEN.select("id", "name"));

        assertThatThrownBy(() -> ParquetTestFiles.readRows(file, projection, twoFields, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has 2 fields")
                .hasMessageContaining("1 columns");
    }
}
