package dev.icebergflink.data.parquet;

import static org.apache.iceberg.expressions.Expressions.and;
import static org.apache.iceberg.expressions.Expressions.equal;
import static org.apache.iceberg.expressions.Expressions.greaterThan;
import static org.apache.iceberg.expressions.Expressions.greaterThanOrEqual;
import static org.apache.iceberg.expressions.Expressions.in;
import static org.apache.iceberg.expressions.Expressions.isNull;
import static org.apache.iceberg.expressions.Expressions.lessThan;
import static org.apache.iceberg.expressions.Expressions.lessThanOrEqual;
import static org.apache.iceberg.expressions.Expressions.not;
import static org.apache.iceberg.expressions.Expressions.notEqual;
import static org.apache.iceberg.expressions.Expressions.notIn;
import static org.apache.iceberg.expressions.Expressions.notNull;
import static org.apache.iceberg.expressions.Expressions.or;
import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.data.FormatTestFiles;
import dev.icebergflink.data.RowDataFileReaders;
import dev.icebergflink.data.RowDataFileWriterFactory;
import dev.icebergflink.data.row.RowDataStructLike;
import dev.icebergflink.tasks.reader.RowDataFileTaskReader;
import dev.icebergflink.tasks.reader.TaskTestTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.FanoutDataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each pruning rule of the batched Parquet read skips a row group, a page or a row only when no row
 * in it can match: every test writes a real file through the connector's writer with small pages
 * and row groups, reads it with a filter, checks the exact rows against a full read filtered in
 * Java by Iceberg's {@link Evaluator}, and reads {@link ParquetScanCounters} to show that the rule
 * really skipped something.
 */
class ParquetPruningTest {

    private static final Schema SCHEMA =
            new Schema(
                    required(1, "id", Types.LongType.get()),
                    optional(2, "sorted", Types.IntegerType.get()),
                    optional(3, "category", Types.StringType.get()),
                    optional(4, "code", Types.StringType.get()),
                    optional(5, "random", Types.IntegerType.get()),
                    optional(6, "note", Types.StringType.get()),
                    optional(7, "day", Types.DateType.get()));

    private static final int ROWS = 20_000;

    /** Rows whose {@code sorted} value is null: a run spanning several pages. */
    private static final int NULLS_FROM = 8_000;

    private static final int NULLS_TO = 9_000;

    @TempDir Path dir;

    @BeforeEach
    void resetCounters() {
        ParquetScanCounters.reset();
    }

    @Test
    void rowGroupsAreSkippedByMinMaxStatistics() {
        DataFile file = write(Map.of());
        int rowGroups = rowGroups(file).size();
        assertThat(rowGroups).as("row groups").isGreaterThanOrEqualTo(4);

        assertThat(assertPrunedReadIsExact(file, lessThan("id", 500L)))
                .isEqualTo(readAll(file).subList(0, 500));
        assertThat(ParquetScanCounters.ROW_GROUPS_READ.get()).isEqualTo(1);
    }

    @Test
    void rowGroupsAreSkippedByDictionaries() {
        DataFile file = write(Map.of());
        // "b" is inside every row group's min/max ("a".."c") but only in the first dictionary
        assertThat(assertPrunedReadIsExact(file, equal("category", "b")))
                .isEqualTo(readAll(file).subList(0, 50));
        // min/max ("a".."c" everywhere) rules none out: the dictionaries do
        assertThat(ParquetScanCounters.ROW_GROUPS_READ.get())
                .isLessThan(rowGroups(file).size() - 1);
    }

