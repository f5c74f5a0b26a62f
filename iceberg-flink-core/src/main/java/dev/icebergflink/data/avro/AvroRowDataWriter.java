package dev.icebergflink.data.avro;

import dev.icebergflink.data.row.RequiredFieldCheck;
import dev.icebergflink.types.IcebergToFlinkTypeConverter;
import java.io.IOException;
import java.util.Objects;
import java.util.stream.Stream;
import org.apache.avro.io.Encoder;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FieldMetrics;
import org.apache.iceberg.Schema;
import org.apache.iceberg.avro.MetricsAwareDatumWriter;
import org.apache.iceberg.avro.ValueWriter;

/**
 * The Avro {@link org.apache.avro.io.DatumWriter} for Flink {@link RowData}: it writes rows of a
 * Flink {@link RowType} into Avro files of an Iceberg schema, with Iceberg's Avro conventions
 * (field ids, fixed-length decimals, long micro- or nanosecond timestamps, fixed(16) uuids, maps
 * with non-string keys as arrays of key/value records).
 *
 * <p>The row type may differ from {@code
 * IcebergToFlinkTypeConverter.convertStruct(schema.asStruct())} where Flink has narrower types:
 * TINYINT and SMALLINT columns go to Iceberg int (or long), CHAR and VARCHAR to string, FLOAT to
 * double, TIMESTAMP/TIMESTAMP_LTZ of any precision to the matching Iceberg timestamp, and MULTISET
 * to map&lt;element, int&gt;. Columns are matched by position; each row field must match the
 * Iceberg field at the same position.
 *
 * <p>Iceberg 1.11 keeps only the record count for Avro data files (it collects no column bounds
 * from Avro writers), so {@link #metrics()} reports what the value writers report, which today is
 * nothing, exactly as Iceberg's own generic Avro writer does.
 */
@Internal
public final class AvroRowDataWriter implements MetricsAwareDatumWriter<RowData> {

    private final Schema schema;
    private final RowType rowType;
    private final RequiredFieldCheck requiredFields;
    private org.apache.avro.Schema avroSchema;
    private ValueWriter<RowData> writer;

    private AvroRowDataWriter(Schema schema, RowType rowType) {
        this.schema = Objects.requireNonNull(schema, "Iceberg schema to write");
        this.rowType =
                rowType != null
                        ? rowType
                        : IcebergToFlinkTypeConverter.convertStruct(schema.asStruct());
        this.requiredFields = RequiredFieldCheck.of(schema, this.rowType);
    }

    /**
     * A writer of rows of {@code rowType} into Avro files of {@code schema}.
     *
     * @param schema the Iceberg schema of the file
     * @param avroSchema the Avro schema Iceberg derived from {@code schema}, or null to set it
     *     later through {@link #setSchema}
     * @param rowType the Flink type of the rows, or null for {@code
     *     IcebergToFlinkTypeConverter.convertStruct(schema.asStruct())}
     */
    public static AvroRowDataWriter create(
            Schema schema, org.apache.avro.Schema avroSchema, RowType rowType) {
        AvroRowDataWriter writer = new AvroRowDataWriter(schema, rowType);
        if (avroSchema != null) {
            writer.setSchema(avroSchema);
        }
        return writer;
    }

    @Override
    public void setSchema(org.apache.avro.Schema newSchema) {
        if (writer == null || !newSchema.equals(avroSchema)) {
            this.writer = AvroWriterTreeBuilder.build(schema, newSchema, rowType);
            this.avroSchema = newSchema;
        }
    }

    /**
     * Encodes {@code row}.
     *
     * @throws IllegalArgumentException naming the column when the row holds a NULL in a required
     *     field, before anything of the row is encoded
     */
    @Override
    public void write(RowData row, Encoder encoder) throws IOException {
        if (writer == null) {
            throw new IllegalStateException("setSchema must be called before writing rows");
        }
        requiredFields.check(row);
        writer.write(row, encoder);
    }

    @Override
    public Stream<FieldMetrics> metrics() {
        return writer != null ? writer.metrics() : Stream.empty();
    }

    /** The Flink row type this writer accepts. */
    public RowType rowType() {
        return rowType;
    }
}
