package dev.icebergflink.data.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.data.FlinkFormatModels;
import dev.icebergflink.testing.RandomRowData;
import dev.icebergflink.testing.RowDataAssert;
import dev.icebergflink.testing.TestSchemas;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Files;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.formats.FormatModel;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The model describes itself correctly and works through Iceberg's FormatModelRegistry. */
class FlinkParquetFormatModelTest {

    @TempDir File temp;

    @BeforeAll
    static void register() {
        FlinkFormatModels.ensureRegistered();
    }

    @Test
    void describesParquetRowDataWithRowTypeSchemas() {
        FormatModel<RowData, RowType> model = FlinkParquetFormatModel.create();

        assertThat(model.format()).isEqualTo(FileFormat.PARQUET);
        assertThat(model.type()).isEqualTo(RowData.class);
        assertThat(model.schemaType()).isEqualTo(RowType.class);
    }

    @Test
    void writesDataFilesAndReadsThemThroughTheRegistry() throws Exception {
        Schema schema = TestSchemas.NESTED;
        RowType rowType = FlinkSchemaUtil.convert(schema);
        List<RowData> rows = RandomRowData.generate(schema, 200, 99L);
        File file = new File(temp, "registry.parquet");

        DataWriter<RowData> writer =
                FormatModelRegistry.<RowData, RowType>dataWriteBuilder(
                                FileFormat.PARQUET,
                                RowData.class,
                                EncryptedFiles.plainAsEncryptedOutput(Files.localOutput(file)))
                        .schema(schema)
                        .engineSchema(rowType)
                        .spec(PartitionSpec.unpartitioned())
                        .build();
        try (writer) {
            rows.forEach(writer::write);
        }
        DataFile dataFile = writer.toDataFile();

        assertThat(dataFile.format()).isEqualTo(FileFormat.PARQUET);
        assertThat(dataFile.recordCount()).isEqualTo(200L);
        assertThat(dataFile.nullValueCounts()).isNotEmpty();

        List<RowData> read = new ArrayList<>();
        try (CloseableIterable<RowData> iterable =
                FormatModelRegistry.<RowData, RowType>readBuilder(
                                FileFormat.PARQUET, RowData.class, Files.localInput(file))
                        .project(schema)
                        .engineProjection(rowType)
                        .build()) {
            iterable.forEach(read::add);
        }
        RowDataAssert.assertRowsEqual(schema, rows, read);
    }
}
