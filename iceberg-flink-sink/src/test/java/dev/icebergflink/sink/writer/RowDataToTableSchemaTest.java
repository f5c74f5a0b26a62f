package dev.icebergflink.sink.writer;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.InstantiationUtil;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class RowDataToTableSchemaTest {

    private static final Schema INPUT =
            new Schema(
                    Types.NestedField.optional(1, "Name", Types.StringType.get()),
                    Types.NestedField.required(2, "id", Types.IntegerType.get()),
                    Types.NestedField.optional(3, "price", Types.DecimalType.of(5, 2)),
                    Types.NestedField.optional(
                            4, "scores", Types.ListType.ofOptional(5, Types.FloatType.get())),
                    Types.NestedField.optional(
                            6,
                            "attrs",
                            Types.MapType.ofOptional(
                                    7, 8, Types.StringType.get(), Types.IntegerType.get())),
                    Types.NestedField.optional(
                            9,
                            "address",
                            Types.StructType.of(
                                    Types.NestedField.optional(
                                            10, "zip", Types.IntegerType.get()))));

    /** The table after the input's changes, with its own order and a column the input lacks. */
    private static final Schema TABLE =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "name", Types.StringType.get()),
                    Types.NestedField.optional(3, "note", Types.StringType.get()),
                    Types.NestedField.optional(4, "price", Types.DecimalType.of(9, 2)),
                    Types.NestedField.optional(
                            5, "scores", Types.ListType.ofOptional(6, Types.DoubleType.get())),
                    Types.NestedField.optional(
                            7,
                            "attrs",
                            Types.MapType.ofOptional(
                                    8, 9, Types.StringType.get(), Types.LongType.get())),
                    Types.NestedField.optional(
                            10,
                            "address",
                            Types.StructType.of(
                                    Types.NestedField.optional(11, "city", Types.StringType.get()),
                                    Types.NestedField.optional(12, "zip", Types.LongType.get()))));

    @Test
    void rowsTakeTheTablesOrderAndWiderTypesWithNullsForMissingColumns() throws Exception {
        GenericRowData input =
                GenericRowData.ofKind(
                        RowKind.UPDATE_AFTER,
                        StringData.fromString("ann"),
                        7,
                        DecimalData.fromBigDecimal(new BigDecimal("123.45"), 5, 2),
                        new GenericArrayData(new Object[] {1.5f, null}),
                        new GenericMapData(Map.of(StringData.fromString("k"), 3)),
                        GenericRowData.of(12345));

        // shipped to the writers with the job
        RowDataToTableSchema converter =
                InstantiationUtil.clone(new RowDataToTableSchema(INPUT, TABLE, false));
        RowData row = converter.convert(input);

        assertThat(row.getRowKind()).isEqualTo(RowKind.UPDATE_AFTER);
        assertThat(row.getArity()).isEqualTo(7);
        assertThat(row.getLong(0)).isEqualTo(7L);
        assertThat(row.getString(1).toString()).isEqualTo("ann");
        assertThat(row.isNullAt(2)).isTrue();
        DecimalData price = row.getDecimal(3, 9, 2);
        assertThat(price.precision()).isEqualTo(9);
        assertThat(price.toBigDecimal()).isEqualByComparingTo("123.45");
        assertThat(row.getArray(4).getDouble(0)).isEqualTo(1.5d);
        assertThat(row.getArray(4).isNullAt(1)).isTrue();
        assertThat(row.getMap(5).keyArray().getString(0).toString()).isEqualTo("k");
        assertThat(row.getMap(5).valueArray().getLong(0)).isEqualTo(3L);
        RowData address = row.getRow(6, 2);
        assertThat(address.isNullAt(0)).isTrue();
        assertThat(address.getLong(1)).isEqualTo(12345L);
    }

    @Test
    void rowsOfTheTablesOwnSchemaPassUnchanged() {
        RowDataToTableSchema same = new RowDataToTableSchema(TABLE, TABLE, true);
        GenericRowData row = GenericRowData.of(1L, StringData.fromString("x"));
        assertThat(same.isIdentity()).isTrue();
        assertThat(same.convert(row)).isSameAs(row);
    }

    @Test
    void nullValuesStayNull() {
        GenericRowData input = GenericRowData.of(null, 1, null, null, null, null);
        RowData row = new RowDataToTableSchema(INPUT, TABLE, false).convert(input);
        assertThat(row.getLong(0)).isEqualTo(1L);
        for (int i = 1; i < 7; i++) {
            assertThat(row.isNullAt(i)).as("field %d", i).isTrue();
        }
    }
}
