package dev.icebergflink.data.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.testing.RandomRowData;
import dev.icebergflink.testing.RandomSchemaGenerator;
import dev.icebergflink.testing.RowDataAssert;
import dev.icebergflink.testing.TestSchemas;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Files;
import org.apache.iceberg.Schema;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.TypeUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Writes RowData with our Parquet model and reads it back with our model. */
class FlinkParquetRoundTripTest {

    private static final int ROWS = 300;

    @TempDir File temp;

    static Stream<Arguments> schemas() {
        Stream<Arguments> named =
                Stream.of(
                        Arguments.of("ALL_PRIMITIVES", TestSchemas.ALL_PRIMITIVES),
                        Arguments.of("NESTED", TestSchemas.NESTED),
                        Arguments.of("V3_PRIMITIVES", TestSchemas.V3_PRIMITIVES));
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
    void roundTripsEveryValue(String name, Schema schema) {
        List<RowData> rows = RandomRowData.generate(schema, ROWS, 42L);
        File file = new File(temp, "data.parquet");

        ParquetTestFiles.writeRows(file, schema, FlinkSchemaUtil.convert(schema), rows);
        List<RowData> read =
                ParquetTestFiles.readRows(file, schema, FlinkSchemaUtil.convert(schema), null);

        RowDataAssert.assertRowsEqual(schema, rows, read);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemas")
    void writesWithoutEngineSchemaUsingTheIcebergSchema(String name, Schema schema) {
        List<RowData> rows = RandomRowData.generate(schema, 50, 7L);
        File file = new File(temp, "data.parquet");

        ParquetTestFiles.writeRows(file, schema, null, rows);

        RowDataAssert.assertRowsEqual(schema, rows, ParquetTestFiles.readRows(file, schema));
    }

    @Test
    void reusedContainersHoldTheSameValues() throws IOException {
        Schema schema = TestSchemas.NESTED;
        List<RowData> rows = RandomRowData.generate(schema, ROWS, 11L);
        File file = new File(temp, "data.parquet");
        ParquetTestFiles.writeRows(file, schema, FlinkSchemaUtil.convert(schema), rows);

        List<RowData> seen = new ArrayList<>();
        RowData previous = null;
        boolean reused = false;
        try (CloseableIterable<RowData> read =
                ParquetTestFiles.MODEL
                        .readBuilder(Files.localInput(file))
                        .project(schema)
                        .reuseContainers()
                        .build()) {
            int i = 0;
            for (RowData row : read) {
                // Compare before the next row overwrites the reused container.
                RowDataAssert.assertRowsEqual(schema, List.of(rows.get(i++)), List.of(row));
                reused |= row == previous;
                previous = row;
                seen.add(row);
            }
        }
        assertThat(seen).hasSize(ROWS);
        assertThat(reused).as("the reader reuses its row container").isTrue();
    }

    @Test
    void rowsReadWithoutReuseAreIndependent() {
        Schema schema = TestSchemas.NESTED;
        List<RowData> rows = RandomRowData.generate(schema, ROWS, 12L);
        File file = new File(temp, "data.parquet");
        ParquetTestFiles.writeRows(file, schema, null, rows);

        List<RowData> read = ParquetTestFiles.readRows(file, schema);

        assertThat(read).doesNotHaveDuplicates();
        RowDataAssert.assertRowsEqual(schema, rows, read);
    }

    @Test
    void randomSchemasIncludeNestedTypes() {
        // Guards the generator inputs above: the random schemas must actually exercise nesting.
        long nested =
                schemas()
                        .map(arguments -> (Schema) arguments.get()[1])
                        .filter(schema -> TypeUtil.indexById(schema.asStruct()).size() > 20)
                        .count();
        assertThat(nested).isGreaterThan(3);
    }
}
