package dev.icebergflink.table.source;

import dev.icebergflink.FlinkSchemaUtil;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;

/**
 * Matches the columns a SQL table declares with the Iceberg columns behind them and decides how
 * each value is converted (see {@link DeclaredRowDataConverter}).
 *
 * <p>It exists because a {@code 'connector'='iceberg'} table may declare types other than the ones
 * {@code FlinkSchemaUtil} derives from the Iceberg schema (for example {@code TINYINT} over an
 * Iceberg {@code int}, {@code TIMESTAMP(3)} over a {@code timestamp} for a rowtime attribute, or
 * {@code VARCHAR(10)} over a {@code string}). Accepted differences, per top-level column:
 *
 * <ul>
 *   <li>nullability, anywhere;
 *   <li>{@code TINYINT} / {@code SMALLINT} over {@code int} (range-checked while reading), {@code
 *       BIGINT} over {@code int}, {@code DOUBLE} over {@code float};
 *   <li>any {@code CHAR}/{@code VARCHAR} over {@code string}, any {@code BINARY}/{@code VARBINARY}
 *       over {@code binary}/{@code fixed}/{@code uuid}, and another precision of {@code TIME},
 *       {@code TIMESTAMP} or {@code TIMESTAMP_LTZ} (values are kept; Flink's serializers round to
 *       the declared precision);
 *   <li>{@code MULTISET<T>} over {@code map<T, int>}, which is how the sink stores a multiset (each
 *       element with its count); the map is read back as the multiset.
 * </ul>
 *
 * Everything else, and a declared column the Iceberg table does not have, fails with a {@link
 * ValidationException} naming the column and both types.
 */
@Internal
public final class DeclaredTypes {

    /** How one column's value is converted from its Iceberg-side Flink type. */
    public enum Conversion {
        /** Same representation. */
        NONE,
        /** int to byte, range-checked. */
        INT_TO_TINYINT,
        /** int to short, range-checked. */
        INT_TO_SMALLINT,
        /** int to long. */
        INT_TO_BIGINT,
        /** float to double. */
        FLOAT_TO_DOUBLE,
        /**
         * The same TIMESTAMP/TIMESTAMP_LTZ value, but the declared precision lays it out
         * differently in a binary row (up to 3 digits: the milliseconds in the field itself; more:
         * milliseconds and nanoseconds apart), which is what readers produce: the row is rebuilt.
         */
        TIMESTAMP_LAYOUT
    }

    private DeclaredTypes() {}

    /**
     * The Iceberg-side Flink type of each declared column, in declared order.
     *
     * @throws ValidationException naming a declared column the Iceberg table lacks, or one whose
     *     declared type cannot be read from the Iceberg type
     */
    public static RowType icebergSideType(
            String tableName, RowType declared, Schema schema, boolean caseSensitive) {
        List<RowType.RowField> fields = new ArrayList<>();
        for (RowType.RowField field : declared.getFields()) {
            Types.NestedField column =
                    icebergColumn(tableName, schema, field.getName(), caseSensitive);
            LogicalType actual = FlinkSchemaUtil.convert(column.type());
            conversion(tableName, field.getName(), field.getType(), actual);
            fields.add(new RowType.RowField(field.getName(), actual));
        }
        return new RowType(fields);
    }

    /**
     * The top-level Iceberg column a declared column reads. A column of exactly that name wins,
     * whatever {@code caseSensitive} says: Flink resolves names exactly, and a table may hold
     * columns whose names differ only by case ({@code Name} and {@code name}). Only when no name
     * matches exactly and {@code caseSensitive} is false is the one column matching ignoring case
     * taken (a connector table may declare {@code NAME} for the Iceberg column {@code name}).
     *
     * @throws ValidationException naming the column when the table has no such column, or several
     *     that match it ignoring case
     */
    public static Types.NestedField icebergColumn(
            String tableName, Schema schema, String name, boolean caseSensitive) {
        Types.NestedField exact = schema.asStruct().field(name);
        if (exact != null) {
            return exact;
        }
        List<Types.NestedField> matches = new ArrayList<>();
        if (!caseSensitive) {
            for (Types.NestedField column : schema.columns()) {
                if (column.name().equalsIgnoreCase(name)) {
                    matches.add(column);
                }
            }
        }
        if (matches.size() == 1) {
            return matches.get(0);
        }
        List<String> columns = schema.columns().stream().map(Types.NestedField::name).toList();
        if (matches.isEmpty()) {
            throw new ValidationException(
                    String.format(
                            "Table %s declares column '%s', which the Iceberg table does not"
                                    + " have; its columns are %s",
                            tableName, name, columns));
        }
        throw new ValidationException(
                String.format(
                        "Table %s declares column '%s', which matches several Iceberg columns"
                                + " when case is ignored (%s); declare the column with the exact"
                                + " name of one of them",
                        tableName, name, matches.stream().map(Types.NestedField::name).toList()));
    }

