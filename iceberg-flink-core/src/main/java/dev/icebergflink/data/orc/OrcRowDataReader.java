package dev.icebergflink.data.orc;

import dev.icebergflink.data.row.BinaryRowBuilder;
import dev.icebergflink.data.row.RowDataConstants;
import dev.icebergflink.types.IcebergToFlinkTypeConverter;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.orc.OrcRowReader;
import org.apache.iceberg.orc.OrcSchemaWithTypeVisitor;
import org.apache.iceberg.orc.OrcValueReader;
import org.apache.iceberg.orc.OrcValueReaders;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.orc.TypeDescription;
import org.apache.orc.storage.ql.exec.vector.StructColumnVector;
import org.apache.orc.storage.ql.exec.vector.VectorizedRowBatch;

/**
 * Reads ORC row batches into Flink {@link RowData} of an expected (projected) Iceberg schema.
 *
 * <p>Columns are matched to the file by Iceberg field id, so renamed columns are found; columns the
 * file lacks read as null; int to long, float to double and decimal precision widening are applied;
 * {@code idToConstant} values (partition values, {@code _file}, ...) and the metadata columns
 * {@code _pos} and {@code _deleted} fill their columns without touching the file; row lineage
 * columns fall back to the first row id and sequence number where the file has no value.
 *
 * <p>Top-level rows are {@link BinaryRowData}: primitive columns are decoded from ORC's column
 * vectors straight into the binary layout (no boxed values, strings copied once from ORC's buffer),
 * so that Flink's per-record copy between operators is one array copy. Each row handed out is a new
 * object that stays valid after later rows and batches are read. Values follow the connector's
 * conventions: strings, decimals and timestamps read as {@code StringData}, {@code DecimalData} and
 * {@code TimestampData}, int millis for time, byte[] for uuid/fixed/binary; nested values are
 * {@code GenericRowData}/{@code GenericArrayData}/{@code GenericMapData} inside the binary row.
 */
@Internal
public final class OrcRowDataReader implements OrcRowReader<RowData> {

    private final OrcBinaryRowReader reader;
    private final Decimal64Vectors compactDecimals;
    private ColumnVectorsView batchView;

    /**
     * Whether rows are read through Iceberg's iterator, which calls {@link #setBatchContext} after
     * each batch is decoded and before its rows are read; only then are vectors replaced.
     */
    private boolean batchContexts;

    private OrcRowDataReader(OrcBinaryRowReader reader) {
        this.reader = reader;
        this.compactDecimals = reader.compactDecimals();
    }

    /**
     * Builds a reader.
     *
     * @param expectedSchema the Iceberg schema of the rows to produce
     * @param readOrcSchema the ORC schema Iceberg reads the file with (the projection, with ids)
     * @param idToConstant values of constant columns by field id, in Iceberg's or Flink's internal
     *     representation; may be empty
     */
    public static OrcRowReader<RowData> buildReader(
            Schema expectedSchema, TypeDescription readOrcSchema, Map<Integer, ?> idToConstant) {
        Map<Integer, Object> constants = RowDataConstants.convertAll(expectedSchema, idToConstant);
        ReaderBuilder readers =
                new ReaderBuilder(
                        expectedSchema.asStruct(),
                        new BinaryRowBuilder(
                                IcebergToFlinkTypeConverter.convertStruct(
                                        expectedSchema.asStruct())),
                        constants);
        return new OrcRowDataReader(
                (OrcBinaryRowReader)
                        OrcSchemaWithTypeVisitor.visit(expectedSchema, readOrcSchema, readers));
    }

    @Override
    public RowData read(VectorizedRowBatch batch, int row) {
        if (batchView == null || !batchView.wraps(batch)) {
            attach(batch);
        }
        return reader.readRow(batchView.vector, row);
    }

    /**
     * Starts reading a batch object. Under Iceberg's iterator, which decodes every batch into this
     * same object, the view keeps its own copy of the columns (refreshed by {@link
     * #setBatchContext}), so that compact decimal vectors can be replaced for the next batches
     * while this one is still being read.
     */
    private void attach(VectorizedRowBatch batch) {
        boolean replace = batchContexts && !compactDecimals.isEmpty();
        batchView = new ColumnVectorsView(batch, replace);
        if (replace) {
            compactDecimals.install(batch);
        }
    }

