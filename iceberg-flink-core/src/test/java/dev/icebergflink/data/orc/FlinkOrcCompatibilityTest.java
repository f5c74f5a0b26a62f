package dev.icebergflink.data.orc;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.testing.RandomSchemaGenerator;
import dev.icebergflink.testing.RowDataAssert;
import dev.icebergflink.testing.RowDataConverter;
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
 * Files are interchangeable with iceberg-data's generic ORC writer and reader in both directions.
 */
class FlinkOrcCompatibilityTest {

    private static final int ROWS = 300;

    @TempDir Path temp;

    static Stream<Arguments> schemas() {
        Stream<Arguments> named =
                Stream.of(
                        Arguments.of("all primitives", TestSchemas.ALL_PRIMITIVES),
                        Arguments.of("nested", TestSchemas.NESTED),
                        Arguments.of("v3 nanosecond timestamps", TestSchemas.V3_PRIMITIVES));
        Stream<Arguments> random =
                LongStream.range(100, 110)
                        .mapToObj(
                                seed ->
                                        Arguments.of(
                                                "random seed " + seed,
                                                RandomSchemaGenerator.generate(
                                                        seed, 8, seed % 2 == 0)));
        return Stream.concat(named, random);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemas")
    void genericReaderReadsOurFiles(String name, Schema schema) {
        List<RowData> rows = OrcTestData.rows(schema, ROWS, name.hashCode());
        File file = temp.resolve("ours.orc").toFile();

        OrcTestFiles.writeRows(file, schema, FlinkSchemaUtil.convert(schema), rows);
        List<Record> read = OrcTestFiles.readRecords(file, schema);

        RowDataAssert.assertRowsEqual(schema, rows, RowDataConverter.fromRecords(schema, read));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemas")
    void ourReaderReadsGenericFiles(String name, Schema schema) {
        List<Record> records = OrcTestData.records(schema, ROWS, name.hashCode());
        File file = temp.resolve("generic.orc").toFile();

        OrcTestFiles.writeRecords(file, schema, records);
        List<RowData> read = OrcTestFiles.readRows(file, schema);

        RowDataAssert.assertRecordsMatchRows(schema, records, read);
    }
}
