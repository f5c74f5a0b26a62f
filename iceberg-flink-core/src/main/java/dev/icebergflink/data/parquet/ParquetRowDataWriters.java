package dev.icebergflink.data.parquet;

import dev.icebergflink.data.row.RequiredFieldCheck;
import dev.icebergflink.types.IcebergToFlinkTypeConverter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.parquet.ParquetValueWriter;
import org.apache.iceberg.parquet.ParquetValueWriters;
import org.apache.iceberg.parquet.ParquetVariantVisitor;
import org.apache.iceberg.parquet.TypeWithSchemaVisitor;
import org.apache.iceberg.parquet.VariantWriterBuilder;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Builds the Parquet value writer that writes Flink {@link RowData} into a Parquet file of an
 * Iceberg schema.
 *
 * <p>It exists so that the sink can write Flink's internal rows directly, without converting them
 * into Iceberg generic records first. The writer tree is built once per file by walking the Iceberg
 * schema together with the Parquet file schema ({@link TypeWithSchemaVisitor}); which getter reads
 * a value out of a row is decided by the Flink row type (so TINYINT, SMALLINT, CHAR, VARCHAR,
 * TIMESTAMP(3) and MULTISET columns are written into their Iceberg counterparts int, string,
 * timestamp and map&lt;T, int&gt;). The encodings follow the file schema: decimals as int32, int64
 * or fixed-length bytes by precision, timestamps in the column's annotated unit, uuid as 16 fixed
 * bytes. Float and double columns keep Iceberg's NaN counts and bounds in the file's metrics
 * (Iceberg's own writers, or its metrics builders where a top-level column is written directly);
 * variant columns go through Iceberg's {@code VariantWriterBuilder}, written unshredded (metadata
 * and value) unless the file schema shreds them. The top-level row has a writer of its own ({@link
 * ParquetTopLevelRowWriter}) that writes plain primitive columns straight from the row.
 */
@Internal
public final class ParquetRowDataWriters {

    private ParquetRowDataWriters() {}

    /**
     * Builds a writer for rows of {@code rowType} into a file of {@code fileSchema}.
     *
     * @param icebergSchema the Iceberg schema the file schema was made from
     * @param fileSchema the Parquet file schema
     * @param rowType the Flink type of the rows written, or null for the Flink type of the Iceberg
     *     schema; its fields match the Iceberg columns by position
     * @throws IllegalArgumentException naming the column when a Flink type cannot hold the values
     *     of its Iceberg column
     */
    public static ParquetValueWriter<RowData> buildWriter(
            Schema icebergSchema, MessageType fileSchema, RowType rowType) {
        RowType engineType =
                rowType != null
                        ? rowType
                        : IcebergToFlinkTypeConverter.convertStruct(icebergSchema.asStruct());
        FlinkTypeIndex flinkTypes = FlinkTypeIndex.of(icebergSchema.asStruct(), engineType);
        @SuppressWarnings("unchecked")
        ParquetValueWriter<RowData> writer =
                (ParquetValueWriter<RowData>)
                        TypeWithSchemaVisitor.visit(
                                icebergSchema.asStruct(),
                                fileSchema,
                                new WriteBuilder(
                                        fileSchema,
                                        engineType,
                                        flinkTypes,
                                        RequiredFieldCheck.of(icebergSchema, engineType)));
        return writer;
    }

    private static final class WriteBuilder extends TypeWithSchemaVisitor<ParquetValueWriter<?>> {
        private final MessageType fileSchema;
        private final RowType rootType;
        private final FlinkTypeIndex flinkTypes;
        private final RequiredFieldCheck requiredFields;

        private WriteBuilder(
                MessageType fileSchema,
                RowType rootType,
                FlinkTypeIndex flinkTypes,
                RequiredFieldCheck requiredFields) {
            this.fileSchema = fileSchema;
            this.rootType = rootType;
            this.flinkTypes = flinkTypes;
            this.requiredFields = requiredFields;
        }

