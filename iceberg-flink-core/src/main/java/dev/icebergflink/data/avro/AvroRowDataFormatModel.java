package dev.icebergflink.data.avro;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.avro.AvroFormatModel;
import org.apache.iceberg.formats.FormatModel;

/**
 * The Avro {@link FormatModel} for Flink {@link RowData} with engine schema {@link RowType}: it
 * plugs {@link AvroRowDataWriter} and {@link AvroRowDataReader} into Iceberg's File Format API, so
 * that writers ({@code RegistryBasedFileWriterFactory<RowData, RowType>}) and readers ({@code
 * FormatModelRegistry.readBuilder(FileFormat.AVRO, RowData.class, file)}) handle Avro files like
 * Parquet and ORC ones.
 *
 * <p>This class only creates the model; registering it with {@code FormatModelRegistry} is left to
 * the one place that registers every format.
 */
@Internal
public final class AvroRowDataFormatModel {

    private AvroRowDataFormatModel() {}

    /**
     * A new Avro format model for {@link RowData}. The write builder's engine schema is the Flink
     * row type of the written rows (null means {@code FlinkSchemaUtil.convert(schema)}); the read
     * builder needs {@code project(schema)}, and its engine projection, when given, is checked
     * against it. Constants passed with {@code idToConstant} must be Flink internal values.
     */
    public static FormatModel<RowData, RowType> create() {
        return AvroFormatModel.create(
                RowData.class,
                RowType.class,
                (schema, avroSchema, rowType) ->
                        AvroRowDataWriter.create(schema, avroSchema, rowType),
                (schema, fileSchema, rowType, idToConstant) ->
                        AvroRowDataReader.create(schema, rowType, idToConstant));
    }
}
