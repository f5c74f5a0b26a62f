package dev.icebergflink.data.orc;

import dev.icebergflink.data.FormatRequiredFieldsSuite;
import org.apache.iceberg.FileFormat;

/** NULLs in required fields never reach a Orc file. */
class OrcRequiredFieldsTest extends FormatRequiredFieldsSuite {

    @Override
    protected FileFormat format() {
        return FileFormat.ORC;
    }
}
