package dev.icebergflink.data;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.testing.RandomRecords;
import dev.icebergflink.testing.RandomSchemaGenerator;
import dev.icebergflink.testing.RowDataAssert;
import dev.icebergflink.testing.RowDataConverter;
import dev.icebergflink.testing.TestSchemas;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.function.LongFunction;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Files;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.formats.FormatModel;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every RowData format model must do, whatever the file format: round trips over the shared
 * and seeded random schemas, files interchangeable with iceberg-data's generic model in both
 * directions, the same metrics as the generic writer, and use through Iceberg's registry.
 *
 * <p>Each format has a small subclass in its package that names the format and, where the format
 * really differs, adjusts the random data or the expectations.
 */
public abstract class FormatRoundTripSuite extends FormatSuite {

    private static final int ROUND_TRIP_ROWS = 400;
    private static final int COMPATIBILITY_ROWS = 300;
    private static final int METRICS_ROWS = 500;

    /** Floating point columns with NaN values, top level and in a list, for metrics. */
    public static final Schema NUMBERS =
            new Schema(
                    required(1, "id", Types.IntegerType.get()),
                    optional(2, "f", Types.FloatType.get()),
                    optional(3, "d", Types.DoubleType.get()),
                    optional(4, "s", Types.StringType.get()),
                    optional(5, "ds", Types.ListType.ofOptional(6, Types.DoubleType.get())));

    /** Whether the format keeps column metrics (counts and bounds); Iceberg keeps none for Avro. */
    protected boolean keepsColumnMetrics() {
        return true;
    }

    /**
     * Whether the reader hands out one row container again and again when asked to reuse
     * containers; Iceberg's ORC read builder ignores the request.
     */
    protected boolean reusesContainers() {
        return true;
    }

    /** The model the subclass's format registers. */
    protected abstract FormatModel<RowData, RowType> createModel();

    static Stream<Arguments> namedSchemas() {
        return Stream.of(
                Arguments.of("ALL_PRIMITIVES", TestSchemas.ALL_PRIMITIVES),
                Arguments.of("NESTED", TestSchemas.NESTED),
                Arguments.of("V3_PRIMITIVES", TestSchemas.V3_PRIMITIVES));
    }

    /**
     * The named schemas and two families of random ones: sizes 4 to 12 with v3 types every third
     * seed, and the generator's own sizes with v3 types every fourth seed.
     */
    static Stream<Arguments> roundTripSchemas() {
        return Stream.of(
                        namedSchemas(),
                        random(
                                "random seed ",
                                LongStream.range(0, 24),
                                seed ->
                                        RandomSchemaGenerator.generate(
                                                seed, 4 + (int) (seed % 9), seed % 3 == 0)),
                        random(
                                "default-size random seed ",
                                LongStream.rangeClosed(1, 24),
                                seed ->
                                        seed % 4 == 0
                                                ? RandomSchemaGenerator.generate(seed, 8, true)
                                                : RandomSchemaGenerator.generate(seed)))
                .flatMap(s -> s);
    }

    /** The named schemas and three families of random ones from seeds 100 and up. */
    static Stream<Arguments> compatibilitySchemas() {
        return Stream.of(
                        namedSchemas(),
                        random(
                                "random seed ",
                                LongStream.range(100, 122),
                                seed ->
                                        RandomSchemaGenerator.generate(
                                                seed, 3 + (int) (seed % 10), seed % 2 == 0)),
                        random(
                                "8 fields, random seed ",
                                // seed 105 is left out: the family above has the same schema
                                LongStream.range(100, 110).filter(seed -> 3 + seed % 10 != 8),
                                seed -> RandomSchemaGenerator.generate(seed, 8, seed % 2 == 0)),
                        random(
                                "10 fields, random seed ",
                                LongStream.rangeClosed(100, 111),
                                seed -> RandomSchemaGenerator.generate(seed, 10, seed % 3 == 0)))
                .flatMap(s -> s);
    }

    private static Stream<Arguments> random(
            String label, LongStream seeds, LongFunction<Schema> schema) {
        return seeds.mapToObj(seed -> Arguments.of(label + seed, schema.apply(seed)));
    }