    @Test
    void rowGroupsAreSkippedByBloomFiltersOurWriterWrites() {
        DataFile withBloom =
                write(
                        Map.of(
                                TableProperties.PARQUET_BLOOM_FILTER_COLUMN_ENABLED_PREFIX + "code",
                                "true"));
        List<BlockMetaData> rowGroups = rowGroups(withBloom);
        for (BlockMetaData rowGroup : rowGroups) {
            ColumnChunkMetaData code = column(rowGroup, "code");
            assertThat(code.getBloomFilterOffset()).as("bloom filter of code").isPositive();
        }
        Expression filter = in("code", code(4321), code(ROWS + 99));
        assertThat(assertPrunedReadIsExact(withBloom, filter))
                .isEqualTo(readAll(withBloom).subList(4321, 4322));
        assertThat(ParquetScanCounters.ROW_GROUPS_READ.get()).isEqualTo(1);

        ParquetScanCounters.reset();
        assertPrunedReadIsExact(withBloom, equal("code", code(ROWS + 7)));
        assertThat(ParquetScanCounters.ROW_GROUPS_READ.get()).isZero();

        // without bloom filters no row group can be ruled out
        DataFile without = write(Map.of());
        ParquetScanCounters.reset();
        assertPrunedReadIsExact(without, filter);
        assertThat(ParquetScanCounters.ROW_GROUPS_READ.get()).isGreaterThan(1);
    }

    @Test
    void pagesAreSkippedByTheColumnIndexMinMax() {
        DataFile file = write(Map.of());
        // rows 3,000..3,499 hold sorted values 300..349, in one row group
        assertPrunedReadIsExact(
                file, and(greaterThanOrEqual("sorted", 300), lessThan("sorted", 350)));
        assertPagesSkipped();
        assertThat(ParquetScanCounters.ROWS_SKIPPED_BY_PAGES.get()).isGreaterThan(0);
    }

    @Test
    void pagesAreSkippedByNullCounts() {
        DataFile file = write(Map.of());
        assertPrunedReadIsExact(file, isNull("sorted"));
        assertPagesSkipped();

        ParquetScanCounters.reset();
        // the pages holding only nulls cannot match, nor can the pages below 700 or above 1,000
        assertPrunedReadIsExact(file, and(notNull("sorted"), greaterThan("sorted", 700)));
        assertPagesSkipped();
    }

    @Test
    void nullsPassComparisonsAsInIcebergsEvaluatorSoTheirPagesAreKept() {
        DataFile file = write(Map.of());
        // Iceberg's evaluator orders nulls first: null < 5 holds, so the null pages are read
        // (the row group the null run is in also holds values below 790, so Iceberg reads it)
        List<RowData> rows = assertPrunedReadIsExact(file, lessThan("sorted", 790));
        assertThat(rows.stream().filter(row -> row.isNullAt(1)).count()).isPositive();
    }

    @Test
    void pagesAreSkippedByInAndNotIn() {
        DataFile file = write(Map.of());
        assertPrunedReadIsExact(file, in("sorted", 5, 1_500, 1_999));
        assertPagesSkipped();

        ParquetScanCounters.reset();
        assertPrunedReadIsExact(file, notIn("sorted", 5, 1_500));
        assertThat(ParquetScanCounters.PAGES_SKIPPED.get())
                .as("every page holds another value")
                .isZero();
    }

    @Test
    void pagesAreSkippedByAndOrNotCombinations() {
        DataFile file = write(Map.of());
        List<Expression> filters =
                List.of(
                        or(lessThan("sorted", 20), greaterThan("sorted", 1_980)),
                        not(greaterThanOrEqual("sorted", 30)),
                        and(or(equal("sorted", 100), equal("sorted", 1_200)), notNull("id")),
                        not(or(lessThan("sorted", 1_000), isNull("sorted"))),
                        and(lessThanOrEqual("sorted", 50), not(equal("sorted", 10))),
                        and(greaterThan("id", 1_000L), lessThan("id", 1_100L)));
        for (Expression filter : filters) {
            ParquetScanCounters.reset();
            assertPrunedReadIsExact(file, filter);
            assertThat(ParquetScanCounters.PAGES_SKIPPED.get())
                    .as("pages skipped by %s", filter)
                    .isPositive();
        }
        // an OR with a side the page index cannot judge (startsWith) reads every page, and still
        // returns the exact rows
        ParquetScanCounters.reset();
        assertPrunedReadIsExact(
                file, or(lessThan("sorted", 20), Expressions.startsWith("note", "n-1")));
        assertThat(ParquetScanCounters.PAGES_SKIPPED.get()).isZero();
    }