        @Override
        public ParquetValueWriter<?> message(
                Types.StructType struct,
                MessageType message,
                List<ParquetValueWriter<?>> fieldWriters) {
            return new ParquetTopLevelRowWriter(
                    struct,
                    message,
                    rootType,
                    optionWriters(message, fieldWriters),
                    requiredFields);
        }

        @Override
        public ParquetValueWriter<?> struct(
                Types.StructType struct,
                GroupType group,
                List<ParquetValueWriter<?>> fieldWriters) {
            // Nested structs are covered by the check of the top-level row.
            return ParquetNestedWriters.row(
                    struct,
                    (RowType) flinkType(group.getId().intValue()),
                    optionWriters(group, fieldWriters));
        }

        /** The writers of a group's fields, each wrapped to write the field's nulls. */
        private List<ParquetValueWriter<?>> optionWriters(
                GroupType group, List<ParquetValueWriter<?>> fieldWriters) {
            List<ParquetValueWriter<?>> writers = new ArrayList<>(fieldWriters.size());
            for (int i = 0; i < fieldWriters.size(); i++) {
                org.apache.parquet.schema.Type fieldType = group.getType(i);
                int definitionLevel = fileSchema.getMaxDefinitionLevel(path(fieldType.getName()));
                writers.add(
                        ParquetValueWriters.option(
                                fieldType, definitionLevel, fieldWriters.get(i)));
            }
            return writers;
        }

        @Override
        public ParquetValueWriter<?> list(
                Types.ListType list, GroupType array, ParquetValueWriter<?> elementWriter) {
            // The visitor calls list() with the repeated group on the path.
            String[] repeatedPath = currentPath();
            GroupType repeated = array.getType(0).asGroupType();
            org.apache.parquet.schema.Type elementType = repeated.getType(0);
            int elementDefinitionLevel =
                    fileSchema.getMaxDefinitionLevel(path(elementType.getName()));
            return ParquetNestedWriters.array(
                    fileSchema.getMaxDefinitionLevel(repeatedPath),
                    fileSchema.getMaxRepetitionLevel(repeatedPath),
                    ParquetValueWriters.option(elementType, elementDefinitionLevel, elementWriter),
                    flinkType(list.elementId()));
        }

        @Override
        public ParquetValueWriter<?> map(
                Types.MapType map,
                GroupType mapGroup,
                ParquetValueWriter<?> keyWriter,
                ParquetValueWriter<?> valueWriter) {
            // The visitor calls map() with the repeated key_value group on the path.
            String[] repeatedPath = currentPath();
            GroupType repeated = mapGroup.getType(0).asGroupType();
            org.apache.parquet.schema.Type keyType = repeated.getType(0);
            org.apache.parquet.schema.Type valueType = repeated.getType(1);
            return ParquetNestedWriters.map(
                    fileSchema.getMaxDefinitionLevel(repeatedPath),
                    fileSchema.getMaxRepetitionLevel(repeatedPath),
                    ParquetValueWriters.option(
                            keyType,
                            fileSchema.getMaxDefinitionLevel(path(keyType.getName())),
                            keyWriter),
                    ParquetValueWriters.option(
                            valueType,
                            fileSchema.getMaxDefinitionLevel(path(valueType.getName())),
                            valueWriter),
                    flinkType(map.keyId()),
                    flinkType(map.valueId()));
        }

        @Override
        public ParquetVariantVisitor<ParquetValueWriter<?>> variantVisitor() {
            // Iceberg's writer of the variant group at the current path (unshredded unless the
            // file schema shreds it)
            return new VariantWriterBuilder(fileSchema, Arrays.asList(currentPath()));
        }

        @Override
        public ParquetValueWriter<?> variant(
                Types.VariantType variant, GroupType group, ParquetValueWriter<?> result) {
            return ParquetVariantValues.writer(result, columnName());
        }

