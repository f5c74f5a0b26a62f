package dev.icebergflink.data.parquet;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.iceberg.expressions.And;
import org.apache.iceberg.expressions.BoundPredicate;
import org.apache.iceberg.expressions.BoundReference;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Or;
import org.apache.iceberg.types.Type;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Converts a bound Iceberg filter into a Parquet filter predicate on the page index: the predicate
 * Parquet's {@code ColumnIndexFilter} turns into the row ranges of a row group that may match.
 *
 * <p>It exists because Iceberg keeps its own conversion private, and because the page index must
 * never rule out a row the final filter keeps. So the predicates follow Iceberg's {@code
 * Evaluator}, which compares with nulls first: a null value matches {@code <}, {@code <=}, {@code
 * !=} and {@code NOT IN}, and those predicates become "the comparison or null". Only top-level
 * columns of the file whose values compare in Parquet as they do in Iceberg are converted: int and
 * date on INT32, long on INT64, timestamps in the unit of their Iceberg type, and strings on
 * BINARY. A predicate on anything else (floating point, whose NaN Iceberg orders last, promoted
 * columns, nested fields, transforms) may match every row: it is dropped from an AND, and makes the
 * whole OR it sits in match everything. The filter must have its NOTs pushed down to the
 * predicates.
 */
final class ParquetPageFilters {

    /** The most values of an {@code IN} list turned into equalities on the page index. */
    static final int MAX_IN_VALUES = 64;

    private ParquetPageFilters() {}

    /**
     * The page index predicate for {@code bound} over the file columns {@code columns} of the
     * top-level fields with Iceberg types {@code types} (both by field id), or null when any row
     * may match.
     */
    static FilterPredicate convert(
            Expression bound, Map<Integer, ColumnDescriptor> columns, Map<Integer, Type> types) {
        return new Converter(columns, types).convert(bound);
    }

    private static final class Converter {
        private final Map<Integer, ColumnDescriptor> columns;
        private final Map<Integer, Type> types;

        private Converter(Map<Integer, ColumnDescriptor> columns, Map<Integer, Type> types) {
            this.columns = columns;
            this.types = types;
        }

        private FilterPredicate convert(Expression expr) {
            switch (expr.op()) {
                case AND:
                    {
                        And and = (And) expr;
                        FilterPredicate left = convert(and.left());
                        FilterPredicate right = convert(and.right());
                        if (left == null) {
                            return right;
                        }
                        return right == null ? left : FilterApi.and(left, right);
                    }
                case OR:
                    {
                        Or or = (Or) expr;
                        FilterPredicate left = convert(or.left());
                        FilterPredicate right = left == null ? null : convert(or.right());
                        return right == null ? null : FilterApi.or(left, right);
                    }
                default:
                    return expr instanceof BoundPredicate<?> predicate
                            ? predicate(predicate)
                            : null;
            }
        }

        private FilterPredicate predicate(BoundPredicate<?> predicate) {
            if (!(predicate.term() instanceof BoundReference<?> ref)) {
                return null;
            }
            ColumnDescriptor desc = columns.get(ref.fieldId());
            Type type = types.get(ref.fieldId());
            if (desc == null || type == null || desc.getPath().length != 1) {
                return null;
            }
            String path = desc.getPath()[0];
            if (path.contains(".")) {
                return null; // Parquet's column factories split names at dots
            }
            PrimitiveTypeName physical = desc.getPrimitiveType().getPrimitiveTypeName();
            switch (type.typeId()) {
                case INTEGER:
                case DATE:
                    return physical == PrimitiveTypeName.INT32
                            ? compare(FilterApi.intColumn(path), predicate, v -> (Integer) v)
                            : null;
                case LONG:
                    return physical == PrimitiveTypeName.INT64
                            ? compare(FilterApi.longColumn(path), predicate, v -> (Long) v)
                            : null;
                case TIMESTAMP:
                    return timestamps(desc, path, TimeUnit.MICROS, predicate);
                case TIMESTAMP_NANO:
                    return timestamps(desc, path, TimeUnit.NANOS, predicate);
                case STRING:
                    return physical == PrimitiveTypeName.BINARY
                            ? compare(
                                    FilterApi.binaryColumn(path),
                                    predicate,
                                    v -> Binary.fromString(v.toString()))
                            : null;
                default:
                    return null;
            }
        }

        private static FilterPredicate timestamps(
                ColumnDescriptor desc, String path, TimeUnit unit, BoundPredicate<?> predicate) {
            boolean sameUnit =
                    desc.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.INT64
                            && desc.getPrimitiveType().getLogicalTypeAnnotation()
                                    instanceof
                                    LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ts
                            && ts.getUnit() == unit;
            return sameUnit ? compare(FilterApi.longColumn(path), predicate, v -> (Long) v) : null;
        }

        private static <
                        T extends Comparable<T>,
                        C extends Operators.Column<T> & Operators.SupportsLtGt>
                FilterPredicate compare(
                        C column, BoundPredicate<?> predicate, Function<Object, T> value) {
            if (predicate.isUnaryPredicate()) {
                switch (predicate.op()) {
                    case IS_NULL:
                        return FilterApi.eq(column, null);
                    case NOT_NULL:
                        return FilterApi.notEq(column, null);
                    default:
                        return null;
                }
            }
            if (predicate.isSetPredicate()) {
                Set<T> values = new HashSet<>();
                for (Object literal : predicate.asSetPredicate().literalSet()) {
                    values.add(value.apply(literal));
                }
                if (values.isEmpty()) {
                    return null;
                }
                switch (predicate.op()) {
                    case IN:
                        return anyOf(column, values);
                    case NOT_IN:
                        return orNull(column, FilterApi.notIn(column, values));
                    default:
                        return null;
                }
            }
            if (!predicate.isLiteralPredicate()) {
                return null;
            }
            T literal = value.apply(predicate.asLiteralPredicate().literal().value());
            switch (predicate.op()) {
                case LT:
                    return orNull(column, FilterApi.lt(column, literal));
                case LT_EQ:
                    return orNull(column, FilterApi.ltEq(column, literal));
                case GT:
                    return FilterApi.gt(column, literal);
                case GT_EQ:
                    return FilterApi.gtEq(column, literal);
                case EQ:
                    return FilterApi.eq(column, literal);
                case NOT_EQ:
                    return orNull(column, FilterApi.notEq(column, literal));
                default:
                    return null;
            }
        }

        /**
         * {@code IN} as an OR of equalities: Parquet's column index judges {@code in} predicates
         * only on nulls. Long lists are left unconverted (any row may match).
         */
        private static <
                        T extends Comparable<T>,
                        C extends Operators.Column<T> & Operators.SupportsEqNotEq>
                FilterPredicate anyOf(C column, Set<T> values) {
            if (values.size() > MAX_IN_VALUES) {
                return null;
            }
            FilterPredicate any = null;
            for (T value : values) {
                FilterPredicate eq = FilterApi.eq(column, value);
                any = any == null ? eq : FilterApi.or(any, eq);
            }
            return any;
        }

        /** {@code predicate} or the column is null: Iceberg's evaluator orders nulls first. */
        private static <
                        T extends Comparable<T>,
                        C extends Operators.Column<T> & Operators.SupportsEqNotEq>
                FilterPredicate orNull(C column, FilterPredicate predicate) {
            return FilterApi.or(predicate, FilterApi.eq(column, null));
        }
    }
}
