package dev.icebergflink.data.parquet;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.testing.RandomRecords;
import dev.icebergflink.testing.RandomRowData;
import dev.icebergflink.testing.RandomSchemaGenerator;
import dev.icebergflink.testing.RowDataAssert;
import dev.icebergflink.testing.RowDataConverter;
import dev.icebergflink.testing.TestSchemas;
import java.io.File;
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
 * Files written by our RowData writer read identically through iceberg-data's generic reader, and
 * files written by iceberg-data's generic writer read identically through our RowData reader.
 */
class FlinkParquetCrossCompatibilityTest {

    private static final int ROWS = 250;

    @TempDir File temp;

    static Stream<Arguments> schemas() {
        Stream<Arguments> named =
                Stream.of(
                        Arguments.of("ALL_PRIMITIVES", TestSchemas.ALL_PRIMITIVES),
                        Arguments.of("NESTED", TestSchemas.NESTED),
                        Arguments.of("V3_PRIMITIVES", TestSchemas.V3_PRIMITIVES));
        Stream<Arguments> random =
                LongStream.range(100, 122)
                        .mapToObj(
                                seed ->
                                        Arguments.of(
                                                "random seed " + seed,
                                                RandomSchemaGenerator.generate(
                                                        seed,
                                                        3 + (int) (seed % 10),
                                                        seed % 2 == 0)));
        return Stream.concat(named, random);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemas")
    void genericReaderReadsWhatWeWrite(String name, Schema schema) {
        List<RowData> rows = RandomRowData.generate(schema, ROWS, 3L);
        File file = new File(temp, "ours.parquet");

        ParquetTestFiles.writeRows(file, schema, FlinkSchemaUtil.convert(schema), rows);
        List<Record> records = ParquetTestFiles.readRecords(file, schema);

        RowDataAssert.assertRowsEqual(schema, rows, RowDataConverter.fromRecords(schema, records));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemas")
    void weReadWhatTheGenericWriterWrites(String name, Schema schema) {
        List<Record> records = RandomRecords.generate(schema, ROWS, 5L);
        File file = new File(temp, "generic.parquet");

        ParquetTestFiles.writeRecords(file, schema, records);
        List<RowData> rows = ParquetTestFiles.readRows(file, schema);

        RowDataAssert.assertRecordsMatchRows(schema, records, rows);
    }
}
