package dev.icebergflink.data.parquet;

import dev.icebergflink.data.FormatRequiredFieldsSuite;
import org.apache.iceberg.FileFormat;

/** NULLs in required fields never reach a Parquet file. */
class ParquetRequiredFieldsTest extends FormatRequiredFieldsSuite {

    @Override
    protected FileFormat format() {
        return FileFormat.PARQUET;
    }
}
