package dev.icebergflink.data.avro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.testing.RandomRowData;
import dev.icebergflink.testing.RandomSchemaGenerator;
import dev.icebergflink.testing.RowDataAssert;
import dev.icebergflink.testing.TestSchemas;
import java.io.File;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Files;
import org.apache.iceberg.Schema;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Flink rows written with our Avro writer read back identically with our Avro reader. */
class FlinkAvroRoundTripTest {

    private static final int ROWS = 400;

    @TempDir Path dir;

    static Stream<Arguments> namedSchemas() {
        return Stream.of(
                Arguments.of("ALL_PRIMITIVES", TestSchemas.ALL_PRIMITIVES),
                Arguments.of("NESTED", TestSchemas.NESTED),
                Arguments.of("V3_PRIMITIVES", TestSchemas.V3_PRIMITIVES));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("namedSchemas")
    void roundTripsNamedSchemas(String name, Schema schema) {
        assertRoundTrip(schema, 42L);
    }

    static Stream<Arguments> randomSchemas() {
        return LongStream.rangeClosed(1, 24)
                .mapToObj(
                        seed ->
                                Arguments.of(
                                        seed,
                                        seed % 4 == 0
                                                ? RandomSchemaGenerator.generate(seed, 8, true)
                                                : RandomSchemaGenerator.generate(seed)));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("randomSchemas")
    void roundTripsRandomSchemas(long seed, Schema schema) {
        assertRoundTrip(schema, seed * 31);
    }

    @Test
    void derivesTheRowTypeWhenTheEngineSchemaIsNull() {
        Schema schema = TestSchemas.NESTED;
        List<RowData> rows = RandomRowData.generate(schema, 50, 7L);
        File file = AvroTestFiles.newFile(dir);

        AvroTestFiles.writeRows(file, schema, null, rows);

        RowDataAssert.assertRowsEqual(schema, rows, AvroTestFiles.readRows(file, schema));
    }

    @Test
    void reusedContainersHoldEachRowUntilTheNextOne() {
        Schema schema = TestSchemas.NESTED;
        List<RowData> rows = RandomRowData.generate(schema, ROWS, 11L);
        File file = AvroTestFiles.newFile(dir);
        AvroTestFiles.writeRows(file, schema, FlinkSchemaUtil.convert(schema), rows);

        int count = 0;
        RowData previous = null;
        int sameInstance = 0;
        try (CloseableIterable<RowData> reader =
                AvroTestFiles.MODEL
                        .readBuilder(Files.localInput(file))
                        .project(schema)
                        .reuseContainers()
                        .build()) {
            Iterator<RowData> iterator = reader.iterator();
            while (iterator.hasNext()) {
                RowData row = iterator.next();
                RowDataAssert.assertRowEquals(schema.asStruct(), rows.get(count), row);
                if (row == previous) {
                    sameInstance++;
                }
                previous = row;
                count++;
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }

        assertThat(count).isEqualTo(ROWS);
        assertThat(sameInstance).as("rows reused").isEqualTo(ROWS - 1);
    }

    private void assertRoundTrip(Schema schema, long seed) {
        List<RowData> rows = RandomRowData.generate(schema, ROWS, seed);
        File file = AvroTestFiles.newFile(dir);

        AvroTestFiles.writeRows(file, schema, FlinkSchemaUtil.convert(schema), rows);
        List<RowData> read =
                AvroTestFiles.readRows(
                        file, schema, FlinkSchemaUtil.convert(schema), java.util.Map.of());

        RowDataAssert.assertRowsEqual(schema, rows, read);
    }
}
