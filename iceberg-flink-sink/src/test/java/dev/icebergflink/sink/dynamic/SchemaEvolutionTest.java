package dev.icebergflink.sink.dynamic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Which schema changes an input schema asks of a table, and that applying them to a real table
 * gives a schema that takes the input.
 */
class SchemaEvolutionTest {

    private static final Schema TABLE =
            new Schema(
                    Types.NestedField.required(1, "id", Types.IntegerType.get()),
                    Types.NestedField.optional(2, "price", Types.DecimalType.of(9, 2)),
                    Types.NestedField.required(3, "name", Types.StringType.get()),
                    Types.NestedField.optional(
                            4,
                            "address",
                            Types.StructType.of(
                                    Types.NestedField.optional(5, "city", Types.StringType.get()))),
                    Types.NestedField.optional(6, "score", Types.FloatType.get()));

    @RegisterExtension final HadoopWarehouse warehouse = new HadoopWarehouse();

    private HadoopCatalog catalog;
    private Table table;

    @BeforeEach
    void createTable() {
        catalog = warehouse.catalog();
        table =
                catalog.createTable(
                        TableIdentifier.of("db", "t"), TABLE, PartitionSpec.unpartitioned());
    }

    @Test
    void theSameSchemaNeedsNoChange() {
        assertThat(evolution(false).changes(TABLE, TABLE)).isEmpty();
    }

    @Test
    void newColumnsWideningsAndOptionalityAreAppliedInOneUpdate() {
        Schema input =
                new Schema(
                        Types.NestedField.required(1, "id", Types.LongType.get()),
                        Types.NestedField.optional(2, "price", Types.DecimalType.of(18, 2)),
                        Types.NestedField.optional(3, "name", Types.StringType.get()),
                        Types.NestedField.optional(
                                4,
                                "address",
                                Types.StructType.of(
                                        Types.NestedField.optional(
                                                5, "city", Types.StringType.get()),
                                        Types.NestedField.required(
                                                7, "zip", Types.StringType.get()))),
                        Types.NestedField.optional(6, "score", Types.DoubleType.get()),
                        Types.NestedField.required(8, "added_at", Types.TimestampType.withZone()));

        List<SchemaChange> changes = evolution(false).changes(TABLE, input);

        assertThat(changes)
                .extracting(Object::toString)
                .containsExactly(
                        "widen column id to long",
                        "widen column price to decimal(18, 2)",
                        "make column name optional",
                        "add optional column address.zip string",
                        "widen column score to double",
                        "add optional column added_at timestamptz");
        evolution(false).apply(changes, table.updateSchema()).commit();
        table.refresh();
        Types.StructType evolved = table.schema().asStruct();
        assertThat(evolved.field("id").type()).isEqualTo(Types.LongType.get());
        assertThat(evolved.field("price").type()).isEqualTo(Types.DecimalType.of(18, 2));
        assertThat(evolved.field("name").isOptional()).isTrue();
        assertThat(table.schema().findField("address.zip").isOptional()).isTrue();
        assertThat(evolved.field("score").type()).isEqualTo(Types.DoubleType.get());
        assertThat(evolved.field("added_at").isOptional()).isTrue();
        assertThat(evolution(false).changes(table.schema(), input))
                .as("the evolved table takes the input as it is")
                .isEmpty();
    }

    @Test
    void inputTypesTheTableWidensAreWrittenWithoutAChange() {
        Schema input =
                new Schema(
                        Types.NestedField.optional(1, "id", Types.IntegerType.get()),
                        Types.NestedField.optional(2, "score", Types.FloatType.get()),
                        Types.NestedField.optional(3, "price", Types.DecimalType.of(5, 2)));
        Schema table =
                new Schema(
                        Types.NestedField.optional(1, "id", Types.LongType.get()),
                        Types.NestedField.optional(2, "score", Types.DoubleType.get()),
                        Types.NestedField.optional(3, "price", Types.DecimalType.of(9, 2)));
        assertThat(evolution(false).changes(table, input)).isEmpty();
    }

