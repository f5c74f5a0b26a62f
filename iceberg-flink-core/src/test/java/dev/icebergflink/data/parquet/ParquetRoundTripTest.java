package dev.icebergflink.data.parquet;

import dev.icebergflink.data.FormatRoundTripSuite;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.formats.FormatModel;

/**
 * The shared round-trip, compatibility and metrics suite, for Parquet files. The reader builds
 * every top-level row as a new binary row, so it ignores {@code reuseContainers()}.
 */
class ParquetRoundTripTest extends FormatRoundTripSuite {

    @Override
    protected FileFormat format() {
        return FileFormat.PARQUET;
    }

    @Override
    protected FormatModel<RowData, RowType> createModel() {
        return ParquetRowDataFormatModel.create();
    }

    @Override
    protected boolean reusesContainers() {
        return false;
    }
}
