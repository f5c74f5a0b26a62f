package dev.icebergflink.data.parquet;

import dev.icebergflink.data.row.EngineProjections;
import dev.icebergflink.data.row.RowDataConstants;
import dev.icebergflink.types.IcebergToFlinkTypeConverter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.parquet.ParquetSchemaUtil;
import org.apache.iceberg.parquet.ParquetValueReader;
import org.apache.iceberg.parquet.ParquetValueReaders;
import org.apache.iceberg.parquet.ParquetVariantVisitor;
import org.apache.iceberg.parquet.TypeWithSchemaVisitor;
import org.apache.iceberg.parquet.VariantReaderBuilder;
import org.apache.iceberg.parquet.VectorizedReader;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Builds the Parquet value reader that reads a Parquet data file into Flink {@link RowData} of an
 * expected (projected) Iceberg schema.
 *
 * <p>It exists so that the source can hand Flink its internal rows straight from the file. File
 * columns are matched to expected columns by Iceberg field id, so renamed and reordered columns are
 * found; columns missing from the file read as their constant from {@code idToConstant} (identity
 * partition values, {@code _file}, {@code _spec_id}, ...), as their initial default, or as null.
 * Metadata columns are served by Iceberg's own readers: {@code _pos} (the row position), {@code
 * _deleted} (false), and row lineage. Type promotions int to long, float to double and wider
 * decimal precision are applied. Timestamps are read in the file's unit (millis, micros, nanos, or
 * legacy INT96); times are truncated to Flink's milliseconds. Variant columns, shredded or not, are
 * read by Iceberg's own variant reader ({@code VariantReaderBuilder}) and handed to Flink as {@code
 * VARIANT} values (see {@link ParquetVariantValues}); the batched reader takes them, like every
 * non-primitive column, row by row.
 *
 * <p>Top-level rows are {@code BinaryRowData} (see {@link ParquetBinaryRowReader}): Flink copies
 * them between operators with one array copy, and the file's primitive columns are decoded straight
 * into them. Values inside follow the shared conventions: nested rows are {@code GenericRowData},
 * then {@code GenericArrayData}, {@code GenericMapData}, {@code StringData}, {@code DecimalData},
 * {@code TimestampData}, {@code byte[]} for uuid, fixed and binary; read them through the {@code
 * RowData} getters, never by casting the row.
 */
@Internal
public final class ParquetRowDataReaders {

    private ParquetRowDataReaders() {}

    /** Builds a reader of {@code expectedSchema} rows from a file of {@code fileSchema}. */
    public static ParquetValueReader<RowData> buildReader(
            Schema expectedSchema, MessageType fileSchema) {
        return buildReader(expectedSchema, fileSchema, null, Map.of());
    }

    /**
     * Builds a reader of {@code expectedSchema} rows from a file of {@code fileSchema}.
     *
     * @param expectedSchema the projected Iceberg schema the rows follow
     * @param fileSchema the Parquet file schema, with Iceberg field ids
     * @param rowType the Flink type of the rows, or null; when given it must have one field per
     *     column of {@code expectedSchema}
     * @param idToConstant constant values by field id, in Iceberg's internal or Flink's internal
     *     representation
     * @throws IllegalArgumentException when a required column is missing from the file and has no
     *     constant or default, or when {@code rowType} does not fit the expected schema
     */
    public static ParquetValueReader<RowData> buildReader(
            Schema expectedSchema,
            MessageType fileSchema,
            RowType rowType,
            Map<Integer, ?> idToConstant) {
        EngineProjections.requireMatching(rowType, expectedSchema);
        @SuppressWarnings("unchecked")
        ParquetValueReader<RowData> reader =
                (ParquetValueReader<RowData>)
                        TypeWithSchemaVisitor.visit(
                                expectedSchema.asStruct(),
                                fileSchema,
                                new ReadBuilder(
                                        fileSchema,
                                        RowDataConstants.convertAll(expectedSchema, idToConstant)));
        return reader;
    }

