package dev.icebergflink.source.reader;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.data.avro.AvroRowDataWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.formats.avro.typeutils.GenericRecordAvroTypeInfo;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.avro.AvroSchemaUtil;

/**
 * Emits Avro {@link GenericRecord}s whose Avro schema is the one Iceberg derives from the projected
 * schema ({@link AvroSchemaUtil#convert(org.apache.iceberg.Schema, String)}, with field ids,
 * Iceberg's logical types and maps with non-string keys as arrays of key/value records), for jobs
 * that continue with Avro.
 *
 * <p>Each row is encoded with this connector's Avro RowData writer, the same one that writes Avro
 * data files, and decoded with Avro's generic reader, so the records hold exactly what an Iceberg
 * Avro file of the projected schema would hold (Avro's generic representation: {@code Utf8}
 * strings, {@code long} micros for timestamps, {@code GenericFixed} for uuid and fixed). The
 * produced type is flink-avro's {@link GenericRecordAvroTypeInfo}, so flink-avro must be on the
 * job's class path when this converter is used.
 */
@Internal
public final class AvroGenericRecordConverter implements RowDataConverter<GenericRecord> {

    private static final long serialVersionUID = 1L;

    private final org.apache.iceberg.Schema schema;
    private final String recordName;
    private transient Schema avroSchema;
    private transient AvroRowDataWriter writer;
    private transient GenericDatumReader<GenericRecord> reader;
    private transient ByteArrayOutputStream buffer;
    private transient BinaryEncoder encoder;
    private transient BinaryDecoder decoder;

    /**
     * A converter for rows of the projected Iceberg {@code schema}.
     *
     * @param recordName the Avro record name, typically the table name
     */
    public AvroGenericRecordConverter(org.apache.iceberg.Schema schema, String recordName) {
        this.schema = Objects.requireNonNull(schema, "schema");
        this.recordName = Objects.requireNonNull(recordName, "recordName");
    }

    /** The Avro schema of the emitted records. */
    public Schema avroSchema() {
        if (avroSchema == null) {
            avroSchema = AvroSchemaUtil.convert(schema, recordName);
        }
        return avroSchema;
    }

    @Override
    public GenericRecord convert(RowData row) {
        if (writer == null) {
            writer =
                    AvroRowDataWriter.create(schema, avroSchema(), FlinkSchemaUtil.convert(schema));
            reader = new GenericDatumReader<>(avroSchema());
            buffer = new ByteArrayOutputStream();
        }
        try {
            buffer.reset();
            encoder = EncoderFactory.get().directBinaryEncoder(buffer, encoder);
            writer.write(row, encoder);
            encoder.flush();
            decoder = DecoderFactory.get().binaryDecoder(buffer.toByteArray(), decoder);
            return reader.read(null, decoder);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot convert a row of " + recordName + " to an Avro GenericRecord", e);
        }
    }

    @Override
    public TypeInformation<GenericRecord> getProducedType() {
        return new GenericRecordAvroTypeInfo(avroSchema());
    }
}
