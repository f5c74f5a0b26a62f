package dev.icebergflink.data.parquet;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.formats.FormatModel;
import org.apache.iceberg.parquet.ParquetFormatModel;

/**
 * The Parquet {@link FormatModel} for Flink {@link RowData} with engine schema {@link RowType}.
 *
 * <p>It exists so that Iceberg's File Format API can write and read Flink rows in Parquet files:
 * once registered with {@code FormatModelRegistry}, the sink writes through {@code
 * RegistryBasedFileWriterFactory<RowData, RowType>} and the source reads through {@code
 * FormatModelRegistry.readBuilder(FileFormat.PARQUET, RowData.class, file)}. Writing uses {@link
 * ParquetRowDataWriters} (the engine schema, when given, is the Flink type of the incoming rows);
 * reading uses {@link ParquetRowDataReaders} (the engine projection, when given, must have one
 * field per projected column), row by row or, through {@link #createBatched()}, in batches.
 * Registration is left to the caller, so that every format is registered in one place.
 */
@Internal
public final class ParquetRowDataFormatModel {

    private ParquetRowDataFormatModel() {}

    /**
     * A new Parquet format model for batches of {@code RowData} (Iceberg's batched read path, read
     * only); register it once per JVM. {@code RowDataFileReaders} reads Parquet through it.
     */
    public static FormatModel<ParquetRowBatch, RowType> createBatched() {
        return ParquetFormatModel.create(
                ParquetRowBatch.class, RowType.class, ParquetRowDataReaders::buildBatchReader);
    }

    /** A new Parquet format model for {@code RowData}; register it once per JVM. */
    public static FormatModel<RowData, RowType> create() {
        return ParquetFormatModel.create(
                RowData.class,
                RowType.class,
                ParquetRowDataWriters::buildWriter,
                ParquetRowDataReaders::buildReader);
    }
}
