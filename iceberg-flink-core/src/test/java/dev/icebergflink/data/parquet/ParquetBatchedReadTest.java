package dev.icebergflink.data.parquet;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.data.FormatTestFiles;
import dev.icebergflink.data.RowDataFileReaders;
import dev.icebergflink.testing.RowDataAssert;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Files;
import org.apache.iceberg.Schema;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parquet files read through the batched path ({@link RowDataFileReaders}, which decodes plain and
 * dictionary-encoded top-level columns with Flink's columnar decoders) return exactly the rows
 * written and the rows of the row-at-a-time path: across row groups whose dictionaries differ,
 * across batch and page boundaries, where a column chunk falls back from dictionary to plain
 * encoding, with nulls, for files with the delta encodings of v2 pages (which stay on the row
 * path), and for split ranges.
 */
class ParquetBatchedReadTest {

    private static final Schema SCHEMA =
            new Schema(
                    required(1, "id", Types.LongType.get()),
                    optional(2, "category", Types.StringType.get()),
                    optional(3, "note", Types.StringType.get()),
                    optional(4, "amount", Types.DoubleType.get()),
                    optional(5, "count", Types.IntegerType.get()),
                    optional(6, "ratio", Types.FloatType.get()),
                    optional(7, "day", Types.DateType.get()),
                    optional(8, "at", Types.TimeType.get()),
                    optional(9, "ts", Types.TimestampType.withoutZone()),
                    optional(10, "tstz", Types.TimestampType.withZone()),
                    optional(11, "price", Types.DecimalType.of(9, 2)),
                    optional(12, "big", Types.DecimalType.of(18, 4)),
                    optional(13, "huge", Types.DecimalType.of(30, 3)),
                    optional(14, "flag", Types.BooleanType.get()),
                    optional(15, "payload", Types.BinaryType.get()),
                    optional(16, "uid", Types.UUIDType.get()));

    /** Every column but the fixed-length decimal and the uuid. */
    private static final int BATCHED_COLUMNS = 14;

    /** The columns whose values a row holds as they are: every batched one. */
    private static final List<String> COLUMNAR =
            List.of(
                    "id",
                    "category",
                    "note",
                    "amount",
                    "count",
                    "ratio",
                    "day",
                    "at",
                    "ts",
                    "tstz",
                    "price",
                    "big",
                    "flag",
                    "payload");

    private static final int ROWS = 30_001;

    /** Small row groups, pages and dictionaries, so that the file has many of each. */
    private static final Map<String, String> SMALL_PARTS =
            Map.of(
                    "write.parquet.row-group-size-bytes", "524288",
                    "write.parquet.page-size-bytes", "4096",
                    "write.parquet.dict-size-bytes", "32768");

    @TempDir File temp;

    @Test
    void batchedReadReturnsTheWrittenRowsAndTheRowPathsRows() throws IOException {
        List<RowData> written = rows(ROWS, 7L);
        File file = write(written, WriterVersion.PARQUET_1_0);

        List<BlockMetaData> rowGroups = rowGroups(file);
        assertThat(rowGroups).as("row groups").hasSizeGreaterThan(3);
        assertThat(encodings(rowGroups, "note"))
                .as("the note column falls back from dictionary to plain within a chunk")
                .contains(Encoding.PLAIN_DICTIONARY, Encoding.PLAIN);
        assertThat(encodings(rowGroups, "category")).doesNotContain(Encoding.PLAIN);

        List<RowData> batched = FormatTestFiles.collect(readBatched(file));
        RowDataAssert.assertRowsEqual(SCHEMA, written, batched);

        // binary rows: byte for byte
        assertThat(batched).isEqualTo(readRowByRow(file, SCHEMA));

        assertThat(batchedFieldCounts(file)).containsExactly(BATCHED_COLUMNS);
    }

    @Test
    void rowsOfColumnsTakenAsTheyAreAreBuiltColumnByColumn() throws IOException {
        List<RowData> written = rows(ROWS, 17L);
        File file = write(written, WriterVersion.PARQUET_1_0);
        // without the fixed-length decimal and the uuid, every field is a batched column whose
        // values the row holds as they are: the rows are built a column at a time
        Schema columnar = SCHEMA.select(COLUMNAR);

        List<RowData> batched =
                FormatTestFiles.collect(
                        RowDataFileReaders.readBuilder(FileFormat.PARQUET, Files.localInput(file))
                                .project(columnar)
                                .build());
        // binary rows: byte for byte
        assertThat(batched).hasSize(ROWS).isEqualTo(readRowByRow(file, columnar));
        RowDataAssert.assertRowsEqual(columnar, project(written, columnar), batched);

        assertThat(readerStates(file, columnar, ParquetRowBatchReader::readsColumnar))
                .containsExactly(true);
        assertThat(readerStates(file, SCHEMA, ParquetRowBatchReader::readsColumnar))
                .as("a fixed-length decimal is read value by value, so the rows are too")
                .containsExactly(false);
    }

    @Test
    void columnsInDeltaEncodingsOfV2PagesAreReadRowByRow() throws IOException {
        List<RowData> written = rows(ROWS, 11L);
        File file = write(written, WriterVersion.PARQUET_2_0);
        List<BlockMetaData> rowGroups = rowGroups(file);
        assertThat(encodings(rowGroups, "id")).contains(Encoding.DELTA_BINARY_PACKED);
        assertThat(encodings(rowGroups, "category")).doesNotContain(Encoding.DELTA_BYTE_ARRAY);
        assertThat(dataEncodings(rowGroups, "flag"))
                .as("v2 pages run-length encode booleans")
                .containsExactly(Encoding.RLE);

        RowDataAssert.assertRowsEqual(SCHEMA, written, FormatTestFiles.collect(readBatched(file)));

        // the dictionary-encoded columns still decode in batches, the delta-encoded ones do not
        Set<Integer> counts = batchedFieldCounts(file);
        assertThat(counts).allSatisfy(count -> assertThat(count).isBetween(1, BATCHED_COLUMNS - 1));
    }

    @Test
    void splitsOfAFileTogetherReadEveryRowOnce() throws IOException {
        List<RowData> written = rows(ROWS, 13L);
        File file = write(written, WriterVersion.PARQUET_1_0);
        long length = file.length();
        long middle = length / 2;

        List<RowData> read = new ArrayList<>();
        read.addAll(FormatTestFiles.collect(readBatched(file, 0, middle)));
        int firstSplitRows = read.size();
        read.addAll(FormatTestFiles.collect(readBatched(file, middle, length - middle)));

        assertThat(firstSplitRows).isBetween(1, ROWS - 1);
        RowDataAssert.assertRowsEqual(SCHEMA, written, read);
    }

    /** The rows of the row-at-a-time path (Iceberg's format model registry). */
    private static List<RowData> readRowByRow(File file, Schema projection) {
        return FormatTestFiles.collect(
                FormatModelRegistry.<RowData, Object>readBuilder(
                                FileFormat.PARQUET, RowData.class, Files.localInput(file))
                        .project(projection)
                        .build());
    }

    private CloseableIterable<RowData> readBatched(File file) {
        return RowDataFileReaders.readBuilder(FileFormat.PARQUET, Files.localInput(file))
                .project(SCHEMA)
                .build();
    }

    private CloseableIterable<RowData> readBatched(File file, long start, long length) {
        return RowDataFileReaders.readBuilder(FileFormat.PARQUET, Files.localInput(file))
                .project(SCHEMA)
                .split(start, length)
                .build();
    }

    /** How many fields each row group of the file decoded in batches. */
    private static Set<Integer> batchedFieldCounts(File file) throws IOException {
        return readerStates(file, SCHEMA, ParquetRowBatchReader::batchedFieldCount);
    }

    /** What {@code state} says of the batched reader of {@code projection} after each batch. */
    private static <T extends Comparable<T>> Set<T> readerStates(
            File file, Schema projection, Function<ParquetRowBatchReader, T> state)
            throws IOException {
        AtomicReference<ParquetRowBatchReader> reader = new AtomicReference<>();
        Set<T> states = new TreeSet<>();
        try (CloseableIterable<ParquetRowBatch> batches =
                Parquet.read(Files.localInput(file))
                        .project(projection)
                        .createBatchedReaderFunc(
                                fileSchema -> {
                                    reader.set(
                                            (ParquetRowBatchReader)
                                                    ParquetRowDataReaders.buildBatchReader(
                                                            projection,
                                                            fileSchema,
                                                            null,
                                                            Map.of()));
                                    return reader.get();
                                })
                        .build()) {
            for (ParquetRowBatch ignored : batches) {
                states.add(state.apply(reader.get()));
            }
        }
        return states;
    }

    /** The fields of {@code projection} of each row, in its order. */
    private static List<RowData> project(List<RowData> rows, Schema projection) {
        List<Integer> fields = new ArrayList<>();
        for (Types.NestedField field : projection.columns()) {
            fields.add(SCHEMA.columns().indexOf(SCHEMA.findField(field.fieldId())));
        }
        List<RowData> projected = new ArrayList<>(rows.size());
        for (RowData row : rows) {
            GenericRowData copy = new GenericRowData(fields.size());
            for (int i = 0; i < fields.size(); i++) {
                copy.setField(i, ((GenericRowData) row).getField(fields.get(i)));
            }
            projected.add(copy);
        }
        return projected;
    }

    private File write(List<RowData> rows, WriterVersion version) throws IOException {
        File file = new File(temp, version.name().toLowerCase() + ".parquet");
        FileAppender<RowData> appender =
                Parquet.write(Files.localOutput(file))
                        .schema(SCHEMA)
                        .createWriterFunc(
                                (schema, fileSchema) ->
                                        ParquetRowDataWriters.buildWriter(schema, fileSchema, null))
                        .setAll(SMALL_PARTS)
                        .writerVersion(version)
                        .build();
        try (appender) {
            appender.addAll(rows);
        }
        return file;
    }

    private static List<BlockMetaData> rowGroups(File file) {
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file.toPath()))) {
            return reader.getFooter().getBlocks();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Set<Encoding> encodings(List<BlockMetaData> rowGroups, String column) {
        Set<Encoding> encodings = EnumSet.noneOf(Encoding.class);
        for (BlockMetaData rowGroup : rowGroups) {
            for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
                if (chunk.getPath().toDotString().equals(column)) {
                    encodings.addAll(chunk.getEncodings());
                }
            }
        }
        return encodings;
    }

    private static Set<Encoding> dataEncodings(List<BlockMetaData> rowGroups, String column) {
        Set<Encoding> encodings = EnumSet.noneOf(Encoding.class);
        for (BlockMetaData rowGroup : rowGroups) {
            for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
                if (chunk.getPath().toDotString().equals(column)) {
                    encodings.addAll(chunk.getEncodingStats().getDataEncodings());
                }
            }
        }
        return encodings;
    }

    /**
     * Seeded rows: categories from a few values that change every 5,000 rows (so row groups have
     * different dictionaries), notes that repeat for a while and then are all different (so Parquet
     * starts a dictionary, then gives up on it within a column chunk), and about one null in nine
     * values.
     */
    private static List<RowData> rows(int count, long seed) {
        Random random = new Random(seed);
        List<RowData> rows = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            GenericRowData row = new GenericRowData(SCHEMA.columns().size());
            row.setField(0, (long) i * 7919L - 1_000_000L);
            row.setField(
                    1, nullOr(random, StringData.fromString("cat-" + (i / 5_000) + "-" + (i % 5))));
            String note = i % 6_000 < 1_500 ? "note " + (i % 40) : "note " + random.nextLong();
            row.setField(2, nullOr(random, StringData.fromString(note)));
            row.setField(3, nullOr(random, random.nextDouble() * 1e6 - 5e5));
            row.setField(4, nullOr(random, random.nextInt()));
            row.setField(5, nullOr(random, random.nextFloat()));
            row.setField(6, nullOr(random, random.nextInt(40_000) - 10_000));
            row.setField(7, nullOr(random, random.nextInt(86_400_000)));
            LocalDateTime local =
                    LocalDateTime.ofEpochSecond(
                            random.nextInt(2_000_000_000) - 500_000_000L,
                            random.nextInt(1_000_000) * 1_000,
                            ZoneOffset.UTC);
            row.setField(8, nullOr(random, TimestampData.fromLocalDateTime(local)));
            row.setField(
                    9, nullOr(random, TimestampData.fromInstant(local.toInstant(ZoneOffset.UTC))));
            row.setField(10, nullOr(random, decimal(random.nextInt(), 9, 2)));
            row.setField(
                    11, nullOr(random, decimal(random.nextLong() % 1_000_000_000_000_000L, 18, 4)));
            row.setField(12, nullOr(random, decimal(random.nextLong(), 30, 3)));
            row.setField(13, nullOr(random, random.nextBoolean()));
            byte[] payload = new byte[random.nextInt(12)];
            random.nextBytes(payload);
            row.setField(14, nullOr(random, payload));
            row.setField(
                    15,
                    nullOr(
                            random,
                            ByteBuffer.allocate(16)
                                    .putLong(random.nextLong())
                                    .putLong(random.nextLong())
                                    .array()));
            rows.add(row);
        }
        return rows;
    }

    private static DecimalData decimal(long unscaled, int precision, int scale) {
        return DecimalData.fromBigDecimal(BigDecimal.valueOf(unscaled, scale), precision, scale);
    }

    private static <T> T nullOr(Random random, T value) {
        return random.nextInt(9) == 0 ? null : value;
    }
}