    @Test
    void lateMaterializationBuildsOnlyTheRowsThatPass() {
        DataFile file = write(Map.of());
        List<RowData> rows = assertPrunedReadIsExact(file, lessThan("random", 100));
        assertThat(ParquetScanCounters.ROWS_SKIPPED_BY_PAGES.get())
                .as("random values: no page")
                .isZero();
        // every row but those returned was rejected on its decoded filter value, never built
        // (but for a small row group whose min/max Iceberg already ruled out)
        assertThat(ParquetScanCounters.ROWS_SKIPPED_BY_FILTER.get())
                .as("rows rejected on their decoded filter value")
                .isBetween(ROWS - rows.size() - 100L, ROWS - (long) rows.size());
        assertThat(rows.size()).isBetween(ROWS / 20, ROWS / 5);

        // strings and dates too, and a filter that mixes them
        ParquetScanCounters.reset();
        rows =
                assertPrunedReadIsExact(
                        file,
                        or(
                                and(equal("category", "a"), lessThan("random", 50)),
                                greaterThanOrEqual("day", 19_990)));
        assertThat(ParquetScanCounters.ROWS_SKIPPED_BY_FILTER.get()).isPositive();
    }

    @Test
    void randomFiltersOnRandomDataReadExactlyTheRowsTheyMatch() {
        Random random = new Random(20261203L);
        for (int round = 0; round < 4; round++) {
            boolean sortedData = round % 2 == 0;
            List<RowData> written = randomRows(random, 4_000, sortedData);
            DataFile file = write(written, Map.of(), "random-" + round);
            for (int i = 0; i < 25; i++) {
                Expression filter = randomFilter(random, 3);
                assertPrunedReadIsExact(file, filter);
            }
        }
        assertThat(ParquetScanCounters.PAGES_SKIPPED.get())
                .as("some pages were skipped")
                .isPositive();
        assertThat(ParquetScanCounters.ROWS_SKIPPED_BY_FILTER.get()).isPositive();
    }

    @Test
    void positionAndEqualityDeletesAndPositionsStayRightOnAPrunedRead() {
        Table table = TaskTestTables.create(dir, 2);
        table.updateProperties()
                .set(TableProperties.PARQUET_PAGE_ROW_LIMIT, "100")
                .set(TableProperties.DEFAULT_FILE_FORMAT, "parquet")
                .commit();
        DataFile data =
                TaskTestTables.append(
                        table, FileFormat.PARQUET, TaskTestTables.records(0, 3_000, "a"));
        TaskTestTables.commitDeletes(
                table,
                TaskTestTables.writePositionDeletes(
                        table, FileFormat.PARQUET, data, 10, 2_500, 2_501, 2_777),
                TaskTestTables.writeIdEqualityDeletes(
                        table, FileFormat.PARQUET, "a", 2_600, 2_900, 5));

        Expression filter = and(greaterThanOrEqual("id", 2_450L), lessThan("ts", 2_950_000L));
        Schema projected =
                new Schema(TaskTestTables.SCHEMA.findField("data"), MetadataColumns.ROW_POSITION);
        RowDataFileTaskReader reader = TaskTestTables.reader(table, projected, true);
        List<FileScanTask> tasks = TaskTestTables.planFiles(table, filter, true);
        List<String> read =
                TaskTestTables.formatAll(projected, TaskTestTables.readAll(reader, tasks));

        List<String> expected = new ArrayList<>();
        for (long id = 2_450; id < 2_950; id++) {
            if (id != 2_500 && id != 2_501 && id != 2_777 && id != 2_600 && id != 2_900) {
                expected.add("d" + id + "|" + id); // the position of row id is id
            }
        }
        assertThat(read).containsExactlyElementsOf(expected);
        assertPagesSkipped();
        assertThat(ParquetScanCounters.ROWS_SKIPPED_BY_PAGES.get()).isGreaterThan(2_000);
    }

    // ---------------------------------------------------------------------------------------

