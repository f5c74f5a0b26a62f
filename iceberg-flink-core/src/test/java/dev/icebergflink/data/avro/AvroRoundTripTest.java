package dev.icebergflink.data.avro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.data.FormatRoundTripSuite;
import java.io.File;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.formats.FormatModel;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The shared round-trip, compatibility and metrics suite, for Avro files. Iceberg keeps only the
 * record count for Avro files (no column sizes, value or null counts, or bounds).
 */
class AvroRoundTripTest extends FormatRoundTripSuite {

    @Override
    protected FileFormat format() {
        return FileFormat.AVRO;
    }

    @Override
    protected FormatModel<RowData, RowType> createModel() {
        return AvroRowDataFormatModel.create();
    }

    @Override
    protected boolean keepsColumnMetrics() {
        return false;
    }

    /** Every top-level row is a new binary row; there is no container to reuse. */
    @Override
    protected boolean reusesContainers() {
        return false;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("namedSchemas")
    void encodesRowsToTheSameBytesAsTheGenericWriter(String name, Schema schema) {
        List<Record> records = records(schema, 250, 3L);
        File ours = files.newFile(dir);
        File generic = files.newFile(dir);

        files.writeRows(ours, schema, FlinkSchemaUtil.convert(schema), rows(schema, 250, 3L));
        files.writeRecords(generic, schema, records);

        assertThat(ours.length()).isEqualTo(generic.length());
    }
}
