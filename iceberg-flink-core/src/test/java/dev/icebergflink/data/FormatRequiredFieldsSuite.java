package dev.icebergflink.data;

import static org.apache.flink.table.api.DataTypes.ARRAY;
import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.apache.flink.table.api.DataTypes.INT;
import static org.apache.flink.table.api.DataTypes.MAP;
import static org.apache.flink.table.api.DataTypes.ROW;
import static org.apache.flink.table.api.DataTypes.STRING;
import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.data.row.RequiredFieldCheck;
import dev.icebergflink.testing.RowDataAssert;
import java.io.File;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.ExceptionUtils;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A row with a NULL where the Iceberg schema has a required field never reaches a file: the writer
 * fails naming the column path (top level, inside a ROW, inside the ROW of an ARRAY element or of a
 * MAP value, list elements and map keys), for generic and binary rows, whether the Flink row type
 * declares the field NOT NULL (as SQL does) or nullable (as DataStream jobs often do). NULLs in
 * optional fields, including inside required structures, are still written and read back.
 */
public abstract class FormatRequiredFieldsSuite extends FormatSuite {

    private static final Schema SCHEMA =
            new Schema(
                    required(1, "id", Types.IntegerType.get()),
                    optional(
                            2,
                            "address",
                            Types.StructType.of(
                                    required(3, "city", Types.StringType.get()),
                                    optional(4, "zip", Types.StringType.get()))),
                    optional(
                            5,
                            "items",
                            Types.ListType.ofOptional(
                                    6,
                                    Types.StructType.of(
                                            required(7, "sku", Types.StringType.get()),
                                            optional(8, "qty", Types.IntegerType.get())))),
                    optional(
                            9,
                            "attrs",
                            Types.MapType.ofOptional(
                                    10,
                                    11,
                                    Types.StringType.get(),
                                    Types.StructType.of(
                                            required(12, "v", Types.StringType.get())))),
                    optional(13, "tags", Types.ListType.ofRequired(14, Types.StringType.get())));

    /** The same columns, all nullable in Flink, as a DataStream job may declare them. */
    private static final RowType NULLABLE_TYPE =
            (RowType)
                    ROW(
                                    FIELD("id", INT()),
                                    FIELD(
                                            "address",
                                            ROW(FIELD("city", STRING()), FIELD("zip", STRING()))),
                                    FIELD(
                                            "items",
                                            ARRAY(
                                                    ROW(
                                                            FIELD("sku", STRING()),
                                                            FIELD("qty", INT())))),
                                    FIELD("attrs", MAP(STRING(), ROW(FIELD("v", STRING())))),
                                    FIELD("tags", ARRAY(STRING())))
                            .getLogicalType();

    @ParameterizedTest(name = "binary rows: {0}")
    @ValueSource(booleans = {false, true})
    void nullInAFieldNestedInARowIsRejectedWithItsPath(boolean binary) {
        assertRejected(binary, row(1, address(null, "12345"), null, null, null), "address.city");
    }

    @ParameterizedTest(name = "binary rows: {0}")
    @ValueSource(booleans = {false, true})
    void nullInATopLevelRequiredColumnIsRejected(boolean binary) {
        assertRejected(binary, row(null, null, null, null, null), "id");
    }

    @ParameterizedTest(name = "binary rows: {0}")
    @ValueSource(booleans = {false, true})
    void nullInARowOfAListIsRejectedWithItsPath(boolean binary) {
        GenericArrayData items = new GenericArrayData(new Object[] {item("a", 1), item(null, 2)});
        assertRejected(binary, row(1, null, items, null, null), "items.element.sku");
    }

    @ParameterizedTest(name = "binary rows: {0}")
    @ValueSource(booleans = {false, true})
    void nullInARowOfAMapValueIsRejectedWithItsPath(boolean binary) {
        GenericMapData attrs = new GenericMapData(Map.of(StringData.fromString("k"), attr(null)));
        assertRejected(binary, row(1, null, null, attrs, null), "attrs.value.v");
    }

    @ParameterizedTest(name = "binary rows: {0}")
    @ValueSource(booleans = {false, true})
    void nullElementOfAListOfRequiredElementsIsRejected(boolean binary) {
        GenericArrayData tags =
                new GenericArrayData(new Object[] {StringData.fromString("a"), null});
        assertRejected(binary, row(1, null, null, null, tags), "tags.element");
    }

