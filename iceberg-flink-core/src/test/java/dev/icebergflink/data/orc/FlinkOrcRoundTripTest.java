package dev.icebergflink.data.orc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.testing.RandomSchemaGenerator;
import dev.icebergflink.testing.RowDataAssert;
import dev.icebergflink.testing.TestSchemas;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Rows written by {@link FlinkOrcWriter} read back identically through {@link FlinkOrcReader}. */
class FlinkOrcRoundTripTest {

    private static final int ROWS = 400;

    @TempDir Path temp;

    static Stream<Arguments> schemas() {
        Stream<Arguments> named =
                Stream.of(
                        Arguments.of("all primitives", TestSchemas.ALL_PRIMITIVES),
                        Arguments.of("nested", TestSchemas.NESTED),
                        Arguments.of("v3 nanosecond timestamps", TestSchemas.V3_PRIMITIVES));
        Stream<Arguments> random =
                LongStream.range(0, 24)
                        .mapToObj(
                                seed ->
                                        Arguments.of(
                                                "random seed " + seed,
                                                RandomSchemaGenerator.generate(
                                                        seed,
                                                        4 + (int) (seed % 9),
                                                        seed % 3 == 0)));
        return Stream.concat(named, random);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemas")
    void roundTripsEveryRow(String name, Schema schema) {
        List<RowData> rows = OrcTestData.rows(schema, ROWS, name.hashCode());
        File file = temp.resolve("data.orc").toFile();

        Metrics metrics =
                OrcTestFiles.writeRows(file, schema, FlinkSchemaUtil.convert(schema), rows);
        List<RowData> read = OrcTestFiles.readRows(file, schema);

        assertThat(metrics.recordCount()).isEqualTo(ROWS);
        RowDataAssert.assertRowsEqual(schema, rows, read);
    }

    @Test
    void derivesTheFlinkTypeWhenTheEngineSchemaIsNull() {
        Schema schema = TestSchemas.NESTED;
        List<RowData> rows = OrcTestData.rows(schema, 50, 7);
        File file = temp.resolve("data.orc").toFile();

        OrcTestFiles.writeRows(file, schema, null, rows);

        RowDataAssert.assertRowsEqual(schema, rows, OrcTestFiles.readRows(file, schema));
    }

    @Test
    void spansSeveralBatchesAndKeepsRowsIndependent() {
        Schema schema = TestSchemas.NESTED;
        // more rows than one ORC batch (1024), so vectors are reset and reused while reading
        List<RowData> rows = OrcTestData.rows(schema, 2500, 11);
        File file = temp.resolve("data.orc").toFile();

        OrcTestFiles.writeRows(file, schema, FlinkSchemaUtil.convert(schema), rows);

        RowDataAssert.assertRowsEqual(schema, rows, OrcTestFiles.readRows(file, schema));
    }
}