    static Stream<Arguments> metricsSchemas() {
        return Stream.concat(namedSchemas(), Stream.of(Arguments.of("NUMBERS", NUMBERS)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("roundTripSchemas")
    void roundTripsEveryValue(String name, Schema schema) {
        List<RowData> rows = rows(schema, ROUND_TRIP_ROWS, 42L);
        File file = files.newFile(dir);
        RowType rowType = FlinkSchemaUtil.convert(schema);

        Metrics metrics = files.writeRows(file, schema, rowType, rows);
        List<RowData> read = files.readRows(file, schema, rowType, java.util.Map.of());

        assertThat(metrics.recordCount()).isEqualTo(ROUND_TRIP_ROWS);
        RowDataAssert.assertRowsEqual(schema, rows, read);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("roundTripSchemas")
    void writesWithoutEngineSchemaUsingTheIcebergSchema(String name, Schema schema) {
        List<RowData> rows = rows(schema, 50, 7L);
        File file = files.newFile(dir);

        files.writeRows(file, schema, null, rows);

        RowDataAssert.assertRowsEqual(schema, rows, files.readRows(file, schema));
    }

    @Test
    void reusedContainersHoldEachRowUntilTheNextOne() throws IOException {
        Schema schema = TestSchemas.NESTED;
        List<RowData> rows = rows(schema, ROUND_TRIP_ROWS, 11L);
        File file = files.newFile(dir);
        files.writeRows(file, schema, FlinkSchemaUtil.convert(schema), rows);

        int count = 0;
        int sameInstance = 0;
        RowData previous = null;
        try (CloseableIterable<RowData> read =
                files.rowReader(file).project(schema).reuseContainers().build()) {
            for (RowData row : read) {
                // compare before the next row overwrites the reused container
                RowDataAssert.assertRowEquals(schema.asStruct(), rows.get(count), row);
                sameInstance += row == previous ? 1 : 0;
                previous = row;
                count++;
            }
        }

        assertThat(count).isEqualTo(ROUND_TRIP_ROWS);
        assertThat(sameInstance)
                .as("rows reused")
                .isEqualTo(reusesContainers() ? ROUND_TRIP_ROWS - 1 : 0);
    }

    @Test
    void rowsReadWithoutReuseAreIndependentAcrossBatches() {
        Schema schema = TestSchemas.NESTED;
        // more rows than one ORC batch (1024), so vectors are reset and reused while reading
        List<RowData> rows = rows(schema, 2500, 12L);
        File file = files.newFile(dir);
        files.writeRows(file, schema, null, rows);

        List<RowData> read = files.readRows(file, schema);

        assertThat(read).doesNotHaveDuplicates();
        RowDataAssert.assertRowsEqual(schema, rows, read);
    }

    @Test
    void randomSchemasIncludeNestedTypes() {
        // guards the generator inputs above: the random schemas must actually exercise nesting
        long nested =
                roundTripSchemas()
                        .map(arguments -> (Schema) arguments.get()[1])
                        .filter(schema -> TypeUtil.indexById(schema.asStruct()).size() > 20)
                        .count();
        assertThat(nested).isGreaterThan(6);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("compatibilitySchemas")
    void genericReaderReadsWhatWeWrite(String name, Schema schema) {
        List<RowData> rows = rows(schema, COMPATIBILITY_ROWS, 3L);
        File file = files.newFile(dir);

        files.writeRows(file, schema, FlinkSchemaUtil.convert(schema), rows);
        List<Record> records = files.readRecords(file, schema);

        RowDataAssert.assertRowsEqual(schema, rows, RowDataConverter.fromRecords(schema, records));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("compatibilitySchemas")
    void weReadWhatTheGenericWriterWrites(String name, Schema schema) {
        List<Record> records = records(schema, COMPATIBILITY_ROWS, 5L);
        File file = files.newFile(dir);

        files.writeRecords(file, schema, records);
        List<RowData> rows = files.readRows(file, schema);

        RowDataAssert.assertRecordsMatchRows(schema, records, rows);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("metricsSchemas")
    void reportsTheSameMetricsAsTheGenericWriter(String name, Schema schema) {
        List<Record> records = records(schema, METRICS_ROWS, 21L);
        List<RowData> rows = RowDataConverter.fromRecords(schema, records);

        Metrics ours =
                files.writeRows(files.newFile(dir), schema, FlinkSchemaUtil.convert(schema), rows);
        Metrics generic = files.writeRecords(files.newFile(dir), schema, records);

        assertThat(ours.recordCount()).isEqualTo(METRICS_ROWS);
        assertThat(ours.recordCount()).isEqualTo(generic.recordCount());
        assertThat(ours.valueCounts()).isEqualTo(generic.valueCounts());
        assertThat(ours.nullValueCounts()).isEqualTo(generic.nullValueCounts());
        assertThat(ours.nanValueCounts()).isEqualTo(generic.nanValueCounts());
        assertThat(ours.lowerBounds()).isEqualTo(generic.lowerBounds());
        assertThat(ours.upperBounds()).isEqualTo(generic.upperBounds());
        if (keepsColumnMetrics()) {
            assertThat(ours.nullValueCounts()).isNotEmpty();
            assertThat(ours.lowerBounds()).isNotEmpty();
        } else {
            assertThat(ours.columnSizes()).isEqualTo(generic.columnSizes());
            assertThat(ours.valueCounts()).isNullOrEmpty();
        }
    }

    @Test
    void describesItsFormatRowDataAndRowType() {
        FormatModel<RowData, RowType> model = createModel();

        assertThat(model.format()).isEqualTo(format());
        assertThat(model.type()).isEqualTo(RowData.class);
        assertThat(model.schemaType()).isEqualTo(RowType.class);
    }

    @Test
    void writesDataFilesThroughTheRegistry() throws IOException {
        Schema schema = TestSchemas.NESTED;
        RowType rowType = FlinkSchemaUtil.convert(schema);
        List<RowData> rows = rows(schema, 200, 99L);
        File file = files.newFile(dir);

        DataWriter<RowData> writer =
                FormatModelRegistry.<RowData, RowType>dataWriteBuilder(
                                format(),
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

        assertThat(dataFile.format()).isEqualTo(format());
        assertThat(dataFile.recordCount()).isEqualTo(200L);
        if (keepsColumnMetrics()) {
            assertThat(dataFile.nullValueCounts()).isNotEmpty();
        }
        RowDataAssert.assertRowsEqual(
                schema, rows, files.readRows(file, schema, rowType, java.util.Map.of()));
    }

    /** The rows of {@link #records}. */
    protected final List<RowData> rows(Schema schema, int count, long seed) {
        return RowDataConverter.fromRecords(schema, records(schema, count, seed));
    }

    /** Seeded random records; a format that cannot store some values overrides this. */
    protected List<Record> records(Schema schema, int count, long seed) {
        return RandomRecords.generate(schema, count, seed);
    }
}
