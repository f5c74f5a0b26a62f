package dev.icebergflink.data;

import dev.icebergflink.data.parquet.ParquetRowBatch;
import dev.icebergflink.data.parquet.ParquetScanPushdown;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.formats.ReadBuilder;
import org.apache.iceberg.io.InputFile;

/**
 * The entry point for reading Iceberg data files as Flink {@link RowData}.
 *
 * <p>It returns Iceberg's format-neutral {@link ReadBuilder} bound to this connector's RowData
 * models: set the projected Iceberg schema with {@code project(schema)}, optionally the Flink type
 * of the produced rows with {@code engineProjection(rowType)}, a split range, a filter for row
 * group skipping, constants for partition and metadata columns ({@code idToConstant}), and a name
 * mapping for files written without field ids.
 *
 * <p>Parquet files are read through Iceberg's batched Parquet path, which lets the connector decode
 * plain and dictionary-encoded columns in batches; the builder still returns rows.
 */
@Internal
public final class RowDataFileReaders {

    private RowDataFileReaders() {}

    /**
     * Whether a read builder of {@code format} projecting {@code projected} returns only the rows
     * that match {@code filter}, so that the caller need not evaluate it again. True for Parquet
     * when every column the filter references is projected (the batched reader then filters each
     * row, see {@code ParquetRowBatchReader}); other formats use the filter to skip row groups or
     * stripes only.
     */
    public static boolean filtersExactly(
            FileFormat format, Schema projected, Expression filter, boolean caseSensitive) {
        return format == FileFormat.PARQUET
                && ParquetScanPushdown.bind(projected, filter, caseSensitive) != null;
    }

    /** A read builder for one file of the given format. */
    public static ReadBuilder<RowData, RowType> readBuilder(FileFormat format, InputFile file) {
        Objects.requireNonNull(format, "format must not be null");
        Objects.requireNonNull(file, "file must not be null");
        if (!RowDataFormatModels.supportedFormats().contains(format)) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot read %s: unsupported file format %s; supported formats are %s",
                            file.location(), format, RowDataFormatModels.supportedFormats()));
        }
        RowDataFormatModels.ensureRegistered();
        if (format == FileFormat.PARQUET) {
            return new BatchedParquetRowReadBuilder(
                    FormatModelRegistry.readBuilder(format, ParquetRowBatch.class, file), file);
        }
        return FormatModelRegistry.readBuilder(format, RowData.class, file);
    }
}
