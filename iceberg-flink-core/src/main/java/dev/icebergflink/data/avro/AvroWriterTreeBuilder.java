package dev.icebergflink.data.avro;

import dev.icebergflink.compat.FlinkVariants;
import java.util.List;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.avro.AvroSchemaUtil;
import org.apache.iceberg.avro.AvroWithPartnerByStructureVisitor;
import org.apache.iceberg.avro.ValueWriter;
import org.apache.iceberg.avro.ValueWriters;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.Pair;

/**
 * Builds the tree of {@link ValueWriter}s for one Avro file schema, walking the Avro schema
 * (derived from the Iceberg schema) together with the Flink type of the rows. The Flink type
 * decides how a value is taken out of {@link RowData} (for example a TINYINT column holds bytes),
 * the Avro schema decides how it is encoded.
 */
final class AvroWriterTreeBuilder
        extends AvroWithPartnerByStructureVisitor<AvroWriterTreeBuilder.Partner, ValueWriter<?>> {

    /**
     * The Flink type, the Iceberg type and the column path at one position of the schema tree. The
     * Iceberg type and the path only serve to check shapes and to name columns in errors.
     */
    record Partner(
            org.apache.flink.table.types.logical.LogicalType flink, Type iceberg, String path) {
        @Override
        public String toString() {
            return "column '" + path + "' (Flink type " + flink + ", Iceberg type " + iceberg + ")";
        }
    }

    private static final Partner NULL_PARTNER = new Partner(null, null, "<null>");

    private AvroWriterTreeBuilder() {}

    @SuppressWarnings("unchecked")
    static ValueWriter<RowData> build(
            Schema schema, org.apache.avro.Schema avroSchema, RowType rowType) {
        Partner root = new Partner(rowType, schema.asStruct(), "");
        return (ValueWriter<RowData>) visit(root, avroSchema, new AvroWriterTreeBuilder());
    }

    // ----------------------------------------------------------------- partner navigation

    @Override
    protected boolean isMapType(Partner partner) {
        LogicalTypeRoot root = partner.flink().getTypeRoot();
        return root == LogicalTypeRoot.MAP || root == LogicalTypeRoot.MULTISET;
    }

    @Override
    protected boolean isStringType(Partner partner) {
        LogicalTypeRoot root = partner.flink().getTypeRoot();
        return root == LogicalTypeRoot.CHAR || root == LogicalTypeRoot.VARCHAR;
    }

    @Override
    protected Partner arrayElementType(Partner partner) {
        if (!(partner.flink() instanceof ArrayType) || !partner.iceberg().isListType()) {
            throw mismatch(partner);
        }
        return new Partner(
                ((ArrayType) partner.flink()).getElementType(),
                partner.iceberg().asListType().elementType(),
                partner.path() + ".element");
    }

    @Override
    protected Partner mapKeyType(Partner partner) {
        requireMap(partner);
        return new Partner(
                flinkKeyType(partner),
                partner.iceberg().asMapType().keyType(),
                partner.path() + ".key");
    }

    @Override
    protected Partner mapValueType(Partner partner) {
        requireMap(partner);
        return new Partner(
                flinkValueType(partner),
                partner.iceberg().asMapType().valueType(),
                partner.path() + ".value");
    }

    @Override
    protected Pair<String, Partner> fieldNameAndType(Partner partner, int pos) {
        if (!(partner.flink() instanceof RowType) || !partner.iceberg().isStructType()) {
            throw mismatch(partner);
        }
        RowType rowType = (RowType) partner.flink();
        List<Types.NestedField> fields = partner.iceberg().asStructType().fields();
        if (rowType.getFieldCount() != fields.size()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot write Flink rows of %s into %s: the Flink row has %d fields"
                                    + " but the Iceberg struct has %d",
                            rowType,
                            partner.path().isEmpty() ? "the table schema" : partner,
                            rowType.getFieldCount(),
                            fields.size()));
        }
        Types.NestedField field = fields.get(pos);
        String path = partner.path().isEmpty() ? field.name() : partner.path() + "." + field.name();
        return Pair.of(field.name(), new Partner(rowType.getTypeAt(pos), field.type(), path));
    }

    @Override
    protected Partner nullType() {
        return NULL_PARTNER;
    }

    // ----------------------------------------------------------------- writers

    @Override
    public ValueWriter<?> record(
            Partner partner,
            org.apache.avro.Schema record,
            List<String> names,
            List<ValueWriter<?>> fieldWriters) {
        RowType rowType = (RowType) partner.flink();
        return AvroFieldWriters.row(fieldWriters, rowType.getChildren());
    }

    @Override
    public ValueWriter<?> union(
            Partner partner, org.apache.avro.Schema union, List<ValueWriter<?>> options) {
        if (!AvroSchemaUtil.isOptionSchema(union)) {
            throw new IllegalArgumentException(
                    "Cannot write " + partner + ": Avro union " + union + " is not an option");
        }
        int nullIndex =
                union.getTypes().get(0).getType() == org.apache.avro.Schema.Type.NULL ? 0 : 1;
        return ValueWriters.option(nullIndex, options.get(1 - nullIndex));
    }

    @Override
    public ValueWriter<?> array(
            Partner partner, org.apache.avro.Schema array, ValueWriter<?> elementWriter) {
        org.apache.flink.table.types.logical.LogicalType elementType =
                ((ArrayType) partner.flink()).getElementType();
        return AvroFieldWriters.array(elementWriter, elementType);
    }

    @Override
    public ValueWriter<?> map(
            Partner partner,
            org.apache.avro.Schema map,
            ValueWriter<?> keyWriter,
            ValueWriter<?> valueWriter) {
        org.apache.flink.table.types.logical.LogicalType keyType = flinkKeyType(partner);
        org.apache.flink.table.types.logical.LogicalType valueType = flinkValueType(partner);
        return AvroFieldWriters.arrayMap(keyWriter, keyType, valueWriter, valueType);
    }

    @Override
    public ValueWriter<?> map(
            Partner partner, org.apache.avro.Schema map, ValueWriter<?> valueWriter) {
        org.apache.flink.table.types.logical.LogicalType keyType = flinkKeyType(partner);
        org.apache.flink.table.types.logical.LogicalType valueType = flinkValueType(partner);
        return AvroFieldWriters.map(AvroFieldWriters.strings(), keyType, valueWriter, valueType);
    }

    @Override
    protected boolean isVariantType(Partner partner) {
        return partner.iceberg() != null && partner.iceberg().isVariantType();
    }

    @Override
    public ValueWriter<?> variant(
            Partner partner, ValueWriter<?> metadataWriter, ValueWriter<?> valueWriter) {
        if (!FlinkVariants.isVariant(partner.flink())) {
            throw mismatch(partner);
        }
        // Iceberg's variant writer writes both the metadata and the value field
        return AvroVariantValues.writer(partner.path());
    }

    @Override
    public ValueWriter<?> primitive(Partner partner, org.apache.avro.Schema primitive) {
        if (partner == null) {
            return null; // a metadata or value field of a variant, written by variant()
        }
        if (primitive.getType() == org.apache.avro.Schema.Type.NULL) {
            return ValueWriters.nulls();
        }
        LogicalTypeRoot root = partner.flink().getTypeRoot();
        LogicalType logicalType = primitive.getLogicalType();
        if (logicalType != null) {
            return logicalPrimitive(partner, primitive, root, logicalType);
        }
        switch (primitive.getType()) {
            case BOOLEAN:
                return expect(partner, root == LogicalTypeRoot.BOOLEAN, ValueWriters.booleans());
            case INT:
                switch (root) {
                    case TINYINT:
                        return ValueWriters.tinyints();
                    case SMALLINT:
                        return ValueWriters.shorts();
                    case INTEGER:
                        return ValueWriters.ints();
                    default:
                        throw mismatch(partner);
                }
            case LONG:
                switch (root) {
                    case BIGINT:
                        return ValueWriters.longs();
                    case TINYINT:
                    case SMALLINT:
                    case INTEGER:
                        return AvroFieldWriters.integersAsLongs();
                    default:
                        throw mismatch(partner);
                }
            case FLOAT:
                return expect(partner, root == LogicalTypeRoot.FLOAT, ValueWriters.floats());
            case DOUBLE:
                if (root == LogicalTypeRoot.FLOAT) {
                    return AvroFieldWriters.floatsAsDoubles();
                }
                return expect(partner, root == LogicalTypeRoot.DOUBLE, ValueWriters.doubles());
            case STRING:
                return expect(partner, isStringType(partner), AvroFieldWriters.strings());
            case FIXED:
                return expect(
                        partner, isBinary(root), ValueWriters.fixed(primitive.getFixedSize()));
            case BYTES:
                return expect(partner, isBinary(root), ValueWriters.bytes());
            default:
                throw new IllegalArgumentException(
                        "Cannot write " + partner + ": unsupported Avro type " + primitive);
        }
    }

    private ValueWriter<?> logicalPrimitive(
            Partner partner,
            org.apache.avro.Schema primitive,
            LogicalTypeRoot root,
            LogicalType logicalType) {
        switch (logicalType.getName()) {
            case "date":
                return expect(partner, root == LogicalTypeRoot.DATE, ValueWriters.ints());
            case "time-micros":
                return expect(
                        partner,
                        root == LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE,
                        AvroFieldWriters.timeMillisAsMicros());
            case "timestamp-micros":
            case "local-timestamp-micros":
                return expect(partner, isTimestamp(root), AvroFieldWriters.timestampMicros());
            case "timestamp-nanos":
            case "local-timestamp-nanos":
                return expect(partner, isTimestamp(root), AvroFieldWriters.timestampNanos());
            case "uuid":
                return expect(partner, isBinary(root), ValueWriters.fixed(16));
            case "decimal":
                return decimal(partner, primitive, (LogicalTypes.Decimal) logicalType);
            default:
                throw new IllegalArgumentException(
                        "Cannot write "
                                + partner
                                + ": unsupported Avro logical type "
                                + logicalType.getName());
        }
    }

    private ValueWriter<?> decimal(
            Partner partner, org.apache.avro.Schema primitive, LogicalTypes.Decimal decimal) {
        if (!(partner.flink() instanceof DecimalType)
                || primitive.getType() != org.apache.avro.Schema.Type.FIXED) {
            throw mismatch(partner);
        }
        DecimalType flinkDecimal = (DecimalType) partner.flink();
        if (flinkDecimal.getScale() != decimal.getScale()) {
            throw new IllegalArgumentException(
                    "Cannot write " + partner + ": the Flink and Iceberg decimal scales differ");
        }
        return AvroFieldWriters.decimal(
                partner.path(),
                decimal.getPrecision(),
                decimal.getScale(),
                primitive.getFixedSize());
    }

    // ----------------------------------------------------------------- helpers

    private static void requireMap(Partner partner) {
        LogicalTypeRoot root = partner.flink().getTypeRoot();
        boolean flinkMap = root == LogicalTypeRoot.MAP || root == LogicalTypeRoot.MULTISET;
        if (!flinkMap || !partner.iceberg().isMapType()) {
            throw mismatch(partner);
        }
    }

    private static org.apache.flink.table.types.logical.LogicalType flinkKeyType(Partner partner) {
        if (partner.flink() instanceof MultisetType) {
            return ((MultisetType) partner.flink()).getElementType();
        }
        return ((MapType) partner.flink()).getKeyType();
    }

    private static org.apache.flink.table.types.logical.LogicalType flinkValueType(
            Partner partner) {
        if (partner.flink() instanceof MultisetType) {
            // a multiset is a map from element to its (non-null) count
            return new IntType(false);
        }
        return ((MapType) partner.flink()).getValueType();
    }

    private static boolean isBinary(LogicalTypeRoot root) {
        return root == LogicalTypeRoot.BINARY || root == LogicalTypeRoot.VARBINARY;
    }

    private static boolean isTimestamp(LogicalTypeRoot root) {
        return root == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                || root == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    private static ValueWriter<?> expect(Partner partner, boolean matches, ValueWriter<?> writer) {
        if (!matches) {
            throw mismatch(partner);
        }
        return writer;
    }

    private static IllegalArgumentException mismatch(Partner partner) {
        return new IllegalArgumentException(
                String.format(
                        "Cannot write Flink type %s into column '%s' of Iceberg type %s",
                        partner.flink(), partner.path(), partner.iceberg()));
    }
}
