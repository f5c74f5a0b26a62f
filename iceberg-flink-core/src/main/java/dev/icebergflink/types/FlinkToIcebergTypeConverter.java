package dev.icebergflink.types;

import dev.icebergflink.compat.FlinkVariants;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Converts Flink logical types into Iceberg types.
 *
 * <p>Field ids are drawn from the given supplier in the order fields are met; callers normally
 * reassign them afterwards with Iceberg's {@code TypeUtil.assignFreshIds} so that ids follow
 * Iceberg's own numbering. Types Iceberg cannot store fail with an {@link UnsupportedTypeException}
 * that names the column path and the Flink type.
 */
@Internal
public final class FlinkToIcebergTypeConverter {

    /** Largest timestamp precision that Iceberg's microsecond {@code timestamp} type holds. */
    private static final int MICROS_PRECISION = 6;

    private final IntSupplier nextId;

    public FlinkToIcebergTypeConverter(IntSupplier nextId) {
        this.nextId = nextId;
    }

    /** Converts the fields of a row type into Iceberg struct fields. */
    public Types.StructType convertRow(RowType rowType) {
        return convertRow(rowType, "");
    }

    /**
     * Converts one Flink type; {@code path} names the column in error messages (e.g. {@code
     * address.zip}).
     */
    public Type convert(LogicalType type, String path) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return Types.BooleanType.get();
            case TINYINT:
            case SMALLINT:
            case INTEGER:
                return Types.IntegerType.get();
            case BIGINT:
                return Types.LongType.get();
            case FLOAT:
                return Types.FloatType.get();
            case DOUBLE:
                return Types.DoubleType.get();
            case CHAR:
            case VARCHAR:
                return Types.StringType.get();
            case BINARY:
                return Types.FixedType.ofLength(((BinaryType) type).getLength());
            case VARBINARY:
                return Types.BinaryType.get();
            case DECIMAL:
                DecimalType decimal = (DecimalType) type;
                return Types.DecimalType.of(decimal.getPrecision(), decimal.getScale());
            case DATE:
                return Types.DateType.get();
            case TIME_WITHOUT_TIME_ZONE:
                return Types.TimeType.get();
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return ((TimestampType) type).getPrecision() <= MICROS_PRECISION
                        ? Types.TimestampType.withoutZone()
                        : Types.TimestampNanoType.withoutZone();
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return ((LocalZonedTimestampType) type).getPrecision() <= MICROS_PRECISION
                        ? Types.TimestampType.withZone()
                        : Types.TimestampNanoType.withZone();
            case ARRAY:
                return convertArray((ArrayType) type, path);
            case MAP:
                MapType map = (MapType) type;
                return convertMap(map.getKeyType(), map.getValueType(), path);
            case MULTISET:
                return convertMultiset((MultisetType) type, path);
            case ROW:
                return convertRow((RowType) type, path);
            default:
                // VARIANT (Flink 2.1 or later) has no constant of LogicalTypeRoot on Flink 1.20
                if (FlinkVariants.isVariant(type)) {
                    return Types.VariantType.get();
                }
                throw UnsupportedTypeException.forFlinkType(path, type);
        }
    }

    private Types.StructType convertRow(RowType rowType, String path) {
        List<Types.NestedField> fields = new ArrayList<>(rowType.getFieldCount());
        for (RowType.RowField field : rowType.getFields()) {
            int id = nextId.getAsInt();
            String fieldPath = ColumnPaths.child(path, field.getName());
            Type fieldType = convert(field.getType(), fieldPath);
            fields.add(
                    Types.NestedField.builder()
                            .withId(id)
                            .withName(field.getName())
                            .isOptional(field.getType().isNullable())
                            .ofType(fieldType)
                            .withDoc(field.getDescription().orElse(null))
                            .build());
        }
        return Types.StructType.of(fields);
    }

    private Type convertArray(ArrayType array, String path) {
        int elementId = nextId.getAsInt();
        Type element = convert(array.getElementType(), ColumnPaths.child(path, "element"));
        return array.getElementType().isNullable()
                ? Types.ListType.ofOptional(elementId, element)
                : Types.ListType.ofRequired(elementId, element);
    }

    private Type convertMap(LogicalType keyType, LogicalType valueType, String path) {
        int keyId = nextId.getAsInt();
        int valueId = nextId.getAsInt();
        // Iceberg map keys are always required; a nullable Flink key type is accepted, and a null
        // key is rejected by the writers when it is actually met.
        Type key = convert(keyType, ColumnPaths.child(path, "key"));
        Type value = convert(valueType, ColumnPaths.child(path, "value"));
        return valueType.isNullable()
                ? Types.MapType.ofOptional(keyId, valueId, key, value)
                : Types.MapType.ofRequired(keyId, valueId, key, value);
    }

    private Type convertMultiset(MultisetType multiset, String path) {
        int keyId = nextId.getAsInt();
        int valueId = nextId.getAsInt();
        Type element = convert(multiset.getElementType(), ColumnPaths.child(path, "key"));
        // A multiset is a map from element to its (always present) count.
        return Types.MapType.ofRequired(keyId, valueId, element, Types.IntegerType.get());
    }
}
