package dev.icebergflink.benchmarks.planning;

import dev.icebergflink.benchmarks.data.BenchmarkRows;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Adds data files to a table as metadata only: each file has a path, a size, a record count and
 * column metrics (value, null and NaN counts, sizes, lower and upper bounds) of the {@link
 * BenchmarkRows#SCHEMA} columns, but nothing is written at that path.
 *
 * <p>It exists because split planning reads manifests only: a table of 100,000 small files can be
 * planned without writing 100,000 files. The files are appended in a few big commits, as a stream
 * of small checkpoints compacted into few manifests would leave them.
 */
public final class SyntheticDataFiles {

    private static final long MICROS_PER_DAY = 86_400_000_000L;
    private static final long FIRST_DAY = LocalDate.of(2024, 1, 1).toEpochDay();

    private SyntheticDataFiles() {}

    /**
     * Appends {@code files} metadata-only Parquet data files to the unpartitioned {@code table} in
     * {@code commits} append commits (the last may be smaller), seeded by {@code seed}.
     *
     * @return the number of files appended
     */
    public static int append(Table table, int files, int commits, long seed) {
        if (files < 1 || commits < 1) {
            throw new IllegalArgumentException(
                    String.format(
                            "files and commits must be at least 1, got files=%d, commits=%d",
                            files, commits));
        }
        if (!table.spec().isUnpartitioned()) {
            throw new IllegalArgumentException(
                    "Synthetic data files go into unpartitioned tables only, got spec "
                            + table.spec());
        }
        SplittableRandom random = new SplittableRandom(seed);
        int perCommit = (files + commits - 1) / commits;
        int added = 0;
        while (added < files) {
            AppendFiles append = table.newAppend();
            int end = Math.min(files, added + perCommit);
            for (int i = added; i < end; i++) {
                append.appendFile(dataFile(table.spec(), table.location(), i, random));
            }
            append.commit();
            added = end;
        }
        return added;
    }

    /** One metadata-only data file, number {@code index}, of about 0.5 to 2 MB. */
    static DataFile dataFile(
            PartitionSpec spec, String tableLocation, int index, SplittableRandom random) {
        long records = 5_000 + random.nextInt(15_000);
        long size = records * 100 + random.nextInt(4096);
        long firstId = index * 20_000L;
        long day = FIRST_DAY + index % 365;
        Map<Integer, Long> columnSizes = new HashMap<>();
        Map<Integer, Long> valueCounts = new HashMap<>();
        Map<Integer, Long> nullCounts = new HashMap<>();
        Map<Integer, Long> nanCounts = new HashMap<>();
        Map<Integer, ByteBuffer> lower = new HashMap<>();
        Map<Integer, ByteBuffer> upper = new HashMap<>();
        for (Types.NestedField field : BenchmarkRows.SCHEMA.columns()) {
            int id = field.fieldId();
            columnSizes.put(id, size / 10);
            valueCounts.put(id, records);
            nullCounts.put(id, 0L);
        }
        nanCounts.put(5, 0L);
        bounds(lower, upper, 1, Types.LongType.get(), firstId, firstId + records - 1);
        bounds(
                lower,
                upper,
                2,
                Types.TimestampType.withoutZone(),
                day * MICROS_PER_DAY,
                (day + 1) * MICROS_PER_DAY - 1);
        bounds(lower, upper, 3, Types.StringType.get(), "category-00", "category-15");
        bounds(lower, upper, 4, Types.StringType.get(), "0AbCdEfGhIjKlMnO", "zYxWvUtSrQpOnMlK");
        bounds(lower, upper, 5, Types.DoubleType.get(), 0.01, 999.99);
        bounds(lower, upper, 6, Types.IntegerType.get(), 0, 9_999);
        bounds(lower, upper, 7, Types.BooleanType.get(), false, true);
        bounds(
                lower,
                upper,
                8,
                Types.DecimalType.of(10, 2),
                new BigDecimal("0.01"),
                new BigDecimal("99999999.99"));
        bounds(lower, upper, 9, Types.DateType.get(), (int) FIRST_DAY, (int) FIRST_DAY + 364);
        bounds(lower, upper, 10, Types.StringType.get(), " a quick brown f", "zz top of the ro");
        return DataFiles.builder(spec)
                .withPath(String.format("%s/data/%08d-0-synthetic.parquet", tableLocation, index))
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(size)
                .withRecordCount(records)
                .withMetrics(
                        new Metrics(
                                records,
                                columnSizes,
                                valueCounts,
                                nullCounts,
                                nanCounts,
                                lower,
                                upper))
                .build();
    }

    private static void bounds(
            Map<Integer, ByteBuffer> lower,
            Map<Integer, ByteBuffer> upper,
            int fieldId,
            Type type,
            Object min,
            Object max) {
        lower.put(fieldId, Conversions.toByteBuffer(type, min));
        upper.put(fieldId, Conversions.toByteBuffer(type, max));
    }
}
