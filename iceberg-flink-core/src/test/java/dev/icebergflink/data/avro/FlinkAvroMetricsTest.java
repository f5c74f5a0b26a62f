package dev.icebergflink.data.avro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.testing.RandomRecords;
import dev.icebergflink.testing.RandomRowData;
import dev.icebergflink.testing.TestSchemas;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The metrics of Avro files we write are those iceberg-data's generic Avro writer reports for the
 * same rows. Iceberg 1.11 keeps only the record count for Avro files (no column sizes, value or
 * null counts, or bounds), so that is what both report.
 */
class FlinkAvroMetricsTest {

    private static final int ROWS = 250;

    @TempDir Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"ALL_PRIMITIVES", "NESTED", "V3_PRIMITIVES"})
    void reportsWhatTheGenericWriterReports(String name) {
        Schema schema =
                switch (name) {
                    case "ALL_PRIMITIVES" -> TestSchemas.ALL_PRIMITIVES;
                    case "NESTED" -> TestSchemas.NESTED;
                    default -> TestSchemas.V3_PRIMITIVES;
                };
        List<RowData> rows = RandomRowData.generate(schema, ROWS, 3L);
        List<Record> records = RandomRecords.generate(schema, ROWS, 3L);

        File ours = AvroTestFiles.newFile(dir);
        File generic = AvroTestFiles.newFile(dir);
        Metrics ourMetrics =
                AvroTestFiles.writeRows(ours, schema, FlinkSchemaUtil.convert(schema), rows);
        Metrics genericMetrics = AvroTestFiles.writeRecords(generic, schema, records);

        assertThat(ourMetrics.recordCount()).isEqualTo((long) ROWS);
        assertThat(ourMetrics.recordCount()).isEqualTo(genericMetrics.recordCount());
        assertThat(ourMetrics.columnSizes()).isEqualTo(genericMetrics.columnSizes());
        assertThat(ourMetrics.valueCounts()).isEqualTo(genericMetrics.valueCounts());
        assertThat(ourMetrics.nullValueCounts()).isEqualTo(genericMetrics.nullValueCounts());
        assertThat(ourMetrics.nanValueCounts()).isEqualTo(genericMetrics.nanValueCounts());
        assertThat(ourMetrics.lowerBounds()).isEqualTo(genericMetrics.lowerBounds());
        assertThat(ourMetrics.upperBounds()).isEqualTo(genericMetrics.upperBounds());
        // the same rows encode to the same bytes
        assertThat(ours.length()).isEqualTo(generic.length());
    }
}