    @ParameterizedTest(name = "binary rows: {0}")
    @ValueSource(booleans = {false, true})
    void nullMapKeyIsRejected(boolean binary) {
        Map<Object, Object> entries = new HashMap<>();
        entries.put(null, attr("x"));
        assertRejected(binary, row(1, null, null, new GenericMapData(entries), null), "attrs.key");
    }

    @ParameterizedTest(name = "binary rows: {0}")
    @ValueSource(booleans = {false, true})
    void nullInANotNullFlinkFieldIsRejectedToo(boolean binary) {
        // The Flink type derived from the schema says NOT NULL (as in SQL), so Flink's getters
        // never look at the null bit: a binary row yields an empty string for the null slot.
        File file = files.newFile(dir);
        List<RowData> rows = List.of(row(1, address(null, "12345"), null, null, null));
        assertThatThrownBy(
                        () -> files.writeRows(file, SCHEMA, null, binary ? toBinary(rows) : rows))
                .satisfies(e -> assertNamesRequiredColumn(e, "address.city"));
    }

    @ParameterizedTest(name = "binary rows: {0}")
    @ValueSource(booleans = {false, true})
    void nullsInOptionalFieldsAreWrittenAndReadBack(boolean binary) {
        Map<Object, Object> attrs = new HashMap<>();
        attrs.put(StringData.fromString("set"), attr("v1"));
        attrs.put(StringData.fromString("unset"), null);
        List<RowData> rows =
                List.of(
                        row(1, null, null, null, null),
                        row(
                                2,
                                address("Berlin", null),
                                new GenericArrayData(new Object[] {item("a", null), null}),
                                new GenericMapData(attrs),
                                new GenericArrayData(new Object[] {StringData.fromString("t")})));
        File file = files.newFile(dir);
        files.writeRows(file, SCHEMA, NULLABLE_TYPE, binary ? toBinary(rows) : rows);

        RowDataAssert.assertRowsEqual(SCHEMA, rows, files.readRows(file, SCHEMA));
    }

    @Test
    void aSchemaWithoutRequiredFieldsNeedsNoCheck() {
        Schema optionalOnly =
                new Schema(
                        optional(1, "id", Types.IntegerType.get()),
                        optional(
                                2,
                                "address",
                                Types.StructType.of(optional(3, "city", Types.StringType.get()))));
        assertThat(
                        RequiredFieldCheck.of(
                                        optionalOnly,
                                        dev.icebergflink.FlinkSchemaUtil.convert(optionalOnly))
                                .checksAnything())
                .isFalse();
        assertThat(RequiredFieldCheck.of(SCHEMA, NULLABLE_TYPE).checksAnything()).isTrue();
    }

    private void assertRejected(boolean binary, RowData bad, String path) {
        RowData good = row(7, address("Paris", "75001"), null, null, null);
        List<RowData> rows = Arrays.asList(good, bad);
        File file = files.newFile(dir);
        assertThatThrownBy(
                        () ->
                                files.writeRows(
                                        file,
                                        SCHEMA,
                                        NULLABLE_TYPE,
                                        binary ? toBinary(rows) : rows))
                .satisfies(e -> assertNamesRequiredColumn(e, path));
    }

    private static void assertNamesRequiredColumn(Throwable thrown, String path) {
        Optional<IllegalArgumentException> cause =
                ExceptionUtils.findThrowable(thrown, IllegalArgumentException.class);
        assertThat(cause)
                .as("an IllegalArgumentException in the cause chain of %s", thrown)
                .isPresent();
        assertThat(cause.get())
                .hasMessageContaining("column '" + path + "'")
                .hasMessageContaining("required (NOT NULL)");
    }

    private static List<RowData> toBinary(List<RowData> rows) {
        RowDataSerializer serializer = new RowDataSerializer(NULLABLE_TYPE);
        return rows.stream().map(r -> (RowData) serializer.toBinaryRow(r).copy()).toList();
    }

    private static RowData row(
            Integer id, RowData address, Object items, Object attrs, Object tags) {
        return GenericRowData.of(id, address, items, attrs, tags);
    }

    private static RowData address(String city, String zip) {
        return GenericRowData.of(StringData.fromString(city), StringData.fromString(zip));
    }

    private static RowData item(String sku, Integer qty) {
        return GenericRowData.of(StringData.fromString(sku), qty);
    }

    private static RowData attr(String value) {
        return GenericRowData.of(StringData.fromString(value));
    }
}
