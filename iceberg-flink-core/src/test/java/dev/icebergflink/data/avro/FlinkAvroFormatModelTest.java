package dev.icebergflink.data.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.data.FlinkFormatModels;
import dev.icebergflink.testing.RandomRowData;
import dev.icebergflink.testing.RowDataAssert;
import dev.icebergflink.testing.TestSchemas;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
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
import org.apache.iceberg.io.DataWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The model works through Iceberg's {@link FormatModelRegistry} like the built-in ones. */
class FlinkAvroFormatModelTest {

    @TempDir Path dir;

    @BeforeAll
    static void registerOnce() {
        FlinkFormatModels.ensureRegistered();
    }

    @Test
    void describesItself() {
        FormatModel<RowData, RowType> model = FlinkAvroFormatModel.create();

        assertThat(model.format()).isEqualTo(FileFormat.AVRO);
        assertThat(model.type()).isEqualTo(RowData.class);
        assertThat(model.schemaType()).isEqualTo(RowType.class);
    }

    @Test
    void writesDataFilesAndReadsThemThroughTheRegistry() throws IOException {
        Schema schema = TestSchemas.NESTED;
        RowType rowType = FlinkSchemaUtil.convert(schema);
        List<RowData> rows = RandomRowData.generate(schema, 120, 21L);
        File file = AvroTestFiles.newFile(dir);

        DataWriter<RowData> writer =
                FormatModelRegistry.<RowData, RowType>dataWriteBuilder(
                                FileFormat.AVRO,
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

        assertThat(dataFile.format()).isEqualTo(FileFormat.AVRO);
        assertThat(dataFile.recordCount()).isEqualTo(120L);

        List<RowData> read =
                AvroTestFiles.collect(
                        FormatModelRegistry.<RowData, RowType>readBuilder(
                                        FileFormat.AVRO, RowData.class, Files.localInput(file))
                                .project(schema)
                                .engineProjection(rowType)
                                .build());
        RowDataAssert.assertRowsEqual(schema, rows, read);
    }

    @Test
    void aReaderWithoutAProjectionSaysWhatIsMissing() {
        assertThatThrownBy(() -> FlinkPlannedAvroReader.create(null, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("call project(schema) on the read builder");
    }
}