    /**
     * Reads {@code file} with {@code filter} and checks that the rows that match are exactly those
     * of an unpruned read: Iceberg's row-at-a-time reader with the same filter (so the same row
     * groups, which Iceberg's own row group filters choose), filtered in Java.
     */
    private static List<RowData> assertPrunedReadIsExact(DataFile file, Expression filter) {
        List<RowData> all = readRowByRow(file, filter);

        Evaluator evaluator = new Evaluator(SCHEMA.asStruct(), filter, true);
        RowDataStructLike view =
                new RowDataStructLike(SCHEMA.asStruct(), FlinkSchemaUtil.convert(SCHEMA));
        List<RowData> expected =
                all.stream()
                        .filter(row -> evaluator.eval(view.wrap(row)))
                        .collect(Collectors.toList());

        List<RowData> pruned = read(file, filter);
        List<RowData> matching =
                pruned.stream()
                        .filter(row -> evaluator.eval(view.wrap(row)))
                        .collect(Collectors.toList());
        // never a matching row lost, in file order
        assertThat(matching).as("rows matching %s", filter).isEqualTo(expected);
        // and nothing else: the filter binds to the projection, so the read filters exactly
        assertThat(pruned).as("rows read with %s", filter).isEqualTo(expected);
        return matching;
    }

    private static List<RowData> readRowByRow(DataFile file, Expression filter) {
        return FormatTestFiles.collect(
                FormatModelRegistry.<RowData, Object>readBuilder(
                                FileFormat.PARQUET, RowData.class, localInput(file))
                        .project(SCHEMA)
                        .filter(filter)
                        .caseSensitive(true)
                        .build());
    }

    /** Every row of {@code file}; not counted among the row groups read. */
    private static List<RowData> readAll(DataFile file) {
        long groups = ParquetScanCounters.ROW_GROUPS_READ.get();
        List<RowData> rows = read(file, null);
        ParquetScanCounters.ROW_GROUPS_READ.set(groups);
        return rows;
    }

    private static org.apache.iceberg.io.InputFile localInput(DataFile file) {
        return org.apache.iceberg.Files.localInput(file.location().replace("file:", ""));
    }

    private static List<RowData> read(DataFile file, Expression filter) {
        var builder =
                RowDataFileReaders.readBuilder(
                                FileFormat.PARQUET,
                                org.apache.iceberg.Files.localInput(
                                        file.location().replace("file:", "")))
                        .project(SCHEMA);
        if (filter != null) {
            builder = builder.filter(filter).caseSensitive(true);
        }
        return FormatTestFiles.collect(builder.build());
    }

    private void assertPagesSkipped() {
        assertThat(ParquetScanCounters.PAGES_SKIPPED.get()).as("pages skipped").isPositive();
        assertThat(ParquetScanCounters.PAGE_INDEX_BYTES.get()).as("page index read").isPositive();
    }

    private DataFile write(Map<String, String> properties) {
        return write(rows(), properties, "table");
    }