    @Test
    void missingColumnsBecomeOptionalOrAreDroppedWhenAsked() {
        Schema input =
                new Schema(
                        Types.NestedField.required(1, "id", Types.IntegerType.get()),
                        Types.NestedField.optional(2, "price", Types.DecimalType.of(9, 2)));

        assertThat(evolution(false).changes(TABLE, input))
                .extracting(Object::toString)
                .containsExactly("make column name optional");

        List<SchemaChange> drops = evolution(true).changes(TABLE, input);
        assertThat(drops)
                .extracting(Object::toString)
                .containsExactly("drop column name", "drop column address", "drop column score");
        evolution(true).apply(drops, table.updateSchema()).commit();
        table.refresh();
        assertThat(table.schema().columns())
                .extracting(Types.NestedField::name)
                .containsExactly("id", "price");
    }

    @Test
    void namesMatchIgnoringCaseUnlessToldOtherwise() {
        Schema input =
                new Schema(
                        Types.NestedField.required(1, "ID", Types.IntegerType.get()),
                        Types.NestedField.optional(2, "Price", Types.DecimalType.of(9, 2)),
                        Types.NestedField.required(3, "NAME", Types.StringType.get()),
                        Types.NestedField.optional(
                                4,
                                "Address",
                                Types.StructType.of(
                                        Types.NestedField.optional(
                                                5, "City", Types.StringType.get()))),
                        Types.NestedField.optional(6, "SCORE", Types.FloatType.get()));
        assertThat(evolution(false).changes(TABLE, input)).isEmpty();
        assertThat(new SchemaEvolution("db.t", true, false).changes(TABLE, input))
                .extracting(Object::toString)
                .contains("add optional column ID int", "make column id optional");
    }

    @Test
    void listElementsAndMapValuesEvolveLikeColumns() {
        Schema table =
                new Schema(
                        Types.NestedField.optional(
                                1, "tags", Types.ListType.ofRequired(2, Types.IntegerType.get())),
                        Types.NestedField.optional(
                                3,
                                "attrs",
                                Types.MapType.ofRequired(
                                        4, 5, Types.StringType.get(), Types.FloatType.get())));
        Schema input =
                new Schema(
                        Types.NestedField.optional(
                                1, "tags", Types.ListType.ofOptional(2, Types.LongType.get())),
                        Types.NestedField.optional(
                                3,
                                "attrs",
                                Types.MapType.ofRequired(
                                        4, 5, Types.StringType.get(), Types.DoubleType.get())));
        assertThat(evolution(false).changes(table, input))
                .extracting(Object::toString)
                .containsExactly(
                        "make column tags.element optional",
                        "widen column tags.element to long",
                        "widen column attrs.value to double");
    }

    @Test
    void aChangedTypeIsAnErrorNamingTableColumnAndTypes() {
        Schema otherScale =
                new Schema(Types.NestedField.optional(2, "price", Types.DecimalType.of(12, 3)));
        assertThatThrownBy(() -> evolution(false).changes(TABLE, otherScale))
                .isInstanceOf(IncompatibleSchemaException.class)
                .hasMessageStartingWith(
                        "Table db.t: column 'price' is decimal(9, 2) in the table and decimal(12,"
                                + " 3) in the record");
        Schema narrowing =
                new Schema(Types.NestedField.optional(6, "score", Types.IntegerType.get()));
        assertThatThrownBy(() -> evolution(false).changes(TABLE, narrowing))
                .isInstanceOf(IncompatibleSchemaException.class)
                .hasMessageContaining("column 'score' is float in the table and int");
        Schema unrelated =
                new Schema(Types.NestedField.optional(4, "address", Types.StringType.get()));
        assertThatThrownBy(() -> evolution(false).changes(TABLE, unrelated))
                .isInstanceOf(IncompatibleSchemaException.class)
                .hasMessageContaining("column 'address' is struct<5: city: optional string>")
                .hasMessageContaining("and string in the record");
        Schema otherKey =
                new Schema(
                        Types.NestedField.optional(
                                1,
                                "attrs",
                                Types.MapType.ofRequired(
                                        2, 3, Types.IntegerType.get(), Types.StringType.get())));
        Schema stringKey =
                new Schema(
                        Types.NestedField.optional(
                                1,
                                "attrs",
                                Types.MapType.ofRequired(
                                        2, 3, Types.StringType.get(), Types.StringType.get())));
        assertThatThrownBy(() -> evolution(false).changes(otherKey, stringKey))
                .hasMessageContaining("column 'attrs.key' is int in the table and string");
    }

    private static SchemaEvolution evolution(boolean dropUnused) {
        return new SchemaEvolution("db.t", false, dropUnused);
    }
}
