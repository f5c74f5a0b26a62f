package dev.icebergflink.data.avro;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.data.row.EngineProjections;
import dev.icebergflink.data.row.RowDataConstants;
import dev.icebergflink.types.IcebergToFlinkTypeConverter;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.Decoder;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.avro.AvroWithPartnerVisitor;
import org.apache.iceberg.avro.SupportsRowPosition;
import org.apache.iceberg.avro.ValueReader;

/**
 * The Avro {@link DatumReader} that reads Iceberg data files into Flink {@link RowData} of an
 * expected (projected) Iceberg schema. Once Avro hands it the file's schema, it plans the read by
 * field id, as Iceberg's generic planned reader does: file columns the projection lacks are
 * skipped, expected columns the file lacks come from {@code idToConstant} (partition values, {@code
 * _file}, ...), from the field's initial default, from the row position ({@code _pos}), or are
 * null; renamed columns are found by id; int to long, float to double and decimal precision
 * widening are applied.
 *
 * <p>Rows are {@link org.apache.flink.table.data.binary.BinaryRowData} of the Flink row type of the
 * expected schema ({@link FlinkSchemaUtil#convert(Schema)}), each one new and independent of the
 * others (the {@code reuse} argument of {@link #read} is ignored): Flink copies a binary row with
 * one array copy. Top-level primitive columns are decoded straight into the binary layout; nested
 * rows, arrays and maps inside are {@code GenericRowData}, {@code GenericArrayData} and {@code
 * GenericMapData} before they are serialized into it, so their getters return binary data.
 *
 * <p>Values in {@code idToConstant} may be Iceberg internal values or Flink internal values; they
 * are converted with {@link RowDataConstants}.
 */
@Internal
public final class AvroRowDataReader implements DatumReader<RowData>, SupportsRowPosition {

    private final Schema expectedSchema;
    private final RowType rowType;
    private final Map<Integer, ?> idToConstant;
    private ValueReader<RowData> reader;
    private Supplier<Long> positionSupplier;

    private AvroRowDataReader(Schema expectedSchema, Map<Integer, ?> idToConstant) {
        this.expectedSchema = Objects.requireNonNull(expectedSchema, "expected (projected) schema");
        this.rowType = IcebergToFlinkTypeConverter.convertStruct(expectedSchema.asStruct());
        this.idToConstant = RowDataConstants.convertAll(expectedSchema, idToConstant);
    }

    /**
     * A reader of rows of {@code expectedSchema}.
     *
     * @param expectedSchema the projected Iceberg schema the rows have
     * @param engineProjection the Flink type of the rows, or null; when given it must have one
     *     field per column of {@code expectedSchema}
     * @param idToConstant values for field ids that are not read from the file (Iceberg or Flink
     *     internal values); may be null
     */
    public static AvroRowDataReader create(
            Schema expectedSchema, RowType engineProjection, Map<Integer, ?> idToConstant) {
        if (expectedSchema == null) {
            throw new IllegalArgumentException(
                    "Reading Avro files into Flink rows needs the projected Iceberg schema: call"
                            + " project(schema) on the read builder");
        }
        EngineProjections.requireMatching(engineProjection, expectedSchema);
        return new AvroRowDataReader(expectedSchema, idToConstant);
    }

    /** The shorthand for {@code create(expectedSchema, null, Map.of())}. */
    public static AvroRowDataReader create(Schema expectedSchema) {
        return create(expectedSchema, null, Map.of());
    }

    @Override
    @SuppressWarnings("unchecked")
    public void setSchema(org.apache.avro.Schema fileSchema) {
        this.reader =
                (ValueReader<RowData>)
                        AvroWithPartnerVisitor.visit(
                                expectedSchema.asStruct(),
                                fileSchema,
                                new AvroReaderTreeBuilder(
                                        expectedSchema.asStruct(), rowType, idToConstant),
                                AvroWithPartnerVisitor.FieldIDAccessors.get());
        if (positionSupplier != null) {
            setRowPositionSupplier(positionSupplier);
        }
    }

    @Override
    public RowData read(RowData reuse, Decoder decoder) throws IOException {
        if (reader == null) {
            throw new IllegalStateException("setSchema must be called before reading rows");
        }
        return reader.read(decoder, reuse);
    }

    @Override
    public void setRowPositionSupplier(Supplier<Long> newPositionSupplier) {
        this.positionSupplier = newPositionSupplier;
        if (reader instanceof SupportsRowPosition) {
            ((SupportsRowPosition) reader).setRowPositionSupplier(newPositionSupplier);
        }
    }
}
