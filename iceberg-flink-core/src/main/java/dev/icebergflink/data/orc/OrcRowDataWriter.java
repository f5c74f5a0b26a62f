package dev.icebergflink.data.orc;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.data.row.FlinkTypeRoots;
import dev.icebergflink.data.row.RequiredFieldCheck;
import dev.icebergflink.types.IcebergToFlinkTypeConverter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.iceberg.FieldMetrics;
import org.apache.iceberg.Schema;
import org.apache.iceberg.orc.OrcRowWriter;
import org.apache.iceberg.orc.OrcValueWriter;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.orc.TypeDescription;
import org.apache.orc.storage.ql.exec.vector.VectorizedRowBatch;

/**
 * Writes Flink {@link RowData} into ORC row batches for Iceberg's ORC appender, with the column
 * metrics (float/double bounds and NaN counts) that Iceberg's ORC metrics need on top of ORC's own
 * statistics.
 *
 * <p>The writer tree is built once per file from the Iceberg schema (the file's columns and field
 * ids) and the Flink {@link RowType} of the incoming rows, matched by position. The Flink type
 * decides how a value is read from the row ({@code TINYINT} and {@code SMALLINT} into int columns,
 * {@code CHAR}/{@code VARCHAR} into string, {@code MULTISET} into {@code map<T, int>}, timestamps
 * of any precision); the Iceberg type decides how it is stored. A Flink type that cannot be stored
 * in its Iceberg column fails when the writer is built, naming the column.
 */
@Internal
public final class OrcRowDataWriter implements OrcRowWriter<RowData> {

    private final OrcNestedWriters.StructWriter rowWriter;
    private final RequiredFieldCheck requiredFields;

    private OrcRowDataWriter(
            OrcNestedWriters.StructWriter rowWriter, RequiredFieldCheck requiredFields) {
        this.rowWriter = rowWriter;
        this.requiredFields = requiredFields;
    }

    /**
     * Builds a writer for rows of {@code flinkType} into a file of {@code icebergSchema}.
     *
     * @param icebergSchema the Iceberg schema of the file
     * @param orcSchema the ORC schema that Iceberg derived from it, used to check the shape
     * @param flinkType the Flink row type of the incoming rows, or null to derive it from the
     *     Iceberg schema with {@link FlinkSchemaUtil#convert(Schema)}
     */
    public static OrcRowWriter<RowData> buildWriter(
            Schema icebergSchema, TypeDescription orcSchema, RowType flinkType) {
        RowType rowType =
                flinkType != null
                        ? flinkType
                        : IcebergToFlinkTypeConverter.convertStruct(icebergSchema.asStruct());
        if (orcSchema != null && orcSchema.getChildren() != null) {
            int orcColumns = orcSchema.getChildren().size();
            if (orcColumns != storedColumns(icebergSchema.asStruct())) {
                throw new IllegalArgumentException(
                        String.format(
                                "ORC schema %s has %d columns but the Iceberg schema has %d: %s",
                                orcSchema,
                                orcColumns,
                                icebergSchema.columns().size(),
                                icebergSchema.asStruct()));
            }
        }
        return new OrcRowDataWriter(
                (OrcNestedWriters.StructWriter) structWriter(icebergSchema.asStruct(), rowType, ""),
                RequiredFieldCheck.of(icebergSchema, rowType));
    }

    /**
     * Adds {@code row} to the batch.
     *
     * @throws IllegalArgumentException naming the column when the row holds a NULL in a required
     *     field (ORC itself has no required columns and would store it)
     */
    @Override
    public void write(RowData row, VectorizedRowBatch output) {
        requiredFields.check(row);
        int rowId = output.size;
        output.size = rowId + 1;
        rowWriter.writeFields(rowId, row, output.cols);
    }

    @Override
    public List<OrcValueWriter<?>> writers() {
        return new ArrayList<>(rowWriter.fieldWriters());
    }

    @Override
    public Stream<FieldMetrics<?>> metrics() {
        return rowWriter.metrics();
    }

