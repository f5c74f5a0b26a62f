package dev.icebergflink.data.avro;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.testing.RandomRecords;
import dev.icebergflink.testing.RandomRowData;
import dev.icebergflink.testing.RandomSchemaGenerator;
import dev.icebergflink.testing.RowDataAssert;
import dev.icebergflink.testing.TestSchemas;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Files are interchangeable with iceberg-data's generic Avro object model in both directions: what
 * we write, Iceberg's generic reader reads as the same records, and what Iceberg's generic writer
 * writes, we read as the same rows.
 */
class FlinkAvroCompatibilityTest {

    private static final int ROWS = 300;

    @TempDir Path dir;

    static Stream<Arguments> schemas() {
        Stream<Arguments> named =
                Stream.of(
                        Arguments.of("ALL_PRIMITIVES", TestSchemas.ALL_PRIMITIVES),
                        Arguments.of("NESTED", TestSchemas.NESTED),
                        Arguments.of("V3_PRIMITIVES", TestSchemas.V3_PRIMITIVES));
        Stream<Arguments> random =
                LongStream.rangeClosed(100, 111)
                        .mapToObj(
                                seed ->
                                        Arguments.of(
                                                "random seed " + seed,
                                                RandomSchemaGenerator.generate(
                                                        seed, 10, seed % 3 == 0)));
        return Stream.concat(named, random);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemas")
    void genericReaderReadsWhatWeWrite(String name, Schema schema) {
        List<RowData> rows = RandomRowData.generate(schema, ROWS, 5L);
        File file = AvroTestFiles.newFile(dir);
        AvroTestFiles.writeRows(file, schema, FlinkSchemaUtil.convert(schema), rows);

        List<Record> records = AvroTestFiles.readRecords(file, schema);

        RowDataAssert.assertRecordsMatchRows(schema, records, rows);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemas")
    void weReadWhatTheGenericWriterWrites(String name, Schema schema) {
        List<Record> records = RandomRecords.generate(schema, ROWS, 9L);
        File file = AvroTestFiles.newFile(dir);
        AvroTestFiles.writeRecords(file, schema, records);

        List<RowData> rows = AvroTestFiles.readRows(file, schema);

        RowDataAssert.assertRecordsMatchRows(schema, records, rows);
    }
}
