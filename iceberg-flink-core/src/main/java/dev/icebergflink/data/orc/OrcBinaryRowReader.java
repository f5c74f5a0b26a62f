package dev.icebergflink.data.orc;

import dev.icebergflink.data.row.BinaryRowBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.orc.ORCSchemaUtil;
import org.apache.iceberg.orc.OrcValueReader;
import org.apache.iceberg.orc.OrcValueReaders;
import org.apache.iceberg.types.Types;
import org.apache.orc.TypeDescription;
import org.apache.orc.storage.ql.exec.vector.ColumnVector;
import org.apache.orc.storage.ql.exec.vector.StructColumnVector;

/**
 * Reads the top-level rows of an ORC file as {@link BinaryRowData}, built with a {@link
 * BinaryRowBuilder}.
 *
 * <p>Primitive columns read from the file are decoded by {@link BinaryColumnReaders} straight from
 * their column vectors into the row being built, in one tight loop. All other fields keep the value
 * readers the schema visitor chose and go through {@link BinaryRowBuilder#setValue}: nested
 * columns, constants (partition values, {@code _file}, ...), defaults, columns missing from the
 * file, and the metadata columns ({@code _pos}, {@code _deleted}, row lineage). Those are read by
 * an Iceberg {@link OrcValueReaders.StructReader} over just these fields, which matches them to the
 * file by field id and picks the constant and metadata readers exactly as for nested structs.
 */
final class OrcBinaryRowReader implements OrcValueReader<RowData> {

    private final BinaryRowBuilder builder;

    /** The readers of primitive file columns, and the index of each one's ORC column. */
    private final BinaryColumnReaders.ColumnReader[] columns;

    private final int[] columnIndexes;

    /** The reader of all other fields, or null when every field is a primitive file column. */
    private final OtherFieldsReader others;

    /** The top-level decimal columns of compact precision, which ORC can decode as longs. */
    private final Decimal64Vectors compactDecimals;

    private OrcBinaryRowReader(
            BinaryRowBuilder builder,
            List<BinaryColumnReaders.ColumnReader> columns,
            List<Integer> columnIndexes,
            OtherFieldsReader others,
            Decimal64Vectors compactDecimals) {
        this.builder = builder;
        this.columns = columns.toArray(new BinaryColumnReaders.ColumnReader[0]);
        this.columnIndexes = columnIndexes.stream().mapToInt(Integer::intValue).toArray();
        this.others = others;
        this.compactDecimals = compactDecimals;
    }

    /**
     * A reader of rows of {@code struct} from the ORC struct {@code orcType}, whose children are
     * read by {@code fieldReaders} (in ORC order) when they are not primitive columns; rows are
     * built by {@code builder}, which must have one field per field of {@code struct}.
     */
    static OrcBinaryRowReader build(
            TypeDescription orcType,
            List<OrcValueReader<?>> fieldReaders,
            Types.StructType struct,
            Map<Integer, ?> idToConstant,
            BinaryRowBuilder builder) {
        List<Types.NestedField> fields = struct.fields();
        if (builder.arity() != fields.size()) {
            throw new IllegalArgumentException(
                    String.format(
                            "The row builder has %d fields but the rows read have %d: %s",
                            builder.arity(), fields.size(), struct));
        }
        Map<Integer, Integer> positions = new HashMap<>();
        for (int pos = 0; pos < fields.size(); pos++) {
            positions.put(fields.get(pos).fieldId(), pos);
        }
        List<BinaryColumnReaders.ColumnReader> columns = new ArrayList<>();
        List<Integer> columnIndexes = new ArrayList<>();
        List<Types.DecimalType> decimalTypes = new ArrayList<>();
        List<Integer> decimalIndexes = new ArrayList<>();
        boolean[] decoded = new boolean[fields.size()];
        List<TypeDescription> children = orcType.getChildren();
        for (int index = 0; index < children.size(); index++) {
            int fieldId = ORCSchemaUtil.fieldId(children.get(index));
            Integer pos = positions.get(fieldId);
            if (pos == null || !isPlainFileColumn(fields.get(pos), idToConstant)) {
                continue;
            }
            BinaryColumnReaders.ColumnReader column =
                    BinaryColumnReaders.forType(
                            fields.get(pos).type().asPrimitiveType(), builder, pos);
            if (column != null) {
                columns.add(column);
                columnIndexes.add(index);
                decoded[pos] = true;
                if (fields.get(pos).type() instanceof Types.DecimalType decimal
                        && DecimalData.isCompact(decimal.precision())) {
                    decimalTypes.add(decimal);
                    decimalIndexes.add(index);
                }
            }
        }
        List<Types.NestedField> otherFields = new ArrayList<>();
        List<Integer> otherPositions = new ArrayList<>();
        for (int pos = 0; pos < fields.size(); pos++) {
            if (!decoded[pos]) {
                otherFields.add(fields.get(pos));
                otherPositions.add(pos);
            }
        }
        OtherFieldsReader others =
                otherFields.isEmpty()
                        ? null
                        : new OtherFieldsReader(
                                orcType,
                                fieldReaders,
                                Types.StructType.of(otherFields),
                                idToConstant,
                                otherPositions,
                                builder);
        Decimal64Vectors compactDecimals =
                new Decimal64Vectors(
                        decimalIndexes.stream().mapToInt(Integer::intValue).toArray(),
                        decimalTypes.stream().mapToInt(Types.DecimalType::precision).toArray(),
                        decimalTypes.stream().mapToInt(Types.DecimalType::scale).toArray());
        return new OrcBinaryRowReader(builder, columns, columnIndexes, others, compactDecimals);
    }