    private static OrcFieldWriter<?> structWriter(
            Types.StructType struct, RowType rowType, String path) {
        List<Types.NestedField> fields = struct.fields();
        if (fields.size() != rowType.getFieldCount()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot write Flink rows of %s into %s: the Flink row has %d fields but"
                                    + " the Iceberg struct has %d (fields are matched by"
                                    + " position)",
                            rowType.asSummaryString(),
                            path.isEmpty() ? "the Iceberg schema" : "column '" + path + "'",
                            rowType.getFieldCount(),
                            fields.size()));
        }
        List<OrcFieldWriter<?>> writers = new ArrayList<>(fields.size());
        int[] positions = new int[storedColumns(struct)];
        for (int i = 0; i < fields.size(); i++) {
            Types.NestedField field = fields.get(i);
            if (field.type().typeId() == Type.TypeID.UNKNOWN) {
                continue; // ORC files leave unknown columns out: nothing is written
            }
            positions[writers.size()] = i;
            writers.add(
                    writer(
                            field.type(),
                            field.fieldId(),
                            rowType.getTypeAt(i),
                            child(path, field.name())));
        }
        return OrcNestedWriters.struct(writers, positions, fields.size());
    }

    /** The fields of {@code struct} that files store: all but Iceberg {@code unknown} ones. */
    private static int storedColumns(Types.StructType struct) {
        return (int)
                struct.fields().stream()
                        .filter(field -> field.type().typeId() != Type.TypeID.UNKNOWN)
                        .count();
    }

    private static OrcFieldWriter<?> writer(
            Type type, int fieldId, LogicalType flinkType, String path) {
        LogicalTypeRoot root = flinkType.getTypeRoot();
        if (type.isPrimitiveType()) {
            FlinkTypeRoots.requireFits(type, flinkType, path);
        }
        switch (type.typeId()) {
            case BOOLEAN:
                return OrcLeafWriters.booleans();
            case INTEGER:
                switch (root) {
                    case TINYINT:
                        return OrcLeafWriters.tinyInts();
                    case SMALLINT:
                        return OrcLeafWriters.smallInts();
                    default: // INTEGER, as checked above
                        return OrcLeafWriters.ints();
                }
            case LONG:
                return OrcLeafWriters.longs();
            case FLOAT:
                return OrcLeafWriters.floats(fieldId);
            case DOUBLE:
                return OrcLeafWriters.doubles(fieldId);
            case DATE:
                return OrcLeafWriters.ints();
            case TIME:
                return OrcLeafWriters.timeMillis();
            case TIMESTAMP:
            case TIMESTAMP_NANO:
                return OrcLeafWriters.timestamps(
                        LogicalTypeChecks.getPrecision(flinkType),
                        type.typeId() == Type.TypeID.TIMESTAMP_NANO);
            case STRING:
                return OrcLeafWriters.strings();
            case UUID:
                return OrcLeafWriters.fixed(16, path);
            case FIXED:
                return OrcLeafWriters.fixed(((Types.FixedType) type).length(), path);
            case BINARY:
                return OrcLeafWriters.binaries();
            case DECIMAL:
                {
                    Types.DecimalType decimal = (Types.DecimalType) type;
                    DecimalType flinkDecimal = (DecimalType) flinkType;
                    return OrcLeafWriters.decimals(
                            flinkDecimal.getPrecision(),
                            flinkDecimal.getScale(),
                            decimal.precision(),
                            decimal.scale(),
                            path);
                }
            case STRUCT:
                expect(root == LogicalTypeRoot.ROW, type, flinkType, path, "ROW");
                return structWriter(type.asStructType(), (RowType) flinkType, path);
            case LIST:
                {
                    expect(root == LogicalTypeRoot.ARRAY, type, flinkType, path, "ARRAY");
                    Types.ListType list = type.asListType();
                    return OrcNestedWriters.list(
                            writer(
                                    list.elementType(),
                                    list.elementId(),
                                    ((ArrayType) flinkType).getElementType(),
                                    child(path, "element")));
                }
            case MAP:
                return mapWriter(type.asMapType(), flinkType, path);
            case VARIANT:
                throw new UnsupportedOperationException(
                        String.format(
                                "Column '%s' has Iceberg type variant, which Iceberg does not store"
                                        + " in ORC files; write the table as Parquet or Avro"
                                        + " (write.format.default)",
                                path));
            default:
                throw new UnsupportedOperationException(
                        String.format(
                                "Column '%s' has Iceberg type %s, which the Flink ORC writer does"
                                        + " not support",
                                path, type));
        }
    }

    private static OrcFieldWriter<?> mapWriter(
            Types.MapType map, LogicalType flinkType, String path) {
        LogicalType keyType;
        LogicalType valueType;
        if (flinkType.getTypeRoot() == LogicalTypeRoot.MAP) {
            keyType = ((MapType) flinkType).getKeyType();
            valueType = ((MapType) flinkType).getValueType();
        } else if (flinkType.getTypeRoot() == LogicalTypeRoot.MULTISET) {
            // a multiset is a map from element to its (non-null) int count
            keyType = ((MultisetType) flinkType).getElementType();
            valueType = new IntType(false);
        } else {
            throw FlinkTypeRoots.mismatch(map, flinkType, path, "MAP or MULTISET");
        }
        return OrcNestedWriters.map(
                writer(map.keyType(), map.keyId(), keyType, child(path, "key")),
                writer(map.valueType(), map.valueId(), valueType, child(path, "value")));
    }

    private static void expect(
            boolean matches, Type type, LogicalType flinkType, String path, String allowed) {
        if (!matches) {
            throw FlinkTypeRoots.mismatch(type, flinkType, path, allowed);
        }
    }

    private static String child(String parent, String name) {
        return parent.isEmpty() ? name : parent + "." + name;
    }
}