        @Override
        public ParquetValueWriter<?> primitive(Type.PrimitiveType icebergType, PrimitiveType prim) {
            ColumnDescriptor desc = fileSchema.getColumnDescription(currentPath());
            LogicalType flinkType = flinkType(prim.getId().intValue());
            switch (icebergType.typeId()) {
                case BOOLEAN:
                    return ParquetValueWriters.booleans(desc);
                case INTEGER:
                    return intWriter(desc, flinkType);
                case LONG:
                    return ParquetValueWriters.longs(desc);
                case FLOAT:
                    return ParquetValueWriters.floats(desc);
                case DOUBLE:
                    return ParquetValueWriters.doubles(desc);
                case DATE:
                    return ParquetValueWriters.ints(desc);
                case TIME:
                    return ParquetLeafWriters.timeMillis(desc, timeUnit(prim));
                case TIMESTAMP:
                case TIMESTAMP_NANO:
                    return ParquetLeafWriters.timestamps(desc, timeUnit(prim));
                case STRING:
                    return ParquetLeafWriters.strings(desc);
                case UUID:
                case FIXED:
                    return ParquetLeafWriters.fixed(desc, columnName());
                case BINARY:
                    return ParquetLeafWriters.bytes(desc);
                case DECIMAL:
                    return decimalWriter(desc, (Types.DecimalType) icebergType, prim);
                default:
                    throw new UnsupportedOperationException(
                            String.format(
                                    "Column '%s': the Flink connector cannot write Iceberg type"
                                            + " %s to Parquet",
                                    columnName(), icebergType));
            }
        }

        private static ParquetValueWriter<?> intWriter(
                ColumnDescriptor desc, LogicalType flinkType) {
            if (flinkType.getTypeRoot() == LogicalTypeRoot.TINYINT) {
                return ParquetValueWriters.tinyints(desc);
            } else if (flinkType.getTypeRoot() == LogicalTypeRoot.SMALLINT) {
                return ParquetValueWriters.shorts(desc);
            }
            return ParquetValueWriters.ints(desc);
        }

        private ParquetValueWriter<?> decimalWriter(
                ColumnDescriptor desc, Types.DecimalType decimal, PrimitiveType prim) {
            int precision = decimal.precision();
            int scale = decimal.scale();
            switch (prim.getPrimitiveTypeName()) {
                case INT32:
                    return ParquetLeafWriters.decimalAsInt(desc, precision, scale, columnName());
                case INT64:
                    return ParquetLeafWriters.decimalAsLong(desc, precision, scale, columnName());
                case FIXED_LEN_BYTE_ARRAY:
                    return ParquetLeafWriters.decimalAsFixed(desc, precision, scale, columnName());
                default:
                    throw new UnsupportedOperationException(
                            String.format(
                                    "Column '%s': cannot write %s as Parquet %s; expected int32,"
                                            + " int64 or fixed_len_byte_array",
                                    columnName(), decimal, prim.getPrimitiveTypeName()));
            }
        }

        private LogicalTypeAnnotation.TimeUnit timeUnit(PrimitiveType prim) {
            LogicalTypeAnnotation annotation = prim.getLogicalTypeAnnotation();
            if (annotation instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) {
                return ((LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) annotation)
                        .getUnit();
            } else if (annotation instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation) {
                return ((LogicalTypeAnnotation.TimeLogicalTypeAnnotation) annotation).getUnit();
            }
            throw new UnsupportedOperationException(
                    String.format(
                            "Column '%s': Parquet type %s has no time or timestamp annotation",
                            columnName(), prim));
        }

        private LogicalType flinkType(int fieldId) {
            LogicalType type = flinkTypes.get(fieldId);
            if (type == null) {
                throw new IllegalStateException(
                        String.format(
                                "Column '%s': field id %d of the Parquet schema is not in the"
                                        + " Iceberg schema",
                                columnName(), fieldId));
            }
            return type;
        }

        private String columnName() {
            return String.join(".", currentPath());
        }
    }
}