    /**
     * The replacements of the top-level compact decimal columns' vectors by {@code
     * Decimal64ColumnVector}s; one per reader, for the one batch object the reader is given.
     */
    Decimal64Vectors compactDecimals() {
        return compactDecimals;
    }

    /**
     * Whether a field is a primitive column whose values come from the file as they are. Not so:
     * constants (a partition column may also be in the file), and metadata columns, whose readers
     * Iceberg replaces or wraps (row lineage falls back to computed values for nulls in the file).
     */
    private static boolean isPlainFileColumn(Types.NestedField field, Map<Integer, ?> constants) {
        return field.type().isPrimitiveType()
                && !constants.containsKey(field.fieldId())
                && !MetadataColumns.isMetadataColumn(field.fieldId());
    }

    /** Reads the row at {@code row} of a batch's top-level columns. */
    RowData readRow(StructColumnVector topLevelColumns, int row) {
        builder.begin();
        ColumnVector[] vectors = topLevelColumns.fields;
        for (int i = 0; i < columns.length; i++) {
            columns[i].read(vectors[columnIndexes[i]], row);
        }
        if (others != null) {
            others.nonNullRead(topLevelColumns, row);
        }
        return builder.finish();
    }

    @Override
    public RowData nonNullRead(ColumnVector vector, int row) {
        return readRow((StructColumnVector) vector, row);
    }

    @Override
    public void setBatchContext(long batchOffsetInFile) {
        if (others != null) {
            others.setBatchContext(batchOffsetInFile);
        }
    }

    /**
     * Iceberg's struct reader over the fields not decoded as columns, setting them by value into
     * the row being built.
     */
    private static final class OtherFieldsReader
            extends OrcValueReaders.StructReader<BinaryRowBuilder> {
        private final int[] positions;
        private final BinaryRowBuilder builder;

        private OtherFieldsReader(
                TypeDescription orcType,
                List<OrcValueReader<?>> fieldReaders,
                Types.StructType otherFields,
                Map<Integer, ?> idToConstant,
                List<Integer> positions,
                BinaryRowBuilder builder) {
            super(orcType, fieldReaders, otherFields, idToConstant);
            this.positions = positions.stream().mapToInt(Integer::intValue).toArray();
            this.builder = builder;
        }

        /** The row being built (begun by the top-level reader): fields are set into it. */
        @Override
        protected BinaryRowBuilder create() {
            return builder;
        }

        @Override
        protected void set(BinaryRowBuilder row, int pos, Object value) {
            row.setValue(positions[pos], value);
        }
    }
}
