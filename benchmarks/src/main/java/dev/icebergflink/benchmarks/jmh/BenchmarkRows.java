package dev.icebergflink.benchmarks.jmh;

import dev.icebergflink.FlinkSchemaUtil;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;

/**
 * The rows every micro-benchmark works on: the ten columns of the benchmark issue's generator
 * (BIGINT id, TIMESTAMP(6), a 16-value category, a ~20-character name, DOUBLE, INT, BOOLEAN,
 * DECIMAL(10,2), DATE, a ~60-character comment), produced from a seed both as Flink {@link RowData}
 * and as Iceberg generic {@link Record}s holding the same values.
 *
 * <p>It exists so that each benchmark compares the connector's RowData path against Iceberg's
 * generic path on identical data.
 */
public final class BenchmarkRows {

    /** The Iceberg schema of the benchmark rows. */
    public static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "ts", Types.TimestampType.withoutZone()),
                    Types.NestedField.optional(3, "category", Types.StringType.get()),
                    Types.NestedField.optional(4, "name", Types.StringType.get()),
                    Types.NestedField.optional(5, "price", Types.DoubleType.get()),
                    Types.NestedField.optional(6, "quantity", Types.IntegerType.get()),
                    Types.NestedField.optional(7, "active", Types.BooleanType.get()),
                    Types.NestedField.optional(8, "amount", Types.DecimalType.of(10, 2)),
                    Types.NestedField.optional(9, "day", Types.DateType.get()),
                    Types.NestedField.optional(10, "comment", Types.StringType.get()));

    /** The Flink row type of {@link #SCHEMA}. */
    public static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);

    /** How many distinct categories there are. */
    public static final int CATEGORIES = 16;

    private static final String ALPHABET =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ";
    private static final LocalDateTime BASE_TIME = LocalDateTime.of(2024, 1, 1, 0, 0);
    private static final long BASE_DAY = LocalDate.of(2024, 1, 1).toEpochDay();

    private final List<RowData> rows;
    private final List<Record> records;

    private BenchmarkRows(List<RowData> rows, List<Record> records) {
        this.rows = rows;
        this.records = records;
    }

    /** {@code count} rows generated from {@code seed}, ids 0 to count - 1. */
    public static BenchmarkRows generate(int count, long seed) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1, got " + count);
        }
        SplittableRandom random = new SplittableRandom(seed);
        List<RowData> rows = new ArrayList<>(count);
        List<Record> records = new ArrayList<>(count);
        Record template = GenericRecord.create(SCHEMA);
        for (int i = 0; i < count; i++) {
            long id = i;
            LocalDateTime ts =
                    BASE_TIME.plusNanos(i * 1_000_000_000L + random.nextInt(1_000_000) * 1_000L);
            String category = String.format("category-%02d", random.nextInt(CATEGORIES));
            String name = text(random, 15 + random.nextInt(11));
            double price = random.nextDouble() * 1000;
            int quantity = random.nextInt(10_000);
            boolean active = random.nextBoolean();
            BigDecimal amount = BigDecimal.valueOf(random.nextLong(10_000_000_000L), 2);
            LocalDate day = LocalDate.ofEpochDay(BASE_DAY + random.nextInt(365));
            String comment = text(random, 50 + random.nextInt(21));

            rows.add(
                    GenericRowData.of(
                            id,
                            TimestampData.fromLocalDateTime(ts),
                            StringData.fromString(category),
                            StringData.fromString(name),
                            price,
                            quantity,
                            active,
                            DecimalData.fromBigDecimal(amount, 10, 2),
                            (int) day.toEpochDay(),
                            StringData.fromString(comment)));

            Record record = template.copy();
            record.set(0, id);
            record.set(1, ts);
            record.set(2, category);
            record.set(3, name);
            record.set(4, price);
            record.set(5, quantity);
            record.set(6, active);
            record.set(7, amount);
            record.set(8, day);
            record.set(9, comment);
            records.add(record);
        }
        return new BenchmarkRows(List.copyOf(rows), List.copyOf(records));
    }

    /** The rows as Flink internal rows. */
    public List<RowData> rowData() {
        return rows;
    }

    /** The same rows as Iceberg generic records. */
    public List<Record> records() {
        return records;
    }

    /** How many rows there are. */
    public int size() {
        return rows.size();
    }

    private static String text(SplittableRandom random, int length) {
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
        }
        return new String(chars);
    }
}
