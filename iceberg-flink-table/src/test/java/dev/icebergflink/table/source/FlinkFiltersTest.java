package dev.icebergflink.table.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinition;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.types.DataType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class FlinkFiltersTest {

    private static final FieldReferenceExpression ID = field("id", DataTypes.BIGINT());
    private static final FieldReferenceExpression DATA = field("data", DataTypes.STRING());
    private static final FieldReferenceExpression SCORE = field("score", DataTypes.DOUBLE());
    private static final FieldReferenceExpression FLAG = field("flag", DataTypes.BOOLEAN());

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.optional(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "data", Types.StringType.get()),
                    Types.NestedField.optional(3, "score", Types.DoubleType.get()),
                    Types.NestedField.optional(4, "flag", Types.BooleanType.get()),
                    Types.NestedField.optional(5, "day", Types.DateType.get()),
                    Types.NestedField.optional(6, "ts", Types.TimestampType.withoutZone()),
                    Types.NestedField.optional(7, "tstz", Types.TimestampType.withZone()),
                    Types.NestedField.optional(8, "price", Types.DecimalType.of(10, 2)),
                    Types.NestedField.optional(9, "small", Types.IntegerType.get()));

    @Test
    void comparisonsWithTheLiteralOnEitherSide() {
        assertConverts(
                call(BuiltInFunctionDefinitions.EQUALS, ID, lit(5L)), Expressions.equal("id", 5L));
        assertConverts(
                call(BuiltInFunctionDefinitions.NOT_EQUALS, ID, lit(5L)),
                Expressions.notEqual("id", 5L));
        assertConverts(
                call(BuiltInFunctionDefinitions.LESS_THAN, ID, lit(5L)),
                Expressions.lessThan("id", 5L));
        assertConverts(
                call(BuiltInFunctionDefinitions.LESS_THAN_OR_EQUAL, ID, lit(5L)),
                Expressions.lessThanOrEqual("id", 5L));
        assertConverts(
                call(BuiltInFunctionDefinitions.GREATER_THAN, ID, lit(5L)),
                Expressions.greaterThan("id", 5L));
        assertConverts(
                call(BuiltInFunctionDefinitions.GREATER_THAN_OR_EQUAL, ID, lit(5L)),
                Expressions.greaterThanOrEqual("id", 5L));
        // 5 < id is id > 5; 5 >= id is id <= 5; 5 = id is id = 5.
        assertConverts(
                call(BuiltInFunctionDefinitions.LESS_THAN, lit(5L), ID),
                Expressions.greaterThan("id", 5L));
        assertConverts(
                call(BuiltInFunctionDefinitions.GREATER_THAN_OR_EQUAL, lit(5L), ID),
                Expressions.lessThanOrEqual("id", 5L));
        assertConverts(
                call(BuiltInFunctionDefinitions.EQUALS, lit(5L), ID), Expressions.equal("id", 5L));
    }

    @Test
    void nullChecksAndLogic() {
        assertConverts(call(BuiltInFunctionDefinitions.IS_NULL, DATA), Expressions.isNull("data"));
        assertConverts(
                call(BuiltInFunctionDefinitions.IS_NOT_NULL, DATA), Expressions.notNull("data"));
        ResolvedExpression a = call(BuiltInFunctionDefinitions.GREATER_THAN, ID, lit(1L));
        ResolvedExpression b = call(BuiltInFunctionDefinitions.EQUALS, DATA, lit("x"));
        assertConverts(
                call(BuiltInFunctionDefinitions.AND, a, b),
                Expressions.and(Expressions.greaterThan("id", 1L), Expressions.equal("data", "x")));
        assertConverts(
                call(BuiltInFunctionDefinitions.OR, a, b),
                Expressions.or(Expressions.greaterThan("id", 1L), Expressions.equal("data", "x")));
        assertConverts(
                call(BuiltInFunctionDefinitions.NOT, b),
                Expressions.not(Expressions.equal("data", "x")));
        assertConverts(FLAG, Expressions.equal("flag", true));
        assertConverts(
                call(BuiltInFunctionDefinitions.NOT, FLAG),
                Expressions.not(Expressions.equal("flag", true)));
    }

    @Test
    void inLists() {
        assertConverts(
                call(BuiltInFunctionDefinitions.IN, ID, lit(1L), lit(2L), lit(3L)),
                Expressions.in("id", 1L, 2L, 3L));
        assertThat(FlinkFilters.convert(call(BuiltInFunctionDefinitions.IN, ID, lit(1L), ID)))
                .isEmpty();
    }

    @Test
    void likeWithAPrefixIsStartsWith() {
        assertConverts(
                call(BuiltInFunctionDefinitions.LIKE, DATA, lit("abc%")),
                Expressions.startsWith("data", "abc"));
        assertConverts(
                call(BuiltInFunctionDefinitions.LIKE, DATA, lit("abc")),
                Expressions.equal("data", "abc"));
        for (String pattern : List.of("%abc", "a%c%", "a_c%", "%", "a\\%%")) {
            assertThat(
                            FlinkFilters.convert(
                                    call(BuiltInFunctionDefinitions.LIKE, DATA, lit(pattern))))
                    .as(pattern)
                    .isEmpty();
        }
    }

    @Test
    void naNBecomesIsNaNForEqualityAndIsNotPushedForOrder() {
        assertConverts(
                call(BuiltInFunctionDefinitions.EQUALS, SCORE, lit(Double.NaN)),
                Expressions.isNaN("score"));
        assertConverts(
                call(BuiltInFunctionDefinitions.NOT_EQUALS, lit(Double.NaN), SCORE),
                Expressions.notNaN("score"));
        assertThat(
                        FlinkFilters.convert(
                                call(BuiltInFunctionDefinitions.LESS_THAN, SCORE, lit(Double.NaN))))
                .isEmpty();
        assertThat(
                        FlinkFilters.convert(
                                call(
                                        BuiltInFunctionDefinitions.IN,
                                        SCORE,
                                        lit(1.0),
                                        lit(Double.NaN))))
                .isEmpty();
    }

    @Test
    void unsupportedShapesAreNotPushed() {
        // Column to column, NULL literals, functions, and an AND/OR with a part that cannot be
        // pushed.
        assertThat(FlinkFilters.convert(call(BuiltInFunctionDefinitions.EQUALS, ID, ID))).isEmpty();
        assertThat(
                        FlinkFilters.convert(
                                call(
                                        BuiltInFunctionDefinitions.EQUALS,
                                        ID,
                                        new ValueLiteralExpression(null, DataTypes.BIGINT()))))
                .isEmpty();
        ResolvedExpression upper = call(BuiltInFunctionDefinitions.UPPER, DATA);
        ResolvedExpression notPushable = call(BuiltInFunctionDefinitions.EQUALS, upper, lit("A"));
        ResolvedExpression pushable = call(BuiltInFunctionDefinitions.EQUALS, ID, lit(1L));
        assertThat(FlinkFilters.convert(notPushable)).isEmpty();
        assertThat(
                        FlinkFilters.convert(
                                call(BuiltInFunctionDefinitions.AND, pushable, notPushable)))
                .isEmpty();
        assertThat(FlinkFilters.convert(call(BuiltInFunctionDefinitions.OR, pushable, notPushable)))
                .isEmpty();
        assertThat(FlinkFilters.convertAll(List.of(pushable, notPushable))).hasSize(1);
    }

    @Test
    void literalsOfEveryTypeBindToTheirColumns() {
        LocalDate day = LocalDate.of(2024, 2, 29);
        LocalDateTime ts = LocalDateTime.of(2024, 2, 29, 12, 30, 15, 123_456_000);
        Instant instant = Instant.parse("2024-02-29T12:30:15.123456Z");
        assertBinds(
                call(BuiltInFunctionDefinitions.EQUALS, field("day", DataTypes.DATE()), lit(day)),
                "day",
                (int) day.toEpochDay());
        assertBinds(
                call(
                        BuiltInFunctionDefinitions.EQUALS,
                        field("ts", DataTypes.TIMESTAMP(6)),
                        new ValueLiteralExpression(ts, DataTypes.TIMESTAMP(6).notNull())),
                "ts",
                1709209815123456L);
        assertBinds(
                call(
                        BuiltInFunctionDefinitions.EQUALS,
                        field("tstz", DataTypes.TIMESTAMP_LTZ(6)),
                        new ValueLiteralExpression(instant, DataTypes.TIMESTAMP_LTZ(6).notNull())),
                "tstz",
                1709209815123456L);
        assertBinds(
                call(
                        BuiltInFunctionDefinitions.EQUALS,
                        field("price", DataTypes.DECIMAL(10, 2)),
                        new ValueLiteralExpression(
                                new BigDecimal("12.34"), DataTypes.DECIMAL(10, 2).notNull())),
                "price",
                new BigDecimal("12.34"));
        // A TINYINT literal (a connector table declaring TINYINT over an Iceberg int).
        assertBinds(
                call(
                        BuiltInFunctionDefinitions.EQUALS,
                        field("small", DataTypes.TINYINT()),
                        new ValueLiteralExpression((byte) 7, DataTypes.TINYINT().notNull())),
                "small",
                7);
    }

    private static void assertBinds(ResolvedExpression filter, String column, Object value) {
        Optional<Expression> converted = FlinkFilters.convert(filter);
        assertThat(converted).isPresent();
        Expression bound = Binder.bind(SCHEMA.asStruct(), converted.get(), false);
        Expression expected =
                Binder.bind(SCHEMA.asStruct(), Expressions.equal(column, value), false);
        assertThat(bound.toString()).isEqualTo(expected.toString());
    }

    private static void assertConverts(ResolvedExpression filter, Expression expected) {
        Optional<Expression> converted = FlinkFilters.convert(filter);
        assertThat(converted).as(filter.asSummaryString()).isPresent();
        assertThat(converted.get().toString()).isEqualTo(expected.toString());
    }

    private static FieldReferenceExpression field(String name, DataType type) {
        return new FieldReferenceExpression(name, type, 0, 0);
    }

    private static ValueLiteralExpression lit(Object value) {
        return new ValueLiteralExpression(value);
    }

    private static CallExpression call(
            BuiltInFunctionDefinition function, ResolvedExpression... args) {
        return CallExpression.permanent(function, List.of(args), DataTypes.BOOLEAN());
    }
}