    /**
     * Builds a batched reader of {@code expectedSchema} rows from a file of {@code fileSchema}, for
     * Iceberg's batched Parquet read path: the same rows as {@link #buildReader}, with the
     * top-level primitive columns decoded in batches where their encodings allow (see {@link
     * ParquetBatchedColumns}). When built inside a {@link ParquetScanPushdown} scope, the reader
     * skips what that filter rules out (see {@link ParquetRowBatchReader}).
     */
    public static VectorizedReader<ParquetRowBatch> buildBatchReader(
            Schema expectedSchema,
            MessageType fileSchema,
            RowType rowType,
            Map<Integer, ?> idToConstant) {
        return new ParquetRowBatchReader(
                (ParquetBinaryRowReader)
                        buildReader(expectedSchema, fileSchema, rowType, idToConstant),
                expectedSchema);
    }

    private static final class ReadBuilder extends TypeWithSchemaVisitor<ParquetValueReader<?>> {
        private final MessageType fileSchema;
        private final Map<Integer, Object> idToConstant;

        private ReadBuilder(MessageType fileSchema, Map<Integer, Object> idToConstant) {
            this.fileSchema = fileSchema;
            this.idToConstant = idToConstant;
        }

        @Override
        public ParquetValueReader<?> message(
                Types.StructType expected,
                MessageType message,
                List<ParquetValueReader<?>> fieldReaders) {
            FileFields fileFields = new FileFields(message, fieldReaders);
            int constantDefinitionLevel = fileSchema.getMaxDefinitionLevel(currentPath());
            List<Types.NestedField> fields = expected.fields();
            List<ParquetBinaryRowReader.Field> rowFields = new ArrayList<>(fields.size());
            for (Types.NestedField field : fields) {
                ParquetValueReader<?> fileReader = fileFields.readersById.get(field.fieldId());
                ParquetValueReader<?> reader =
                        fieldReader(field, fileReader, constantDefinitionLevel);
                ParquetBinaryRowReader.Field direct = fileFields.directById.get(field.fieldId());
                // a column the file has and no metadata reader or constant replaces
                rowFields.add(
                        reader == fileReader && direct != null
                                ? direct.batchedBy(
                                        ParquetBatchedColumns.forColumn(
                                                field.type().asPrimitiveType(),
                                                fileFields.descriptorsById.get(field.fieldId())))
                                : ParquetBinaryRowReader.Field.value(reader));
            }
            return new ParquetBinaryRowReader(
                    IcebergToFlinkTypeConverter.convertStruct(expected), rowFields);
        }

        @Override
        public ParquetValueReader<?> struct(
                Types.StructType expected,
                GroupType struct,
                List<ParquetValueReader<?>> fieldReaders) {
            if (expected == null) {
                return null; // not projected
            }
            FileFields fileFields = new FileFields(struct, fieldReaders);
            int constantDefinitionLevel = fileSchema.getMaxDefinitionLevel(currentPath());
            List<Types.NestedField> fields = expected.fields();
            List<ParquetValueReader<?>> readers = new ArrayList<>(fields.size());
            for (Types.NestedField field : fields) {
                readers.add(
                        fieldReader(
                                field,
                                fileFields.readersById.get(field.fieldId()),
                                constantDefinitionLevel));
            }
            return ParquetNestedReaders.row(readers, fields.size());
        }

        /**
         * The reader of an expected field: its metadata reader or constant, else the file's column
         * ({@code fileReader}, null when the file has none), else its default or nulls.
         */
        private ParquetValueReader<?> fieldReader(
                Types.NestedField field,
                ParquetValueReader<?> fileReader,
                int constantDefinitionLevel) {
            ParquetValueReader<?> reader =
                    ParquetValueReaders.replaceWithMetadataReader(
                            field.fieldId(), fileReader, idToConstant, constantDefinitionLevel);
            return reader != null ? reader : missing(field, constantDefinitionLevel);
        }