    /** Writes {@code rows} through the connector's writer into a new table's single data file. */
    private DataFile write(List<RowData> rows, Map<String, String> extra, String name) {
        Map<String, String> properties = new HashMap<>();
        properties.put(TableProperties.DEFAULT_FILE_FORMAT, "parquet");
        properties.put(TableProperties.PARQUET_PAGE_ROW_LIMIT, "250");
        properties.put(TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, "65536");
        properties.put(TableProperties.PARQUET_ROW_GROUP_CHECK_MIN_RECORD_COUNT, "100");
        properties.put(TableProperties.PARQUET_ROW_GROUP_CHECK_MAX_RECORD_COUNT, "500");
        properties.put(TableProperties.PARQUET_DICT_SIZE_BYTES, "4096");
        properties.putAll(extra);
        Table table =
                new HadoopTables(new Configuration())
                        .create(
                                SCHEMA,
                                PartitionSpec.unpartitioned(),
                                properties,
                                dir.resolve(name + "-" + extra.hashCode()).toString());
        RowDataFileWriterFactory factory = RowDataFileWriterFactory.builderFor(table).build();
        OutputFileFactory outputs = OutputFileFactory.builderFor(table, 0, 1L).build();
        FanoutDataWriter<RowData> writer =
                new FanoutDataWriter<>(factory, outputs, table.io(), Long.MAX_VALUE);
        PartitionKey partition = new PartitionKey(table.spec(), table.schema());
        try (writer) {
            for (RowData row : rows) {
                writer.write(row, table.spec(), partition);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<DataFile> files = writer.result().dataFiles();
        assertThat(files).hasSize(1);
        return files.get(0);
    }

    private static List<RowData> rows() {
        List<RowData> rows = new ArrayList<>(ROWS);
        Random random = new Random(42);
        for (int i = 0; i < ROWS; i++) {
            boolean nullSorted = i >= NULLS_FROM && i < NULLS_TO;
            rows.add(
                    GenericRowData.of(
                            (long) i,
                            nullSorted ? null : i / 10,
                            StringData.fromString(i < 50 ? "b" : (i % 2 == 0 ? "a" : "c")),
                            StringData.fromString(code(i)),
                            random.nextInt(20) == 0 ? null : random.nextInt(1_000),
                            StringData.fromString("n-" + random.nextInt(100_000)),
                            19_000 + i / 20));
        }
        return rows;
    }

    /** A unique, unordered string per row. */
    private static String code(int i) {
        return Integer.toHexString((i * 0x9E3779B1) ^ 0x5bd1e995) + "-" + i;
    }

    private static List<RowData> randomRows(Random random, int count, boolean sortedData) {
        List<RowData> rows = new ArrayList<>(count);
        int nullRunStart = random.nextInt(count);
        for (int i = 0; i < count; i++) {
            int sortedValue = sortedData ? i / 7 : random.nextInt(count / 7 + 1);
            boolean inNullRun = i >= nullRunStart && i < nullRunStart + 600;
            rows.add(
                    GenericRowData.of(
                            sortedData ? (long) i : (long) random.nextInt(count),
                            inNullRun || random.nextInt(30) == 0 ? null : sortedValue,
                            random.nextInt(10) == 0
                                    ? null
                                    : StringData.fromString(
                                            String.valueOf(
                                                    (char)
                                                            ('a'
                                                                    + (sortedData
                                                                            ? i * 26 / count
                                                                            : random.nextInt(
                                                                                    26))))),
                            StringData.fromString(code(i)),
                            random.nextInt(15) == 0 ? null : random.nextInt(1_000),
                            StringData.fromString("n-" + random.nextInt(100)),
                            random.nextInt(8) == 0
                                    ? null
                                    : 19_000 + (sortedData ? i / 50 : random.nextInt(120))));
        }
        return rows;
    }

    private static Expression randomFilter(Random random, int depth) {
        if (depth > 0 && random.nextInt(3) > 0) {
            switch (random.nextInt(3)) {
                case 0:
                    return and(randomFilter(random, depth - 1), randomFilter(random, depth - 1));
                case 1:
                    return or(randomFilter(random, depth - 1), randomFilter(random, depth - 1));
                default:
                    return not(randomFilter(random, depth - 1));
            }
        }
        switch (random.nextInt(5)) {
            case 0:
                return randomPredicate(random, "sorted", random.nextInt(600));
            case 1:
                return randomPredicate(random, "id", (long) random.nextInt(4_000));
            case 2:
                return randomPredicate(
                        random, "category", String.valueOf((char) ('a' + random.nextInt(26))));
            case 3:
                return randomPredicate(random, "day", 19_000 + random.nextInt(130));
            default:
                return randomPredicate(random, "random", random.nextInt(1_000));
        }
    }

    private static <T> Expression randomPredicate(Random random, String column, T value) {
        switch (random.nextInt(10)) {
            case 0:
                return lessThan(column, value);
            case 1:
                return lessThanOrEqual(column, value);
            case 2:
                return greaterThan(column, value);
            case 3:
                return greaterThanOrEqual(column, value);
            case 4:
                return equal(column, value);
            case 5:
                return notEqual(column, value);
            case 6:
                return in(column, value, value);
            case 7:
                return notIn(column, value);
            case 8:
                return isNull(column);
            default:
                return notNull(column);
        }
    }

    private static List<BlockMetaData> rowGroups(DataFile file) {
        try (ParquetFileReader reader =
                ParquetFileReader.open(
                        new LocalInputFile(Path.of(file.location().replace("file:", ""))))) {
            return reader.getFooter().getBlocks();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ColumnChunkMetaData column(BlockMetaData rowGroup, String name) {
        return rowGroup.getColumns().stream()
                .filter(chunk -> chunk.getPath().toDotString().equals(name))
                .findFirst()
                .orElseThrow();
    }
}
