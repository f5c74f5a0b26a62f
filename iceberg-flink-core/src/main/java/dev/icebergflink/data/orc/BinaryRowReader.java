package dev.icebergflink.data.orc;

import dev.icebergflink.data.BinaryRowBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.orc.ORCSchemaUtil;
import org.apache.iceberg.orc.OrcValueReader;
import org.apache.iceberg.orc.OrcValueReaders;
import org.apache.iceberg.types.Types;
import org.apache.orc.TypeDescription;
import org.apache.orc.storage.ql.exec.vector.StructColumnVector;

/**
 * Reads the top-level rows of an ORC file as {@link BinaryRowData}, built with a {@link
 * BinaryRowBuilder}.
 *
 * <p>Primitive columns read from the file are decoded by {@link BinaryColumnReaders} straight into
 * the row being built. Everything else keeps the value readers the visitor chose and goes through
 * {@link BinaryRowBuilder#setValue}: nested columns, constants (partition values, {@code _file},
 * ...), defaults, missing columns, and the metadata columns ({@code _pos}, {@code _deleted}, row
 * lineage). Matching columns to the file by field id, and choosing those constant and metadata
 * readers, is left to Iceberg's {@link OrcValueReaders.StructReader}, exactly as for nested
 * structs.
 */
final class BinaryRowReader extends OrcValueReaders.StructReader<BinaryRowBuilder> {

    private final BinaryRowBuilder builder;

    /** The fields whose reader writes them into the builder itself. */
    private final boolean[] writtenByReader;

    private BinaryRowReader(
            TypeDescription orcType,
            List<OrcValueReader<?>> fieldReaders,
            Types.StructType struct,
            Map<Integer, ?> idToConstant,
            BinaryRowBuilder builder) {
        super(orcType, fieldReaders, struct, idToConstant);
        this.builder = builder;
        this.writtenByReader = new boolean[struct.fields().size()];
        for (int pos = 0; pos < writtenByReader.length; pos++) {
            // the struct reader may have put a constant or metadata reader in a column's place
            writtenByReader[pos] =
                    reader(pos) instanceof BinaryColumnReaders.ColumnReader column
                            && column.position() == pos;
        }
    }

    /**
     * A reader of rows of {@code struct} from the ORC struct {@code orcType}, whose children are
     * read by {@code fieldReaders} (in ORC order); rows are built by {@code builder}, which must
     * have one field per field of {@code struct}.
     */
    static BinaryRowReader build(
            TypeDescription orcType,
            List<OrcValueReader<?>> fieldReaders,
            Types.StructType struct,
            Map<Integer, ?> idToConstant,
            BinaryRowBuilder builder) {
        if (builder.arity() != struct.fields().size()) {
            throw new IllegalArgumentException(
                    String.format(
                            "The row builder has %d fields but the rows read have %d: %s",
                            builder.arity(), struct.fields().size(), struct));
        }
        return new BinaryRowReader(
                orcType,
                withColumnReaders(orcType, fieldReaders, struct, idToConstant, builder),
                struct,
                idToConstant,
                builder);
    }

    /** Reads the row at {@code row} of the batch's top-level columns. */
    RowData readRow(StructColumnVector columns, int row) {
        return nonNullRead(columns, row).finish();
    }

    @Override
    protected BinaryRowBuilder create() {
        builder.begin();
        return builder;
    }

    @Override
    protected void set(BinaryRowBuilder row, int pos, Object value) {
        if (!writtenByReader[pos]) {
            row.setValue(pos, value);
        }
    }

    /**
     * Replaces the readers of primitive file columns by readers that write into the builder. Left
     * alone: constants (a partition column may also be in the file), and metadata columns, whose
     * readers Iceberg replaces or wraps (row lineage falls back to computed values when the file's
     * value is null, so its file reader must return values).
     */
    private static List<OrcValueReader<?>> withColumnReaders(
            TypeDescription orcType,
            List<OrcValueReader<?>> fieldReaders,
            Types.StructType struct,
            Map<Integer, ?> idToConstant,
            BinaryRowBuilder builder) {
        Map<Integer, Integer> positions = new HashMap<>();
        List<Types.NestedField> fields = struct.fields();
        for (int pos = 0; pos < fields.size(); pos++) {
            positions.put(fields.get(pos).fieldId(), pos);
        }
        List<OrcValueReader<?>> readers = new ArrayList<>(fieldReaders);
        List<TypeDescription> children = orcType.getChildren();
        for (int i = 0; i < children.size() && i < readers.size(); i++) {
            int fieldId = ORCSchemaUtil.fieldId(children.get(i));
            Integer pos = positions.get(fieldId);
            if (pos == null
                    || idToConstant.containsKey(fieldId)
                    || MetadataColumns.isMetadataColumn(fieldId)
                    || !fields.get(pos).type().isPrimitiveType()) {
                continue;
            }
            BinaryColumnReaders.ColumnReader column =
                    BinaryColumnReaders.forType(
                            fields.get(pos).type().asPrimitiveType(), builder, pos);
            if (column != null) {
                readers.set(i, column);
            }
        }
        return readers;
    }
}
