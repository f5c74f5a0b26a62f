package dev.icebergflink.table.source;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;

/**
 * Converts Flink filter expressions (as the planner hands them to {@code SupportsFilterPushDown})
 * into Iceberg {@link Expression}s that prune manifests and files and act as per-file residuals.
 *
 * <p>It exists to keep the translation rules in one small, unit-tested place. Pushed: {@code =},
 * {@code <>}, {@code <}, {@code <=}, {@code >}, {@code >=} between a column and a literal (either
 * side), {@code IN} of literals, {@code IS [NOT] NULL}, {@code AND}, {@code OR}, {@code NOT}, a
 * bare boolean column, and {@code LIKE 'prefix%'} (as starts-with; a pattern without wildcards as
 * equality). Comparisons with NaN become {@code isNaN}/{@code notNaN} for {@code =}/{@code <>} and
 * are not pushed otherwise; comparisons with {@code NULL} are not pushed. Anything else (functions,
 * casts, other {@code LIKE} patterns, column-to-column comparisons) is not converted, and a
 * composite is converted only when all of its parts are. Flink still evaluates every filter itself,
 * so a converted filter only has to keep every matching row, which these rules do.
 *
 * <p>Literal values become Iceberg's own representations: integers, longs, floats, doubles,
 * strings, {@link ByteBuffer}s, {@link BigDecimal}s, dates as epoch days, times and timestamps in
 * ISO text (Iceberg converts them to the column's unit when binding).
 */
@Internal
public final class FlinkFilters {

    private FlinkFilters() {}

    /** The Iceberg form of {@code filter}, or empty when it cannot be pushed. */
    public static Optional<Expression> convert(ResolvedExpression filter) {
        if (filter instanceof FieldReferenceExpression field) {
            return isBoolean(field.getOutputDataType().getLogicalType())
                    ? Optional.of(Expressions.equal(field.getName(), true))
                    : Optional.empty();
        }
        if (!(filter instanceof CallExpression call)) {
            return Optional.empty();
        }
        FunctionDefinition function = call.getFunctionDefinition();
        List<ResolvedExpression> args = call.getResolvedChildren();
        if (function == BuiltInFunctionDefinitions.AND) {
            return combine(args, true);
        } else if (function == BuiltInFunctionDefinitions.OR) {
            return combine(args, false);
        } else if (function == BuiltInFunctionDefinitions.NOT) {
            return args.size() == 1 ? convert(args.get(0)).map(Expressions::not) : Optional.empty();
        } else if (function == BuiltInFunctionDefinitions.IS_NULL) {
            return column(args, 0).map(Expressions::isNull);
        } else if (function == BuiltInFunctionDefinitions.IS_NOT_NULL) {
            return column(args, 0).map(Expressions::notNull);
        } else if (function == BuiltInFunctionDefinitions.IN) {
            return in(args);
        } else if (function == BuiltInFunctionDefinitions.LIKE) {
            return like(args);
        }
        Comparison comparison = Comparison.of(function);
        return comparison == null || args.size() != 2
                ? Optional.empty()
                : compare(comparison, args.get(0), args.get(1));
    }

    /** The Iceberg forms of the filters that can be pushed, in order. */
    public static List<Expression> convertAll(List<ResolvedExpression> filters) {
        List<Expression> converted = new ArrayList<>();
        for (ResolvedExpression filter : filters) {
            convert(filter).ifPresent(converted::add);
        }
        return converted;
    }

    private enum Comparison {
        EQ,
        NOT_EQ,
        LT,
        LT_EQ,
        GT,
        GT_EQ;

        static Comparison of(FunctionDefinition function) {
            if (function == BuiltInFunctionDefinitions.EQUALS) {
                return EQ;
            } else if (function == BuiltInFunctionDefinitions.NOT_EQUALS) {
                return NOT_EQ;
            } else if (function == BuiltInFunctionDefinitions.LESS_THAN) {
                return LT;
            } else if (function == BuiltInFunctionDefinitions.LESS_THAN_OR_EQUAL) {
                return LT_EQ;
            } else if (function == BuiltInFunctionDefinitions.GREATER_THAN) {
                return GT;
            } else if (function == BuiltInFunctionDefinitions.GREATER_THAN_OR_EQUAL) {
                return GT_EQ;
            }
            return null;
        }

        /** The comparison with its operands swapped: {@code 5 < x} is {@code x > 5}. */
        Comparison mirrored() {
            return switch (this) {
                case LT -> GT;
                case LT_EQ -> GT_EQ;
                case GT -> LT;
                case GT_EQ -> LT_EQ;
                default -> this;
            };
        }
    }

    private static Optional<Expression> combine(List<ResolvedExpression> args, boolean and) {
        if (args.isEmpty()) {
            return Optional.empty();
        }
        Expression result = null;
        for (ResolvedExpression arg : args) {
            Optional<Expression> converted = convert(arg);
            if (converted.isEmpty()) {
                return Optional.empty();
            }
            result =
                    result == null
                            ? converted.get()
                            : and
                                    ? Expressions.and(result, converted.get())
                                    : Expressions.or(result, converted.get());
        }
        return Optional.of(result);
    }

