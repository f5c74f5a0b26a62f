package dev.icebergflink.types;

import dev.icebergflink.compat.FlinkVariants;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Converts Iceberg types into the Flink logical types that this connector's readers produce and
 * writers accept.
 *
 * <p>Notable choices: Iceberg {@code time} becomes {@code TIME(3)}, the finest precision Flink's
 * runtime holds (milliseconds); {@code uuid} becomes {@code BINARY(16)}; {@code timestamp_ns}
 * becomes {@code TIMESTAMP(9)}; {@code variant} becomes {@code VARIANT} (Flink 2.1 or later, an
 * error naming the column on Flink 1.20); {@code unknown} becomes a nullable {@code STRING} that
 * always reads NULL ({@link #unknownType()}).
 */
@Internal
public final class IcebergToFlinkTypeConverter {

    /** Precision of Flink's TIME values at run time (an int of milliseconds). */
    public static final int TIME_PRECISION = 3;

    private static final int MICROS = 6;
    private static final int NANOS = 9;
    private static final int UUID_LENGTH = 16;

    private IcebergToFlinkTypeConverter() {}

    /** Converts a struct into a Flink row type, keeping names, nullability and docs. */
    public static RowType convertStruct(Types.StructType struct) {
        return convertStruct(struct, "");
    }

    /** Converts one Iceberg type; {@code path} names the column in error messages. */
    public static LogicalType convert(Type type, String path) {
        switch (type.typeId()) {
            case BOOLEAN:
                return new BooleanType();
            case INTEGER:
                return new IntType();
            case LONG:
                return new BigIntType();
            case FLOAT:
                return new FloatType();
            case DOUBLE:
                return new DoubleType();
            case DATE:
                return new DateType();
            case TIME:
                return new TimeType(TIME_PRECISION);
            case TIMESTAMP:
                return ((Types.TimestampType) type).shouldAdjustToUTC()
                        ? new LocalZonedTimestampType(MICROS)
                        : new TimestampType(MICROS);
            case TIMESTAMP_NANO:
                return ((Types.TimestampNanoType) type).shouldAdjustToUTC()
                        ? new LocalZonedTimestampType(NANOS)
                        : new TimestampType(NANOS);
            case STRING:
                return new VarCharType(VarCharType.MAX_LENGTH);
            case UUID:
                return new BinaryType(UUID_LENGTH);
            case FIXED:
                return new BinaryType(((Types.FixedType) type).length());
            case BINARY:
                return new VarBinaryType(VarBinaryType.MAX_LENGTH);
            case DECIMAL:
                Types.DecimalType decimal = (Types.DecimalType) type;
                return new DecimalType(decimal.precision(), decimal.scale());
            case STRUCT:
                return convertStruct(type.asStructType(), path);
            case LIST:
                Types.ListType list = type.asListType();
                LogicalType element =
                        convert(list.elementType(), ColumnPaths.child(path, "element"))
                                .copy(list.isElementOptional());
                return new ArrayType(element);
            case MAP:
                Types.MapType map = type.asMapType();
                LogicalType key =
                        convert(map.keyType(), ColumnPaths.child(path, "key")).copy(false);
                LogicalType value =
                        convert(map.valueType(), ColumnPaths.child(path, "value"))
                                .copy(map.isValueOptional());
                return new MapType(key, value);
            case VARIANT:
                if (!FlinkVariants.available()) {
                    throw UnsupportedTypeException.variantBeforeFlink21(path);
                }
                return FlinkVariants.variantType(true, path);
            case UNKNOWN:
                return unknownType();
            default:
                throw UnsupportedTypeException.forIcebergType(path, type);
        }
    }

    /**
     * The Flink type of Iceberg's {@code unknown} (format v3): a nullable {@code STRING} that
     * always reads NULL. Flink's own {@code NULL} type would say more, but Flink's runtime has no
     * serializer for it, so a table with such a column could not be read; {@code STRING} lets SQL
     * select, cast and insert ({@code CAST(NULL AS STRING)}) the column. Writers store nothing for
     * it (Iceberg keeps no data of {@code unknown} columns).
     */
    public static LogicalType unknownType() {
        return new VarCharType(true, VarCharType.MAX_LENGTH);
    }

    private static RowType convertStruct(Types.StructType struct, String path) {
        List<RowType.RowField> fields = new ArrayList<>(struct.fields().size());
        for (Types.NestedField field : struct.fields()) {
            LogicalType fieldType =
                    convert(field.type(), ColumnPaths.child(path, field.name()))
                            .copy(field.isOptional());
            fields.add(new RowType.RowField(field.name(), fieldType, field.doc()));
        }
        return new RowType(fields);
    }
}
