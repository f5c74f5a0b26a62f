package dev.icebergflink.data.avro;

import dev.icebergflink.data.RowDataConstants;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.avro.AvroSchemaUtil;
import org.apache.iceberg.avro.AvroWithPartnerVisitor;
import org.apache.iceberg.avro.ValueReader;
import org.apache.iceberg.avro.ValueReaders;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.Pair;

/**
 * Builds the tree of {@link ValueReader}s that reads one Avro file schema into Flink rows of the
 * expected Iceberg type. It walks the file schema with the expected type as partner, matched by
 * field id; a null partner marks a part of the file that is not projected, whose readers only skip.
 * The top-level record (the one whose partner is the expected struct itself) is read by a {@link
 * BinaryRowReader} into binary rows; nested records become {@code GenericRowData}.
 */
final class FlinkAvroReadBuilder extends AvroWithPartnerVisitor<Type, ValueReader<?>> {

    private final Types.StructType topLevel;
    private final RowType topLevelRowType;
    private final Map<Integer, ?> idToConstant;

    /**
     * A builder of readers of rows of {@code topLevel} (the very instance the visit starts with),
     * built as binary rows of {@code topLevelRowType}.
     */
    FlinkAvroReadBuilder(
            Types.StructType topLevel, RowType topLevelRowType, Map<Integer, ?> idToConstant) {
        this.topLevel = topLevel;
        this.topLevelRowType = topLevelRowType;
        this.idToConstant = idToConstant;
    }

    @Override
    public ValueReader<?> record(Type partner, Schema record, List<ValueReader<?>> fieldReaders) {
        if (partner == null) {
            return ValueReaders.skipStruct(fieldReaders);
        }
        Types.StructType expected = partner.asStructType();
        if (expected == topLevel) {
            List<Pair<Integer, ValueReader<?>>> readPlan =
                    ValueReaders.buildReadPlan(
                            expected,
                            record,
                            markFileFields(expected, record, fieldReaders),
                            idToConstant,
                            RowDataConstants::convert);
            return new BinaryRowReader(readPlan, topLevelRowType);
        }
        List<Pair<Integer, ValueReader<?>>> readPlan =
                ValueReaders.buildReadPlan(
                        expected, record, fieldReaders, idToConstant, RowDataConstants::convert);
        return FlinkValueReaders.row(readPlan, expected.fields().size());
    }

    private static List<ValueReader<?>> markFileFields(
            Types.StructType expected, Schema record, List<ValueReader<?>> fieldReaders) {
        List<ValueReader<?>> marked = new ArrayList<>(fieldReaders.size());
        ScratchBytes scratch = new ScratchBytes();
        List<Schema.Field> fileFields = record.getFields();
        for (int i = 0; i < fileFields.size(); i++) {
            Schema.Field fileField = fileFields.get(i);
            Types.NestedField expectedField =
                    AvroSchemaUtil.hasFieldId(fileField)
                            ? expected.field(AvroSchemaUtil.getFieldId(fileField))
                            : null;
            marked.add(
                    expectedField == null
                            ? fieldReaders.get(i)
                            : BinaryRowReader.fileField(
                                    fieldReaders.get(i),
                                    fileField.schema(),
                                    expectedField.type(),
                                    scratch));
        }
        return marked;
    }

    @Override
    public ValueReader<?> union(Type partner, Schema union, List<ValueReader<?>> options) {
        return ValueReaders.union(options);
    }

    @Override
    public ValueReader<?> array(Type partner, Schema array, ValueReader<?> elementReader) {
        return FlinkValueReaders.array(elementReader);
    }

    @Override
    public ValueReader<?> arrayMap(
            Type partner, Schema map, ValueReader<?> keyReader, ValueReader<?> valueReader) {
        return FlinkValueReaders.arrayMap(keyReader, valueReader);
    }

    @Override
    public ValueReader<?> map(Type partner, Schema map, ValueReader<?> valueReader) {
        return FlinkValueReaders.map(FlinkValueReaders.strings(), valueReader);
    }

    @Override
    public ValueReader<?> primitive(Type partner, Schema primitive) {
        LogicalType logicalType = primitive.getLogicalType();
        if (logicalType != null) {
            return logicalPrimitive(partner, primitive, logicalType);
        }
        switch (primitive.getType()) {
            case NULL:
                return ValueReaders.nulls();
            case BOOLEAN:
                return ValueReaders.booleans();
            case INT:
                if (partner != null && partner.typeId() == Type.TypeID.LONG) {
                    return ValueReaders.intsAsLongs();
                }
                return ValueReaders.ints();
            case LONG:
                return ValueReaders.longs();
            case FLOAT:
                if (partner != null && partner.typeId() == Type.TypeID.DOUBLE) {
                    return ValueReaders.floatsAsDoubles();
                }
                return ValueReaders.floats();
            case DOUBLE:
                return ValueReaders.doubles();
            case STRING:
                return FlinkValueReaders.strings();
            case FIXED:
                return ValueReaders.fixed(primitive.getFixedSize());
            case BYTES:
                return ValueReaders.bytes();
            default:
                throw new IllegalArgumentException(
                        "Cannot read Avro type " + primitive + " into Flink rows");
        }
    }

    private ValueReader<?> logicalPrimitive(
            Type partner, Schema primitive, LogicalType logicalType) {
        switch (logicalType.getName()) {
            case "date":
                return ValueReaders.ints();
            case "time-micros":
                return FlinkValueReaders.timeMicrosAsMillis();
            case "timestamp-millis":
            case "local-timestamp-millis":
                return FlinkValueReaders.timestampMillis();
            case "timestamp-micros":
            case "local-timestamp-micros":
                return FlinkValueReaders.timestampMicros();
            case "timestamp-nanos":
            case "local-timestamp-nanos":
                return FlinkValueReaders.timestampNanos();
            case "uuid":
                return ValueReaders.fixed(16);
            case "decimal":
                return decimal(partner, primitive, (LogicalTypes.Decimal) logicalType);
            default:
                throw new IllegalArgumentException(
                        "Cannot read Avro logical type "
                                + logicalType.getName()
                                + " of "
                                + primitive
                                + " into Flink rows");
        }
    }

    private static ValueReader<?> decimal(
            Type partner, Schema primitive, LogicalTypes.Decimal fileDecimal) {
        // the expected precision may be wider than the file's (decimal precision promotion)
        int precision =
                partner instanceof Types.DecimalType
                        ? ((Types.DecimalType) partner).precision()
                        : fileDecimal.getPrecision();
        int fixedSize = primitive.getType() == Schema.Type.FIXED ? primitive.getFixedSize() : 0;
        return FlinkValueReaders.decimal(fixedSize, precision, fileDecimal.getScale());
    }
}
