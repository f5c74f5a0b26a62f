package dev.icebergflink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.types.UnsupportedTypeException;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RawType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SymbolType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.ZonedTimestampType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FlinkSchemaUtilTest {

    static Stream<Arguments> flinkToIceberg() {
        return Stream.of(
                Arguments.of(DataTypes.BOOLEAN(), Types.BooleanType.get()),
                Arguments.of(DataTypes.TINYINT(), Types.IntegerType.get()),
                Arguments.of(DataTypes.SMALLINT(), Types.IntegerType.get()),
                Arguments.of(DataTypes.INT(), Types.IntegerType.get()),
                Arguments.of(DataTypes.BIGINT(), Types.LongType.get()),
                Arguments.of(DataTypes.FLOAT(), Types.FloatType.get()),
                Arguments.of(DataTypes.DOUBLE(), Types.DoubleType.get()),
                Arguments.of(DataTypes.CHAR(3), Types.StringType.get()),
                Arguments.of(DataTypes.VARCHAR(20), Types.StringType.get()),
                Arguments.of(DataTypes.STRING(), Types.StringType.get()),
                Arguments.of(DataTypes.BINARY(9), Types.FixedType.ofLength(9)),
                Arguments.of(DataTypes.VARBINARY(20), Types.BinaryType.get()),
                Arguments.of(DataTypes.BYTES(), Types.BinaryType.get()),
                Arguments.of(DataTypes.DECIMAL(38, 10), Types.DecimalType.of(38, 10)),
                Arguments.of(DataTypes.DECIMAL(1, 0), Types.DecimalType.of(1, 0)),
                Arguments.of(DataTypes.DATE(), Types.DateType.get()),
                Arguments.of(DataTypes.TIME(), Types.TimeType.get()),
                Arguments.of(DataTypes.TIME(3), Types.TimeType.get()),
                Arguments.of(DataTypes.TIMESTAMP(0), Types.TimestampType.withoutZone()),
                Arguments.of(DataTypes.TIMESTAMP(3), Types.TimestampType.withoutZone()),
                Arguments.of(DataTypes.TIMESTAMP(6), Types.TimestampType.withoutZone()),
                Arguments.of(DataTypes.TIMESTAMP(7), Types.TimestampNanoType.withoutZone()),
                Arguments.of(DataTypes.TIMESTAMP(9), Types.TimestampNanoType.withoutZone()),
                Arguments.of(DataTypes.TIMESTAMP_LTZ(3), Types.TimestampType.withZone()),
                Arguments.of(DataTypes.TIMESTAMP_LTZ(6), Types.TimestampType.withZone()),
                Arguments.of(DataTypes.TIMESTAMP_LTZ(9), Types.TimestampNanoType.withZone()));
    }

    @ParameterizedTest
    @MethodSource("flinkToIceberg")
    void convertsFlinkPrimitivesToIceberg(DataType flink, Type iceberg) {
        assertThat(FlinkSchemaUtil.convert(flink.getLogicalType())).isEqualTo(iceberg);
    }

    static Stream<Arguments> icebergToFlink() {
        return Stream.of(
                Arguments.of(Types.BooleanType.get(), DataTypes.BOOLEAN()),
                Arguments.of(Types.IntegerType.get(), DataTypes.INT()),
                Arguments.of(Types.LongType.get(), DataTypes.BIGINT()),
                Arguments.of(Types.FloatType.get(), DataTypes.FLOAT()),
                Arguments.of(Types.DoubleType.get(), DataTypes.DOUBLE()),
                Arguments.of(Types.DateType.get(), DataTypes.DATE()),
                Arguments.of(Types.TimeType.get(), DataTypes.TIME(3)),
                Arguments.of(Types.TimestampType.withoutZone(), DataTypes.TIMESTAMP(6)),
                Arguments.of(Types.TimestampType.withZone(), DataTypes.TIMESTAMP_LTZ(6)),
                Arguments.of(Types.TimestampNanoType.withoutZone(), DataTypes.TIMESTAMP(9)),
                Arguments.of(Types.TimestampNanoType.withZone(), DataTypes.TIMESTAMP_LTZ(9)),
                Arguments.of(Types.StringType.get(), DataTypes.STRING()),
                Arguments.of(Types.UUIDType.get(), DataTypes.BINARY(16)),
                Arguments.of(Types.FixedType.ofLength(5), DataTypes.BINARY(5)),
                Arguments.of(Types.BinaryType.get(), DataTypes.BYTES()),
                Arguments.of(Types.DecimalType.of(20, 4), DataTypes.DECIMAL(20, 4)));
    }

    @ParameterizedTest
    @MethodSource("icebergToFlink")
    void convertsIcebergPrimitivesToFlink(Type iceberg, DataType flink) {
        assertThat(FlinkSchemaUtil.convert(iceberg)).isEqualTo(flink.getLogicalType());
    }

    @Test
    void roundTripsNestedSchemasKeepingIdsNullabilityAndDocs() {
        Schema schema =
                new Schema(
                        Types.NestedField.required(1, "id", Types.LongType.get(), "the key"),
                        Types.NestedField.optional(
                                2,
                                "address",
                                Types.StructType.of(
                                        Types.NestedField.required(
                                                5, "street", Types.StringType.get()),
                                        Types.NestedField.optional(
                                                6, "zip", Types.IntegerType.get(), "postal code"))),
                        Types.NestedField.optional(
                                3, "tags", Types.ListType.ofRequired(7, Types.StringType.get())),
                        Types.NestedField.optional(
                                4,
                                "scores",
                                Types.MapType.ofOptional(
                                        8,
                                        9,
                                        Types.StringType.get(),
                                        Types.ListType.ofOptional(10, Types.DoubleType.get()))));

        RowType rowType = FlinkSchemaUtil.convert(schema);

        assertThat(rowType)
                .isEqualTo(
                        DataTypes.ROW(
                                        DataTypes.FIELD(
                                                "id", DataTypes.BIGINT().notNull(), "the key"),
                                        DataTypes.FIELD(
                                                "address",
                                                DataTypes.ROW(
                                                        DataTypes.FIELD(
                                                                "street",
                                                                DataTypes.STRING().notNull()),
                                                        DataTypes.FIELD(
                                                                "zip",
                                                                DataTypes.INT(),
                                                                "postal code"))),
                                        DataTypes.FIELD(
                                                "tags",
                                                DataTypes.ARRAY(DataTypes.STRING().notNull())),
                                        DataTypes.FIELD(
                                                "scores",
                                                DataTypes.MAP(
                                                        DataTypes.STRING().notNull(),
                                                        DataTypes.ARRAY(DataTypes.DOUBLE()))))
                                .getLogicalType());
        // Fresh ids follow Iceberg's numbering, which is exactly what this schema uses.
        assertThat(FlinkSchemaUtil.toSchema(rowType).asStruct()).isEqualTo(schema.asStruct());
    }

    @Test
    void convertsMultisetToMapOfCounts() {
        Type type =
                FlinkSchemaUtil.convert(DataTypes.MULTISET(DataTypes.STRING()).getLogicalType());

        assertThat(type)
                .isEqualTo(
                        Types.MapType.ofRequired(
                                1, 2, Types.StringType.get(), Types.IntegerType.get()));
    }

    @Test
    void mapsPrimaryKeyToIdentifierFieldsAndBack() {
        ResolvedSchema flinkSchema =
                new ResolvedSchema(
                        List.of(
                                Column.physical("tenant", DataTypes.STRING().notNull()),
                                Column.physical("id", DataTypes.BIGINT().notNull())
                                        .withComment("row id"),
                                Column.physical("payload", DataTypes.STRING())),
                        List.of(),
                        UniqueConstraint.primaryKey("pk", List.of("id", "tenant")));

        Schema schema = FlinkSchemaUtil.convert(flinkSchema);

        assertThat(schema.identifierFieldNames()).containsExactlyInAnyOrder("id", "tenant");
        assertThat(schema.findField("id").doc()).isEqualTo("row id");
        assertThat(schema.findField("payload").isOptional()).isTrue();

        ResolvedSchema back = FlinkSchemaUtil.toResolvedSchema(schema);
        assertThat(back.getPrimaryKey()).isPresent();
        assertThat(back.getPrimaryKey().get().getColumns()).containsExactly("tenant", "id");
        assertThat(back.getColumn("id").flatMap(Column::getComment)).contains("row id");
        assertThat(back.toPhysicalRowDataType().getLogicalType())
                .isEqualTo(flinkSchema.toPhysicalRowDataType().getLogicalType());
    }

    @Test
    void reassignsIdsFromTheTableSchema() {
        Schema table =
                new Schema(
                        Types.NestedField.optional(10, "name", Types.StringType.get()),
                        Types.NestedField.required(20, "id", Types.LongType.get()));
        ResolvedSchema flinkSchema =
                ResolvedSchema.of(
                        Column.physical("id", DataTypes.BIGINT().notNull()),
                        Column.physical("name", DataTypes.STRING()));

        Schema converted = FlinkSchemaUtil.convert(table, flinkSchema);

        assertThat(converted.findField("id").fieldId()).isEqualTo(20);
        assertThat(converted.findField("name").fieldId()).isEqualTo(10);
    }

    @Test
    void rejectsFloatingPointPrimaryKeyWithActionableMessage() {
        ResolvedSchema flinkSchema =
                new ResolvedSchema(
                        List.of(Column.physical("score", DataTypes.DOUBLE().notNull())),
                        List.of(),
                        UniqueConstraint.primaryKey("pk", List.of("score")));

        assertThatThrownBy(() -> FlinkSchemaUtil.convert(flinkSchema))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[score]")
                .hasMessageContaining("FLOAT and DOUBLE");
    }

    static Stream<Arguments> unsupportedFlinkTypes() {
        return Stream.of(
                Arguments.of(DataTypes.INTERVAL(DataTypes.SECOND(3)).getLogicalType(), "INTERVAL"),
                Arguments.of(DataTypes.INTERVAL(DataTypes.MONTH()).getLogicalType(), "INTERVAL"),
                Arguments.of(
                        new RawType<>(
                                String.class,
                                org.apache.flink.api.common.typeutils.base.StringSerializer
                                        .INSTANCE),
                        "RAW"),
                Arguments.of(new ZonedTimestampType(3), "TIMESTAMP(3) WITH TIME ZONE"),
                Arguments.of(DataTypes.NULL().getLogicalType(), "NULL"),
                Arguments.of(new SymbolType<>(), "SYMBOL"),
                Arguments.of(
                        DataTypes.STRUCTURED(Pojo.class, DataTypes.FIELD("x", DataTypes.INT()))
                                .getLogicalType(),
                        "Pojo"));
    }

    @ParameterizedTest
    @MethodSource("unsupportedFlinkTypes")
    void rejectsUnsupportedFlinkTypesNamingColumnAndType(LogicalType type, String typeName) {
        RowType row =
                RowType.of(
                        new LogicalType[] {
                            DataTypes.INT().getLogicalType(),
                            RowType.of(new LogicalType[] {type}, new String[] {"bad"})
                        },
                        new String[] {"ok", "outer"});

        assertThatThrownBy(() -> FlinkSchemaUtil.toSchema(row))
                .isInstanceOf(UnsupportedTypeException.class)
                .hasMessageContaining("Column 'outer.bad'")
                .hasMessageContaining(typeName)
                .satisfies(
                        e ->
                                assertThat(((UnsupportedTypeException) e).column())
                                        .isEqualTo("outer.bad"));
    }

    @Test
    void rejectsUnsupportedTypesInsideCollections() {
        LogicalType array = DataTypes.ARRAY(DataTypes.INTERVAL(DataTypes.DAY())).getLogicalType();

        assertThatThrownBy(
                        () ->
                                FlinkSchemaUtil.toSchema(
                                        RowType.of(new LogicalType[] {array}, new String[] {"a"})))
                .isInstanceOf(UnsupportedTypeException.class)
                .hasMessageContaining("Column 'a.element'");
    }

    @Test
    void rejectsIcebergTypesWithoutFlinkCounterpartNamingTheColumn() {
        Schema schema =
                new Schema(
                        Types.NestedField.optional(
                                1,
                                "s",
                                Types.StructType.of(
                                        Types.NestedField.optional(
                                                2, "g", Types.GeometryType.crs84()))));

        assertThatThrownBy(() -> FlinkSchemaUtil.convert(schema))
                .isInstanceOf(UnsupportedTypeException.class)
                .hasMessageContaining("Column 's.g'")
                .hasMessageContaining("geometry");
    }

    @Test
    void keepsTimePrecisionAtMilliseconds() {
        assertThat(FlinkSchemaUtil.convert(Types.TimeType.get())).isEqualTo(new TimeType(3));
    }

    /** A structured type for the unsupported-type test. */
    public static class Pojo {
        public int x;
    }
}
