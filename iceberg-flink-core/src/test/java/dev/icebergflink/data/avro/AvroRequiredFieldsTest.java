package dev.icebergflink.data.avro;

import dev.icebergflink.data.FormatRequiredFieldsSuite;
import org.apache.iceberg.FileFormat;

/** NULLs in required fields never reach a Avro file. */
class AvroRequiredFieldsTest extends FormatRequiredFieldsSuite {

    @Override
    protected FileFormat format() {
        return FileFormat.AVRO;
    }
}
