package dev.icebergflink.data.parquet;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.expressions.And;
import org.apache.iceberg.expressions.BoundPredicate;
import org.apache.iceberg.expressions.BoundReference;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Or;
import org.apache.iceberg.types.Type;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * A filter evaluated on the decoded values of batched columns, before a row is built: the heart of
 * late materialization. A row that fails it is never built, and its output-only columns are not
 * written.
 *
 * <p>It exists because building a row (every projected column written into a binary row, then the
 * row handed through the reader's iterators) costs far more than comparing one or two decoded
 * values, and a selective filter rejects most rows. It gives exactly the answer of Iceberg's {@code
 * Evaluator} (which still runs on the rows that pass): comparisons order nulls first, so a null
 * value passes {@code <}, {@code <=}, {@code !=} and {@code NOT IN} and fails the others. Only
 * filters whose every predicate is on a batched column of the current row group compile: ints,
 * dates and longs (also an int column promoted to long), timestamps in their Iceberg unit, strings,
 * and null checks on any batched column; {@link #compile} returns null for anything else, and the
 * rows are then built and filtered afterwards as before.
 */
final class ParquetRowFilter {

    private final Node root;

    private ParquetRowFilter(Node root) {
        this.root = root;
    }

    /**
     * The filter {@code bound} (NOTs pushed down) over the batched {@code columns} of the row group
     * with Iceberg types {@code types} (both by field id), or null when some predicate cannot be
     * evaluated on them.
     */
    static ParquetRowFilter compile(
            Expression bound,
            Map<Integer, ParquetBatchedColumn<?>> columns,
            Map<Integer, Type> types) {
        Node root = new Compiler(columns, types).compile(bound);
        return root == null ? null : new ParquetRowFilter(root);
    }

    /** Whether row {@code row} of the row group passes; rows must be asked in increasing order. */
    boolean test(long row) {
        return root.test(row);
    }

    private abstract static class Node {
        abstract boolean test(long row);
    }

    private static final class Compiler {
        private final Map<Integer, ParquetBatchedColumn<?>> columns;
        private final Map<Integer, Type> types;

        private Compiler(Map<Integer, ParquetBatchedColumn<?>> columns, Map<Integer, Type> types) {
            this.columns = columns;
            this.types = types;
        }

        private Node compile(Expression expr) {
            switch (expr.op()) {
                case TRUE:
                    return constant(true);
                case FALSE:
                    return constant(false);
                case AND:
                    {
                        Node left = compile(((And) expr).left());
                        Node right = left == null ? null : compile(((And) expr).right());
                        return right == null ? null : and(left, right);
                    }
                case OR:
                    {
                        Node left = compile(((Or) expr).left());
                        Node right = left == null ? null : compile(((Or) expr).right());
                        return right == null ? null : or(left, right);
                    }
                default:
                    return expr instanceof BoundPredicate<?> predicate
                            ? predicate(predicate)
                            : null;
            }
        }

        private Node predicate(BoundPredicate<?> predicate) {
            if (!(predicate.term() instanceof BoundReference<?> ref)) {
                return null;
            }
            ParquetBatchedColumn<?> column = columns.get(ref.fieldId());
            Type type = types.get(ref.fieldId());
            if (column == null || type == null) {
                return null;
            }
            if (predicate.isUnaryPredicate()) {
                switch (predicate.op()) {
                    case IS_NULL:
                        return isNull(column, true);
                    case NOT_NULL:
                        return isNull(column, false);
                    default:
                        return null;
                }
            }
            if (column instanceof ParquetBatchedColumns.LongValues values
                    && comparesAsLong(type, column.descriptor().getPrimitiveType())) {
                return longs(column, values, predicate);
            }
            if (column instanceof ParquetBatchedColumns.ByteValues values
                    && type.typeId() == Type.TypeID.STRING) {
                return strings(column, values, predicate);
            }
            return null;
        }

        /** Whether the column's integer values are the Iceberg literals' values of {@code type}. */
        private static boolean comparesAsLong(Type type, PrimitiveType file) {
            switch (type.typeId()) {
                case INTEGER:
                case DATE:
                case LONG:
                    return file.getLogicalTypeAnnotation() == null
                            || file.getLogicalTypeAnnotation()
                                    instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation
                            || file.getLogicalTypeAnnotation()
                                    instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation;
                case TIMESTAMP:
                    return unit(file) == TimeUnit.MICROS;
                case TIMESTAMP_NANO:
                    return unit(file) == TimeUnit.NANOS;
                default:
                    return false;
            }
        }

        private static TimeUnit unit(PrimitiveType file) {
            return file.getPrimitiveTypeName() == PrimitiveTypeName.INT64
                            && file.getLogicalTypeAnnotation()
                                    instanceof
                                    LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ts
                    ? ts.getUnit()
                    : null;
        }
    }

    /** What Iceberg's evaluator answers for a null value: comparisons order nulls first. */
    private static boolean nullPasses(org.apache.iceberg.expressions.Expression.Operation op) {
        switch (op) {
            case LT:
            case LT_EQ:
            case NOT_EQ:
            case NOT_IN:
                return true;
            default:
                return false;
        }
    }

    private static Node constant(boolean value) {
        return new Node() {
            @Override
            boolean test(long row) {
                return value;
            }
        };
    }

    private static Node and(Node left, Node right) {
        return new Node() {
            @Override
            boolean test(long row) {
                return left.test(row) && right.test(row);
            }
        };
    }

    private static Node or(Node left, Node right) {
        return new Node() {
            @Override
            boolean test(long row) {
                return left.test(row) || right.test(row);
            }
        };
    }

    private static Node isNull(ParquetBatchedColumn<?> column, boolean wanted) {
        return new Node() {
            @Override
            boolean test(long row) {
                return column.vector.isNullAt(column.indexOf(row)) == wanted;
            }
        };
    }

    private static Node longs(
            ParquetBatchedColumn<?> column,
            ParquetBatchedColumns.LongValues values,
            BoundPredicate<?> predicate) {
        Expression.Operation op = predicate.op();
        boolean nullPasses = nullPasses(op);
        if (predicate.isSetPredicate()) {
            Set<?> literals = predicate.asSetPredicate().literalSet();
            long[] set = new long[literals.size()];
            int i = 0;
            for (Object literal : literals) {
                set[i++] = ((Number) literal).longValue();
            }
            Arrays.sort(set);
            boolean in = op == Expression.Operation.IN;
            if (!in && op != Expression.Operation.NOT_IN) {
                return null;
            }
            return new Node() {
                @Override
                boolean test(long row) {
                    int index = column.indexOf(row);
                    if (column.vector.isNullAt(index)) {
                        return nullPasses;
                    }
                    return (Arrays.binarySearch(set, values.longAt(index)) >= 0) == in;
                }
            };
        }
        if (!predicate.isLiteralPredicate()) {
            return null;
        }
        long literal = ((Number) predicate.asLiteralPredicate().literal().value()).longValue();
        Comparison comparison = Comparison.of(op);
        if (comparison == null) {
            return null;
        }
        return new Node() {
            @Override
            boolean test(long row) {
                int index = column.indexOf(row);
                if (column.vector.isNullAt(index)) {
                    return nullPasses;
                }
                return comparison.holds(Long.compare(values.longAt(index), literal));
            }
        };
    }

    private static Node strings(
            ParquetBatchedColumn<?> column,
            ParquetBatchedColumns.ByteValues values,
            BoundPredicate<?> predicate) {
        Expression.Operation op = predicate.op();
        boolean nullPasses = nullPasses(op);
        if (predicate.isSetPredicate()) {
            boolean in = op == Expression.Operation.IN;
            if (!in && op != Expression.Operation.NOT_IN) {
                return null;
            }
            byte[][] set =
                    predicate.asSetPredicate().literalSet().stream()
                            .map(value -> value.toString().getBytes(StandardCharsets.UTF_8))
                            .toArray(byte[][]::new);
            return new Node() {
                @Override
                boolean test(long row) {
                    int index = column.indexOf(row);
                    if (column.vector.isNullAt(index)) {
                        return nullPasses;
                    }
                    for (byte[] value : set) {
                        if (values.compareAt(index, value) == 0) {
                            return in;
                        }
                    }
                    return !in;
                }
            };
        }
        if (!predicate.isLiteralPredicate()) {
            return null;
        }
        byte[] literal =
                predicate
                        .asLiteralPredicate()
                        .literal()
                        .value()
                        .toString()
                        .getBytes(StandardCharsets.UTF_8);
        Comparison comparison = Comparison.of(op);
        if (comparison == null) {
            return null;
        }
        return new Node() {
            @Override
            boolean test(long row) {
                int index = column.indexOf(row);
                if (column.vector.isNullAt(index)) {
                    return nullPasses;
                }
                return comparison.holds(values.compareAt(index, literal));
            }
        };
    }

    /** A comparison operator applied to the sign of a comparison's result. */
    private enum Comparison {
        LT,
        LT_EQ,
        GT,
        GT_EQ,
        EQ,
        NOT_EQ;

        static Comparison of(Expression.Operation op) {
            switch (op) {
                case LT:
                    return LT;
                case LT_EQ:
                    return LT_EQ;
                case GT:
                    return GT;
                case GT_EQ:
                    return GT_EQ;
                case EQ:
                    return EQ;
                case NOT_EQ:
                    return NOT_EQ;
                default:
                    return null;
            }
        }

        boolean holds(int cmp) {
            switch (this) {
                case LT:
                    return cmp < 0;
                case LT_EQ:
                    return cmp <= 0;
                case GT:
                    return cmp > 0;
                case GT_EQ:
                    return cmp >= 0;
                case EQ:
                    return cmp == 0;
                default:
                    return cmp != 0;
            }
        }
    }
}