    @Override
    public void setBatchContext(long batchOffsetInFile) {
        batchContexts = true;
        reader.setBatchContext(batchOffsetInFile);
        if (batchView != null && batchView.copied) {
            compactDecimals.check(batchView.batch);
            batchView.refresh();
        }
    }

    /** The top-level columns of a batch seen as one struct vector, made once per batch object. */
    private static final class ColumnVectorsView {
        private final VectorizedRowBatch batch;
        private final StructColumnVector vector;

        /** Whether the view has its own copy of the batch's columns, or shares its array. */
        private final boolean copied;

        private ColumnVectorsView(VectorizedRowBatch batch, boolean copied) {
            this.batch = batch;
            this.copied = copied;
            this.vector =
                    new StructColumnVector(
                            batch.getMaxSize(), copied ? batch.cols.clone() : batch.cols);
        }

        private boolean wraps(VectorizedRowBatch other) {
            return batch == other
                    && (copied
                            ? vector.fields.length == other.cols.length
                            : vector.fields == other.cols);
        }

        /** Takes the batch's current columns (after the next batch was decoded). */
        private void refresh() {
            System.arraycopy(batch.cols, 0, vector.fields, 0, vector.fields.length);
        }
    }

    /** Chooses a value reader for every (Iceberg type, ORC type) pair of the projection. */
    private static final class ReaderBuilder extends OrcSchemaWithTypeVisitor<OrcValueReader<?>> {
        private final Types.StructType root;
        private final BinaryRowBuilder rows;
        private final Map<Integer, ?> idToConstant;

        private ReaderBuilder(
                Types.StructType root, BinaryRowBuilder rows, Map<Integer, ?> idToConstant) {
            this.root = root;
            this.rows = rows;
            this.idToConstant = idToConstant;
        }

        @Override
        public OrcValueReader<?> record(
                Types.StructType struct,
                TypeDescription record,
                List<String> names,
                List<OrcValueReader<?>> fields) {
            if (struct == root) {
                // the top level: binary rows; nested structs stay generic rows inside them
                return OrcBinaryRowReader.build(record, fields, struct, idToConstant, rows);
            }
            return OrcFieldReaders.struct(record, fields, struct, idToConstant);
        }

        @Override
        public OrcValueReader<?> list(
                Types.ListType list, TypeDescription array, OrcValueReader<?> element) {
            return OrcFieldReaders.array(element);
        }

        @Override
        public OrcValueReader<?> map(
                Types.MapType map,
                TypeDescription mapType,
                OrcValueReader<?> key,
                OrcValueReader<?> value) {
            return OrcFieldReaders.map(key, value);
        }

        @Override
        public OrcValueReader<?> variant(
                Types.VariantType variant,
                TypeDescription orcType,
                OrcValueReader<?> metadata,
                OrcValueReader<?> value) {
            throw new UnsupportedOperationException(
                    "The Flink ORC reader does not support the variant type (ORC column "
                            + orcType
                            + ")");
        }

        @Override
        public OrcValueReader<?> primitive(Type.PrimitiveType type, TypeDescription primitive) {
            if (type == null) {
                throw new IllegalArgumentException(
                        "ORC column of type " + primitive + " has no Iceberg type to read it as");
            }
            switch (type.typeId()) {
                case BOOLEAN:
                    return OrcValueReaders.booleans();
                case INTEGER:
                case DATE:
                    return OrcValueReaders.ints();
                case LONG:
                    return OrcValueReaders.longs();
                case FLOAT:
                    return OrcValueReaders.floats();
                case DOUBLE:
                    return OrcValueReaders.doubles();
                case TIME:
                    return OrcFieldReaders.timeMillis();
                case TIMESTAMP:
                case TIMESTAMP_NANO:
                    return OrcFieldReaders.timestamps();
                case STRING:
                    return OrcFieldReaders.strings();
                case UUID:
                case FIXED:
                case BINARY:
                    return OrcValueReaders.bytes();
                case DECIMAL:
                    Types.DecimalType decimal = (Types.DecimalType) type;
                    return OrcFieldReaders.decimals(decimal.precision(), decimal.scale());
                default:
                    throw new UnsupportedOperationException(
                            String.format(
                                    "The Flink ORC reader does not support Iceberg type %s (ORC"
                                            + " column %s)",
                                    type, primitive));
            }
        }
    }
}
