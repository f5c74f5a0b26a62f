package dev.icebergflink.source;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.TableLoader;
import dev.icebergflink.testing.GenericFileWriters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.connector.testframe.external.ExternalSystemSplitDataWriter;
import org.apache.flink.connector.testframe.external.source.DataStreamSourceExternalContext;
import org.apache.flink.connector.testframe.external.source.TestingSourceSettings;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.types.Types;

/**
 * The "external system" of Flink's source test suite: a path-based Hadoop table in a temp
 * directory, dropped in {@link #close()}. Each split writer appends one data file per {@code
 * writeRecords} call. Test data are {@code BinaryRowData} (what the collect sink returns) of {@code
 * (split int, id long, data string)}, seeded.
 */
final class IcebergSourceExternalContext implements DataStreamSourceExternalContext<RowData> {

    static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "split", Types.IntegerType.get()),
                    Types.NestedField.required(2, "id", Types.LongType.get()),
                    Types.NestedField.optional(3, "data", Types.StringType.get()));
    private static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);

    private final Path warehouse;
    private final String location;
    private final Table table;

    IcebergSourceExternalContext() {
        try {
            this.warehouse = Files.createTempDirectory("iceberg-source-suite");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.location = warehouse.resolve("t").toString();
        this.table =
                new HadoopTables(new Configuration())
                        .create(SCHEMA, PartitionSpec.unpartitioned(), location);
    }

    @Override
    public Source<RowData, ?, ?> createSource(TestingSourceSettings settings) {
        boolean streaming = settings.getBoundedness() == Boundedness.CONTINUOUS_UNBOUNDED;
        return IcebergSource.forRowData()
                .tableLoader(TableLoader.fromHadoopTable(location))
                .streaming(streaming)
                .streamingStartingStrategy(StreamingStartingStrategy.TABLE_SCAN_THEN_INCREMENTAL)
                .monitorInterval(Duration.ofMillis(100))
                .build();
    }

    @Override
    public ExternalSystemSplitDataWriter<RowData> createSourceSplitDataWriter(
            TestingSourceSettings settings) {
        return new ExternalSystemSplitDataWriter<>() {
            @Override
            public void writeRecords(List<RowData> rows) {
                append(rows);
            }

            @Override
            public void close() {}
        };
    }

    private synchronized void append(List<RowData> rows) {
        table.refresh();
        String path = table.locationProvider().newDataLocation(UUID.randomUUID() + ".parquet");
        DataWriter<Record> writer =
                GenericFileWriters.data(table, SCHEMA, FileFormat.PARQUET)
                        .newDataWriter(
                                EncryptedFiles.plainAsEncryptedOutput(
                                        table.io().newOutputFile(path)),
                                table.spec(),
                                null);
        try (writer) {
            for (RowData row : rows) {
                GenericRecord record = GenericRecord.create(SCHEMA);
                record.setField("split", row.getInt(0));
                record.setField("id", row.getLong(1));
                record.setField("data", row.isNullAt(2) ? null : row.getString(2).toString());
                writer.write(record);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        table.newAppend().appendFile(writer.toDataFile()).commit();
    }

    @Override
    public List<RowData> generateTestData(
            TestingSourceSettings settings, int splitIndex, long seed) {
        Random random = new Random(seed);
        RowDataSerializer serializer = new RowDataSerializer(ROW_TYPE);
        int count = 20 + random.nextInt(80);
        List<RowData> rows = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            GenericRowData row =
                    GenericRowData.of(
                            splitIndex,
                            (long) splitIndex * 1_000_000L + i,
                            random.nextInt(10) == 0
                                    ? null
                                    : StringData.fromString("v" + random.nextLong()));
            rows.add(serializer.toBinaryRow(row).copy());
        }
        return rows;
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return InternalTypeInfo.of(ROW_TYPE);
    }

    @Override
    public List<URL> getConnectorJarPaths() {
        return List.of();
    }

    @Override
    public void close() throws IOException {
        try (Stream<Path> files = Files.walk(warehouse)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Override
    public String toString() {
        return "Iceberg Hadoop table";
    }
}
