package dev.icebergflink.data.orc;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.data.FlinkFormatModels;
import java.io.File;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Files;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.DateTimeUtil;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Row positions ({@code _pos}), {@code _deleted}, and constants from {@code idToConstant}
 * (partition values, {@code _file}) in read rows; and the model used through Iceberg's {@link
 * FormatModelRegistry} the way the source and sink use it.
 */
class FlinkOrcMetadataColumnsTest {

    private static final Schema SCHEMA =
            new Schema(
                    required(1, "id", Types.LongType.get()),
                    optional(2, "data", Types.StringType.get()));

    private static final int ROWS = 2500; // several ORC batches of 1024

    @TempDir Path temp;

    @BeforeAll
    static void registerOnce() {
        FlinkFormatModels.ensureRegistered();
    }

    @Test
    void rowPositionsCountAcrossBatches() {
        File file = writeRows();
        Schema projection =
                new Schema(SCHEMA.findField(2), MetadataColumns.ROW_POSITION, SCHEMA.findField(1));

        List<RowData> read = OrcTestFiles.readRows(file, projection);

        assertThat(read).hasSize(ROWS);
        for (int i = 0; i < ROWS; i++) {
            assertThat(read.get(i).getLong(1)).as("_pos of row %s", i).isEqualTo(i);
            assertThat(read.get(i).getLong(2)).isEqualTo(i);
        }
    }

    @Test
    void constantsFillTheirColumnsAsFlinkValues() {
        File file = writeRows();
        Schema projection =
                new Schema(
                        required(1, "id", Types.LongType.get()),
                        optional(100, "region", Types.StringType.get()),
                        optional(101, "bucket", Types.IntegerType.get()),
                        optional(102, "price", Types.DecimalType.of(9, 2)),
                        optional(103, "hour", Types.TimestampType.withoutZone()),
                        MetadataColumns.FILE_PATH,
                        MetadataColumns.IS_DELETED);
        LocalDateTime hour = LocalDateTime.of(2024, 5, 6, 7, 0);
        Map<Integer, Object> constants =
                Map.of(
                        100,
                        "eu-west",
                        101,
                        7,
                        102,
                        new BigDecimal("19.99"),
                        103,
                        DateTimeUtil.microsFromTimestamp(hour),
                        MetadataColumns.FILE_PATH.fieldId(),
                        file.toString());

        List<RowData> read = OrcTestFiles.readRows(file, projection, constants);

        assertThat(read).hasSize(ROWS);
        RowData row = read.get(1234);
        assertThat(row.getLong(0)).isEqualTo(1234L);
        assertThat(row.getString(1)).isEqualTo(StringData.fromString("eu-west"));
        assertThat(row.getInt(2)).isEqualTo(7);
        assertThat(row.getDecimal(3, 9, 2).toBigDecimal()).isEqualTo(new BigDecimal("19.99"));
        assertThat(row.getTimestamp(4, 6)).isEqualTo(TimestampData.fromLocalDateTime(hour));
        assertThat(row.getString(5).toString()).isEqualTo(file.toString());
        assertThat(row.getBoolean(6)).isFalse();
    }

    @Test
    void worksThroughTheFormatModelRegistry() throws IOException {
        File file = temp.resolve("registry.orc").toFile();
        RowType rowType = FlinkSchemaUtil.convert(SCHEMA);
        DataWriter<RowData> writer =
                FormatModelRegistry.<RowData, RowType>dataWriteBuilder(
                                FileFormat.ORC,
                                RowData.class,
                                EncryptedFiles.plainAsEncryptedOutput(Files.localOutput(file)))
                        .schema(SCHEMA)
                        .engineSchema(rowType)
                        .spec(PartitionSpec.unpartitioned())
                        .partition(GenericRecord.create(Types.StructType.of()))
                        .build();
        try (writer) {
            writer.write(GenericRowData.of(1L, StringData.fromString("a")));
            writer.write(GenericRowData.of(2L, null));
        }
        DataFile dataFile = writer.toDataFile();
        assertThat(dataFile.format()).isEqualTo(FileFormat.ORC);
        assertThat(dataFile.recordCount()).isEqualTo(2L);
        assertThat(dataFile.nullValueCounts()).containsEntry(2, 1L);

        List<RowData> read = new ArrayList<>();
        try (CloseableIterable<RowData> rows =
                FormatModelRegistry.<RowData, RowType>readBuilder(
                                FileFormat.ORC, RowData.class, Files.localInput(file))
                        .project(SCHEMA)
                        .engineProjection(rowType)
                        .build()) {
            rows.forEach(read::add);
        }

        assertThat(read).hasSize(2);
        assertThat(read.get(0).getLong(0)).isEqualTo(1L);
        assertThat(read.get(0).getString(1).toString()).isEqualTo("a");
        assertThat(read.get(1).isNullAt(1)).isTrue();
    }

    private File writeRows() {
        List<RowData> rows = new ArrayList<>(ROWS);
        for (int i = 0; i < ROWS; i++) {
            rows.add(GenericRowData.of((long) i, StringData.fromString("row-" + i)));
        }
        File file = temp.resolve("rows.orc").toFile();
        OrcTestFiles.writeRows(file, SCHEMA, null, rows);
        return file;
    }
}