        /** The readers of the fields of one file struct, by Iceberg field id. */
        private final class FileFields {
            /** Option-wrapped readers of the projected fields. */
            private final Map<Integer, ParquetValueReader<?>> readersById = new HashMap<>();

            /** The primitive fields among them, for reading straight into a binary row. */
            private final Map<Integer, ParquetBinaryRowReader.Field> directById = new HashMap<>();

            /** The file columns of those primitive fields. */
            private final Map<Integer, ColumnDescriptor> descriptorsById = new HashMap<>();

            private FileFields(GroupType struct, List<ParquetValueReader<?>> fieldReaders) {
                for (int i = 0; i < fieldReaders.size(); i++) {
                    ParquetValueReader<?> reader = fieldReaders.get(i);
                    org.apache.parquet.schema.Type fieldType = struct.getType(i);
                    if (reader != null && fieldType.getId() != null) {
                        int id = fieldType.getId().intValue();
                        int definitionLevel =
                                fileSchema.getMaxDefinitionLevel(path(fieldType.getName())) - 1;
                        readersById.put(
                                id, ParquetValueReaders.option(fieldType, definitionLevel, reader));
                        if (reader instanceof ParquetLeafReader<?> leaf) {
                            directById.put(
                                    id, ParquetBinaryRowReader.Field.direct(leaf, definitionLevel));
                            descriptorsById.put(
                                    id, fileSchema.getColumnDescription(path(fieldType.getName())));
                        }
                    }
                }
            }
        }

        private ParquetValueReader<?> missing(Types.NestedField field, int definitionLevel) {
            if (field.initialDefault() != null) {
                return ParquetValueReaders.constant(
                        RowDataConstants.convert(field.type(), field.initialDefault()),
                        definitionLevel);
            } else if (field.isOptional()) {
                return ParquetValueReaders.nulls();
            }
            throw new IllegalArgumentException(
                    String.format(
                            "Missing required column '%s' (id %d): the file has no such column"
                                    + " and it has no constant or initial default",
                            columnName(field.name()), field.fieldId()));
        }

        @Override
        public ParquetValueReader<?> list(
                Types.ListType expected, GroupType array, ParquetValueReader<?> elementReader) {
            if (expected == null) {
                return null;
            }
            org.apache.parquet.schema.Type repeated = array.getType(0);
            org.apache.parquet.schema.Type element =
                    ParquetSchemaUtil.determineListElementType(array);
            // Three-level lists are visited with the repeated group on the path; legacy two-level
            // lists, whose repeated field is the element itself, are not.
            boolean twoLevel = element == repeated;
            String[] repeatedPath = twoLevel ? path(repeated.getName()) : currentPath();
            int definitionLevel = fileSchema.getMaxDefinitionLevel(repeatedPath) - 1;
            int repetitionLevel = fileSchema.getMaxRepetitionLevel(repeatedPath) - 1;
            ParquetValueReader<?> reader =
                    twoLevel
                            ? elementReader
                            : ParquetValueReaders.option(
                                    element,
                                    fileSchema.getMaxDefinitionLevel(path(element.getName())) - 1,
                                    elementReader);
            return ParquetNestedReaders.array(definitionLevel, repetitionLevel, reader);
        }

