package dev.icebergflink.data.orc;

import dev.icebergflink.data.FormatRoundTripSuite;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.formats.FormatModel;

/**
 * The shared round-trip, compatibility and metrics suite, for ORC files, with random data that
 * leaves out the one timestamp range ORC cannot store (see {@link OrcTestData}). Iceberg's ORC read
 * builder ignores {@code reuseContainers()}.
 */
class OrcRoundTripTest extends FormatRoundTripSuite {

    @Override
    protected FileFormat format() {
        return FileFormat.ORC;
    }

    @Override
    protected FormatModel<RowData, RowType> createModel() {
        return OrcRowDataFormatModel.create();
    }

    @Override
    protected boolean reusesContainers() {
        return false;
    }

    @Override
    protected List<Record> records(Schema schema, int count, long seed) {
        return OrcTestData.records(schema, count, seed);
    }
}