    private static Optional<Expression> compare(
            Comparison comparison, ResolvedExpression left, ResolvedExpression right) {
        if (left instanceof FieldReferenceExpression field
                && right instanceof ValueLiteralExpression literal) {
            return compare(comparison, field.getName(), literal);
        }
        if (left instanceof ValueLiteralExpression literal
                && right instanceof FieldReferenceExpression field) {
            return compare(comparison.mirrored(), field.getName(), literal);
        }
        return Optional.empty();
    }

    private static Optional<Expression> compare(
            Comparison comparison, String column, ValueLiteralExpression literal) {
        Optional<Object> value = value(literal);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        Object v = value.get();
        if (isNaN(v)) {
            return switch (comparison) {
                case EQ -> Optional.of(Expressions.isNaN(column));
                case NOT_EQ -> Optional.of(Expressions.notNaN(column));
                default -> Optional.empty();
            };
        }
        return Optional.of(
                switch (comparison) {
                    case EQ -> Expressions.equal(column, v);
                    case NOT_EQ -> Expressions.notEqual(column, v);
                    case LT -> Expressions.lessThan(column, v);
                    case LT_EQ -> Expressions.lessThanOrEqual(column, v);
                    case GT -> Expressions.greaterThan(column, v);
                    case GT_EQ -> Expressions.greaterThanOrEqual(column, v);
                });
    }

    private static Optional<Expression> in(List<ResolvedExpression> args) {
        if (args.size() < 2 || !(args.get(0) instanceof FieldReferenceExpression field)) {
            return Optional.empty();
        }
        List<Object> values = new ArrayList<>();
        for (ResolvedExpression arg : args.subList(1, args.size())) {
            if (!(arg instanceof ValueLiteralExpression literal)) {
                return Optional.empty();
            }
            Optional<Object> value = value(literal);
            if (value.isEmpty() || isNaN(value.get())) {
                return Optional.empty();
            }
            values.add(value.get());
        }
        return Optional.of(Expressions.in(field.getName(), values));
    }

    private static Optional<Expression> like(List<ResolvedExpression> args) {
        if (args.size() != 2
                || !(args.get(0) instanceof FieldReferenceExpression field)
                || !(args.get(1) instanceof ValueLiteralExpression literal)
                || !isCharacterString(literal.getOutputDataType().getLogicalType())) {
            return Optional.empty();
        }
        Optional<String> pattern = literal.getValueAs(String.class);
        if (pattern.isEmpty() || pattern.get().indexOf('\\') >= 0) {
            return Optional.empty();
        }
        String text = pattern.get();
        boolean trailingPercent = text.endsWith("%");
        String prefix = trailingPercent ? text.substring(0, text.length() - 1) : text;
        if (prefix.indexOf('%') >= 0 || prefix.indexOf('_') >= 0) {
            return Optional.empty();
        }
        if (!trailingPercent) {
            return Optional.of(Expressions.equal(field.getName(), prefix));
        }
        return prefix.isEmpty()
                ? Optional.empty()
                : Optional.of(Expressions.startsWith(field.getName(), prefix));
    }

    private static Optional<String> column(List<ResolvedExpression> args, int index) {
        return args.size() > index && args.get(index) instanceof FieldReferenceExpression field
                ? Optional.of(field.getName())
                : Optional.empty();
    }

    /** The Iceberg value of a literal, or empty for NULL and unsupported types. */
    static Optional<Object> value(ValueLiteralExpression literal) {
        if (literal.isNull()) {
            return Optional.empty();
        }
        LogicalType type = literal.getOutputDataType().getLogicalType();
        LogicalTypeRoot root = type.getTypeRoot();
        switch (root) {
            case BOOLEAN:
                return literal.getValueAs(Boolean.class).map(v -> v);
            case TINYINT:
            case SMALLINT:
            case INTEGER:
                return literal.getValueAs(Number.class).map(Number::intValue);
            case BIGINT:
                return literal.getValueAs(Long.class).map(v -> v);
            case FLOAT:
                return literal.getValueAs(Float.class).map(v -> v);
            case DOUBLE:
                return literal.getValueAs(Double.class).map(v -> v);
            case CHAR:
            case VARCHAR:
                return literal.getValueAs(String.class).map(v -> v);
            case BINARY:
            case VARBINARY:
                return literal.getValueAs(byte[].class).map(ByteBuffer::wrap);
            case DECIMAL:
                return literal.getValueAs(BigDecimal.class).map(v -> v);
            case DATE:
                return literal.getValueAs(LocalDate.class).map(d -> (int) d.toEpochDay());
            case TIME_WITHOUT_TIME_ZONE:
                return literal.getValueAs(LocalTime.class).map(LocalTime::toString);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return literal.getValueAs(LocalDateTime.class).map(LocalDateTime::toString);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return literal.getValueAs(Instant.class)
                        .map(instant -> instant.atOffset(ZoneOffset.UTC).toString());
            default:
                return Optional.empty();
        }
    }

    private static boolean isNaN(Object value) {
        return (value instanceof Double d && d.isNaN()) || (value instanceof Float f && f.isNaN());
    }

    private static boolean isBoolean(LogicalType type) {
        return type.getTypeRoot() == LogicalTypeRoot.BOOLEAN;
    }

    private static boolean isCharacterString(LogicalType type) {
        return type.getTypeRoot() == LogicalTypeRoot.CHAR
                || type.getTypeRoot() == LogicalTypeRoot.VARCHAR;
    }
}
