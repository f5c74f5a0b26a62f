package dev.icebergflink.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class RowDataAssertTest {

    private static final Schema SCHEMA = TestSchemas.NESTED;

    @Test
    void equalCopiesPass() {
        List<RowData> rows = RandomRowData.generate(SCHEMA, 50, 3L);
        List<RowData> copies = RandomRowData.generate(SCHEMA, 50, 3L);
        RowDataAssert.assertRowsEqual(SCHEMA, rows, copies);
    }

    @Test
    void detectsChangedNestedValueAndReportsPath() {
        RowData expected = row(1234, 3.5d);
        RowData actual = row(1235, 3.5d);

        assertThatThrownBy(
                        () ->
                                RowDataAssert.assertRowsEqual(
                                        SCHEMA,
                                        List.of(expected, expected),
                                        List.of(expected, actual)))
                .isInstanceOf(AssertionError.class)
                .hasMessage("row 1, field address.zip: expected 1234 but was 1235");
    }

    @Test
    void detectsChangedDeeplyNestedValue() {
        assertThatThrownBy(
                        () ->
                                RowDataAssert.assertRowEquals(
                                        SCHEMA.asStruct(), row(1, 3.5d), row(1, 4.5d)))
                .hasMessage("field address.geo.lat: expected 3.5 but was 4.5");
    }

    @Test
    void comparesMapsByKeyAndReportsKeyInPath() {
        Types.StructType type =
                Types.StructType.of(
                        Types.NestedField.optional(
                                1,
                                "m",
                                Types.MapType.ofOptional(
                                        2, 3, Types.StringType.get(), Types.IntegerType.get())));
        RowData expected = GenericRowData.of(map("a", 1, "b", 2));
        RowData reordered = GenericRowData.of(map("b", 2, "a", 1));
        RowData changed = GenericRowData.of(map("b", 3, "a", 1));
        RowData missing = GenericRowData.of(map("c", 2, "a", 1));

        RowDataAssert.assertRowEquals(type, expected, reordered);
        assertThatThrownBy(() -> RowDataAssert.assertRowEquals(type, expected, changed))
                .hasMessage("field m[\"b\"]: expected 2 but was 3");
        assertThatThrownBy(() -> RowDataAssert.assertRowEquals(type, expected, missing))
                .hasMessageStartingWith("field m[\"b\"]: expected key is missing");
    }

    @Test
    void reportsListIndexAndSize() {
        Types.StructType type =
                Types.StructType.of(
                        Types.NestedField.optional(
                                1, "l", Types.ListType.ofOptional(2, Types.StringType.get())));
        RowData expected = GenericRowData.of(strings("x", "y"));
        assertThatThrownBy(
                        () ->
                                RowDataAssert.assertRowEquals(
                                        type, expected, GenericRowData.of(strings("x", null))))
                .hasMessage("field l[1]: expected \"y\" but was null");
        assertThatThrownBy(
                        () ->
                                RowDataAssert.assertRowEquals(
                                        type, expected, GenericRowData.of(strings("x"))))
                .hasMessageStartingWith("field l: expected list of size 2 but was size 1");
    }

    @Test
    void floatsCompareBitwiseAndBinaryByContent() {
        Types.StructType type =
                Types.StructType.of(
                        Types.NestedField.optional(1, "f", Types.FloatType.get()),
                        Types.NestedField.optional(2, "b", Types.BinaryType.get()),
                        Types.NestedField.optional(3, "d", Types.DecimalType.of(9, 2)));
        RowData expected = GenericRowData.of(Float.NaN, new byte[] {1, 2}, decimal("1.50"));
        RowDataAssert.assertRowEquals(
                type, expected, GenericRowData.of(Float.NaN, new byte[] {1, 2}, decimal("1.50")));
        assertThatThrownBy(
                        () ->
                                RowDataAssert.assertRowEquals(
                                        type,
                                        GenericRowData.of(0.0f, null, null),
                                        GenericRowData.of(-0.0f, null, null)))
                .hasMessage("field f: expected 0.0 but was -0.0");
        assertThatThrownBy(
                        () ->
                                RowDataAssert.assertRowEquals(
                                        type,
                                        expected,
                                        GenericRowData.of(
                                                Float.NaN, new byte[] {1, 3}, decimal("1.50"))))
                .hasMessage("field b: expected 0x0102 but was 0x0103");
    }

    @Test
    void reportsRowCountMismatch() {
        List<RowData> rows = RandomRowData.generate(SCHEMA, 3, 1L);
        assertThatThrownBy(() -> RowDataAssert.assertRowsEqual(SCHEMA, rows, rows.subList(0, 2)))
                .hasMessage("expected 3 rows but was 2 rows");
    }

    @Test
    void recordMatchesItsRow() {
        Record record = RandomRecords.generate(TestSchemas.ALL_PRIMITIVES, 1, 5L).get(0);
        RowData row = RowDataConverter.fromRecord(TestSchemas.ALL_PRIMITIVES, record);
        RowDataAssert.assertRecordMatchesRow(TestSchemas.ALL_PRIMITIVES.asStruct(), record, row);

        GenericRowData changed =
                (GenericRowData) RowDataConverter.fromRecord(TestSchemas.ALL_PRIMITIVES, record);
        changed.setField(18, StringData.fromString("changed"));
        assertThatThrownBy(
                        () ->
                                RowDataAssert.assertRecordMatchesRow(
                                        TestSchemas.ALL_PRIMITIVES.asStruct(), record, changed))
                .hasMessageEndingWith("but was \"changed\"")
                .hasMessageStartingWith("field required_string: expected ");
        assertThat(RowDataAssert.valuesEqual(Types.DoubleType.get(), Double.NaN, Double.NaN))
                .isTrue();
    }

    /**
     * A NESTED row with everything null except id, matrix, required_ints and address.{zip,
     * geo.lat}.
     */
    private static RowData row(int zip, double lat) {
        GenericRowData geo = GenericRowData.of(lat, null);
        GenericRowData address = GenericRowData.of(StringData.fromString("Main St"), zip, geo);
        GenericRowData row = new GenericRowData(SCHEMA.columns().size());
        row.setField(0, 1L);
        row.setField(1, address);
        row.setField(4, new GenericArrayData(new Object[0]));
        row.setField(8, new GenericArrayData(new Object[] {1, 2}));
        return row;
    }

    private static GenericMapData map(Object... keysAndValues) {
        Map<Object, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(StringData.fromString((String) keysAndValues[i]), keysAndValues[i + 1]);
        }
        return new GenericMapData(map);
    }

    private static GenericArrayData strings(String... values) {
        List<Object> list = new ArrayList<>();
        for (String value : values) {
            list.add(value == null ? null : StringData.fromString(value));
        }
        return new GenericArrayData(list.toArray());
    }

    private static DecimalData decimal(String value) {
        return DecimalData.fromBigDecimal(new java.math.BigDecimal(value), 9, 2);
    }
}