    /**
     * How values of {@code actual} become values of {@code declared}.
     *
     * @throws ValidationException when they cannot
     */
    public static Conversion conversion(
            String tableName, String column, LogicalType declared, LogicalType actual) {
        Conversion conversion = conversionOrNull(declared, actual);
        if (conversion == null) {
            throw new ValidationException(
                    String.format(
                            "Table %s declares column '%s' as %s, but the Iceberg column is %s,"
                                    + " which cannot be read as %s. Declare it as %s (or a type"
                                    + " that holds every value: TINYINT/SMALLINT/BIGINT over INT,"
                                    + " DOUBLE over FLOAT, CHAR/VARCHAR over STRING, another"
                                    + " precision of TIME/TIMESTAMP/TIMESTAMP_LTZ, MULTISET<T>"
                                    + " over MAP<T, INT>).",
                            tableName,
                            column,
                            declared.asSummaryString(),
                            actual.asSummaryString(),
                            declared.asSummaryString(),
                            actual.copy(declared.isNullable()).asSummaryString()));
        }
        return conversion;
    }

    private static Conversion conversionOrNull(LogicalType declared, LogicalType actual) {
        if (nullable(declared).equals(nullable(actual))) {
            return Conversion.NONE;
        }
        LogicalTypeRoot to = declared.getTypeRoot();
        LogicalTypeRoot from = actual.getTypeRoot();
        if (to == LogicalTypeRoot.MULTISET && from == LogicalTypeRoot.MAP) {
            return isMultisetMap((MultisetType) declared, (MapType) actual)
                    ? Conversion.NONE
                    : null;
        }
        if (from == LogicalTypeRoot.INTEGER) {
            switch (to) {
                case TINYINT:
                    return Conversion.INT_TO_TINYINT;
                case SMALLINT:
                    return Conversion.INT_TO_SMALLINT;
                case BIGINT:
                    return Conversion.INT_TO_BIGINT;
                default:
                    return null;
            }
        }
        if (from == LogicalTypeRoot.FLOAT && to == LogicalTypeRoot.DOUBLE) {
            return Conversion.FLOAT_TO_DOUBLE;
        }
        if (from == to
                && (to == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                        || to == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE)
                && TimestampData.isCompact(LogicalTypeChecks.getPrecision(declared))
                        != TimestampData.isCompact(LogicalTypeChecks.getPrecision(actual))) {
            return Conversion.TIMESTAMP_LAYOUT;
        }
        boolean sameFamily =
                (isCharacter(from) && isCharacter(to))
                        || (isBinary(from) && isBinary(to))
                        || (from == to
                                && (to == LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE
                                        || to == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                                        || to == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE));
        return sameFamily ? Conversion.NONE : null;
    }

    /**
     * Whether {@code map} is what a MULTISET of {@code multiset}'s elements is stored as: an
     * Iceberg {@code map<T, int>} of element to count, with elements that need no conversion
     * (another length of {@code VARCHAR} is fine). Flink holds a MULTISET as that very map ({@code
     * MapData} of element to {@code Integer} count), so the values pass unchanged.
     */
    private static boolean isMultisetMap(MultisetType multiset, MapType map) {
        return map.getValueType().getTypeRoot() == LogicalTypeRoot.INTEGER
                && conversionOrNull(multiset.getElementType(), map.getKeyType()) == Conversion.NONE;
    }

    private static boolean isCharacter(LogicalTypeRoot root) {
        return root == LogicalTypeRoot.CHAR || root == LogicalTypeRoot.VARCHAR;
    }

    private static boolean isBinary(LogicalTypeRoot root) {
        return root == LogicalTypeRoot.BINARY || root == LogicalTypeRoot.VARBINARY;
    }

    /** The type with every level nullable, for comparisons that ignore nullability. */
    static LogicalType nullable(LogicalType type) {
        if (type instanceof RowType row) {
            List<RowType.RowField> fields = new ArrayList<>();
            for (RowType.RowField field : row.getFields()) {
                fields.add(new RowType.RowField(field.getName(), nullable(field.getType())));
            }
            return new RowType(true, fields);
        } else if (type instanceof ArrayType array) {
            return new ArrayType(true, nullable(array.getElementType()));
        } else if (type instanceof MapType map) {
            return new MapType(true, nullable(map.getKeyType()), nullable(map.getValueType()));
        } else if (type instanceof MultisetType multiset) {
            return new MultisetType(true, nullable(multiset.getElementType()));
        }
        return type.copy(true);
    }
}
