package dev.icebergflink.data.avro;

import dev.icebergflink.data.row.RowDataConstants;
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
 * AvroBinaryRowReader} into binary rows; nested records become {@code GenericRowData}. Primitive
 * values are read by what their expected Iceberg type asks ({@link #primitive}).
 */
final class AvroReaderTreeBuilder extends AvroWithPartnerVisitor<Type, ValueReader<?>> {

    private final Types.StructType topLevel;
    private final RowType topLevelRowType;
    private final Map<Integer, ?> idToConstant;

    /**
     * A builder of readers of rows of {@code topLevel} (the very instance the visit starts with),
     * built as binary rows of {@code topLevelRowType}.
     */
    AvroReaderTreeBuilder(
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
            return new AvroBinaryRowReader(readPlan, topLevelRowType);
        }
        List<Pair<Integer, ValueReader<?>>> readPlan =
                ValueReaders.buildReadPlan(
                        expected, record, fieldReaders, idToConstant, RowDataConstants::convert);
        return AvroFieldReaders.row(readPlan, expected.fields().size());
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
                            : AvroBinaryRowReader.fileField(
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
        return AvroFieldReaders.array(elementReader);
    }

    @Override
    public ValueReader<?> arrayMap(
            Type partner, Schema map, ValueReader<?> keyReader, ValueReader<?> valueReader) {
        return AvroFieldReaders.arrayMap(keyReader, valueReader);
    }

    @Override
    public ValueReader<?> map(Type partner, Schema map, ValueReader<?> valueReader) {
        return AvroFieldReaders.map(AvroFieldReaders.strings(), valueReader);
    }

    @Override
    public ValueReader<?> variant(
            Type partner, ValueReader<?> metadataReader, ValueReader<?> valueReader) {
        // the metadata and value readers only skip (no partner); Iceberg's variant reader reads
        // both
        return partner == null ? ValueReaders.variants() : AvroVariantValues.reader();
    }

    /**
     * The reader of one primitive value. A projected value is read as its expected Iceberg type
     * asks (the same dispatch as the Parquet and ORC readers), looking at the file's Avro schema
     * only where one Iceberg type has several Avro encodings: an int column promoted to long, a
     * float promoted to double, the unit of a timestamp, a decimal in bytes or in a fixed. A value
     * that is not projected is only skipped, by its Avro encoding.
     */
    @Override
    public ValueReader<?> primitive(Type partner, Schema primitive) {
        Schema.Type encoding = primitive.getType();
        if (partner == null || encoding == Schema.Type.NULL) {
            return skipping(primitive);
        }
        switch (partner.typeId()) {
            case BOOLEAN:
                return ValueReaders.booleans();
            case INTEGER:
            case DATE:
                return ValueReaders.ints();
            case LONG:
                return encoding == Schema.Type.INT
                        ? ValueReaders.intsAsLongs()
                        : ValueReaders.longs();
            case FLOAT:
                return ValueReaders.floats();
            case DOUBLE:
                return encoding == Schema.Type.FLOAT
                        ? ValueReaders.floatsAsDoubles()
                        : ValueReaders.doubles();
            case STRING:
                return AvroFieldReaders.strings();
            case TIME:
                return AvroFieldReaders.timeMicrosAsMillis();
            case TIMESTAMP:
                return isMillis(primitive.getLogicalType())
                        ? AvroFieldReaders.timestampMillis()
                        : AvroFieldReaders.timestampMicros();
            case TIMESTAMP_NANO:
                return AvroFieldReaders.timestampNanos();
            case UUID:
                return ValueReaders.fixed(16);
            case FIXED:
                return ValueReaders.fixed(((Types.FixedType) partner).length());
            case BINARY:
                return ValueReaders.bytes();
            case DECIMAL:
                return decimal((Types.DecimalType) partner, primitive);
            default:
                throw new IllegalArgumentException(
                        "Cannot read Iceberg type "
                                + partner
                                + " from Avro "
                                + primitive
                                + " into Flink rows");
        }
    }

    private static boolean isMillis(LogicalType logicalType) {
        return logicalType instanceof LogicalTypes.TimestampMillis
                || logicalType instanceof LogicalTypes.LocalTimestampMillis;
    }

    /** A reader that consumes a value of a part of the file that is not projected. */
    private static ValueReader<?> skipping(Schema primitive) {
        switch (primitive.getType()) {
            case NULL:
                return ValueReaders.nulls();
            case BOOLEAN:
                return ValueReaders.booleans();
            case INT:
                return ValueReaders.ints();
            case LONG:
                return ValueReaders.longs();
            case FLOAT:
                return ValueReaders.floats();
            case DOUBLE:
                return ValueReaders.doubles();
            case STRING:
            case BYTES:
                return ValueReaders.bytes();
            case FIXED:
                return ValueReaders.fixed(primitive.getFixedSize());
            default:
                throw new IllegalArgumentException("Cannot skip Avro type " + primitive);
        }
    }

    private static ValueReader<?> decimal(Types.DecimalType expected, Schema primitive) {
        // the file's scale is the expected one (Iceberg never changes a scale); its precision may
        // be narrower (decimal precision promotion), which changes nothing in how it is read
        int fixedSize = primitive.getType() == Schema.Type.FIXED ? primitive.getFixedSize() : 0;
        return AvroFieldReaders.decimal(fixedSize, expected.precision(), expected.scale());
    }
}