        @Override
        public ParquetValueReader<?> map(
                Types.MapType expected,
                GroupType map,
                ParquetValueReader<?> keyReader,
                ParquetValueReader<?> valueReader) {
            if (expected == null) {
                return null;
            }
            // The visitor calls map() with the repeated key_value group on the path.
            String[] repeatedPath = currentPath();
            GroupType repeated = map.getType(0).asGroupType();
            org.apache.parquet.schema.Type keyType = repeated.getType(0);
            org.apache.parquet.schema.Type valueType = repeated.getType(1);
            return ParquetNestedReaders.map(
                    fileSchema.getMaxDefinitionLevel(repeatedPath) - 1,
                    fileSchema.getMaxRepetitionLevel(repeatedPath) - 1,
                    ParquetValueReaders.option(
                            keyType,
                            fileSchema.getMaxDefinitionLevel(path(keyType.getName())) - 1,
                            keyReader),
                    ParquetValueReaders.option(
                            valueType,
                            fileSchema.getMaxDefinitionLevel(path(valueType.getName())) - 1,
                            valueReader));
        }

        @Override
        public ParquetVariantVisitor<ParquetValueReader<?>> variantVisitor() {
            // Iceberg's reader of the variant group, shredded or not, at the current path
            return new VariantReaderBuilder(fileSchema, Arrays.asList(currentPath()));
        }

        @Override
        public ParquetValueReader<?> variant(
                Types.VariantType expected, GroupType group, ParquetValueReader<?> result) {
            if (expected == null) {
                return null;
            }
            return ParquetVariantValues.reader(result);
        }

        @Override
        public ParquetValueReader<?> primitive(Type.PrimitiveType expected, PrimitiveType prim) {
            if (expected == null) {
                return null; // not projected
            }
            ColumnDescriptor desc = fileSchema.getColumnDescription(currentPath());
            switch (expected.typeId()) {
                case BOOLEAN:
                    return ParquetLeafReaders.booleans(desc);
                case INTEGER:
                case DATE:
                    return ParquetLeafReaders.ints(desc);
                case FLOAT:
                    return ParquetLeafReaders.floats(desc);
                case LONG:
                    return prim.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT32
                            ? ParquetLeafReaders.intsAsLongs(desc)
                            : ParquetLeafReaders.longs(desc);
                case DOUBLE:
                    return prim.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.FLOAT
                            ? ParquetLeafReaders.floatsAsDoubles(desc)
                            : ParquetLeafReaders.doubles(desc);
                case TIME:
                    return ParquetLeafReaders.timeMillis(desc, timeUnit(prim));
                case TIMESTAMP:
                case TIMESTAMP_NANO:
                    if (prim.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT96) {
                        return ParquetLeafReaders.int96Timestamps(desc);
                    }
                    return ParquetLeafReaders.timestamps(desc, timeUnit(prim));
                case STRING:
                    return ParquetLeafReaders.strings(desc);
                case UUID:
                case FIXED:
                case BINARY:
                    return ParquetLeafReaders.bytes(desc);
                case DECIMAL:
                    return decimalReader(desc, (Types.DecimalType) expected, prim);
                default:
                    throw new UnsupportedOperationException(
                            String.format(
                                    "Column '%s': the Flink connector cannot read Iceberg type %s"
                                            + " from Parquet",
                                    String.join(".", currentPath()), expected));
            }
        }

        private ParquetValueReader<?> decimalReader(
                ColumnDescriptor desc, Types.DecimalType decimal, PrimitiveType prim) {
            int precision = decimal.precision();
            int scale = decimal.scale();
            switch (prim.getPrimitiveTypeName()) {
                case INT32:
                    return ParquetLeafReaders.decimalFromInt(desc, precision, scale);
                case INT64:
                    return ParquetLeafReaders.decimalFromLong(desc, precision, scale);
                case FIXED_LEN_BYTE_ARRAY:
                case BINARY:
                    return ParquetLeafReaders.decimalFromBinary(desc, precision, scale);
                default:
                    throw new UnsupportedOperationException(
                            String.format(
                                    "Column '%s': cannot read %s from Parquet %s",
                                    String.join(".", currentPath()),
                                    decimal,
                                    prim.getPrimitiveTypeName()));
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
                            String.join(".", currentPath()), prim));
        }

        private String columnName(String name) {
            return String.join(".", path(name));
        }
    }
}
