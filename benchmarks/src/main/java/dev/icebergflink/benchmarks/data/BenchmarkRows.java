package dev.icebergflink.benchmarks.data;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;

/**
 * The rows every benchmark writes and reads: ten columns whose values are a pure function of a seed
 * and the row id, so the Flink generator ({@link RowData}) and the generic limit workloads ({@link
 * Record}) produce exactly the same rows, and any reader can check what it got.
 *
 * <p>Columns: {@code id} BIGINT (the key), {@code ts} TIMESTAMP(6), {@code category} one of 16
 * strings, {@code name} a 20-character string, {@code price} DOUBLE, {@code quantity} INT uniform
 * in [0, 1000) (so {@code quantity < 100} selects about 10%), {@code active} BOOLEAN, {@code
 * amount} DECIMAL(10,2), {@code day} DATE and {@code comment} a 60-character string.
 */
public final class BenchmarkRows implements Serializable {

    private static final long serialVersionUID = 1L;

    /**
     * The table schema of the append and read workloads. It has no identifier fields on purpose: a
     * table with identifier fields makes {@code IcebergSink} key its input by them and write with
     * the delta writer, which is the upsert's path, not an append's.
     */
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

    /** The schema of the upsert table: {@link #SCHEMA} with {@code id} as its identifier field. */
    public static final Schema KEYED_SCHEMA = new Schema(SCHEMA.columns(), java.util.Set.of(1));

    /**
     * The Flink row type of {@link #SCHEMA}, as a connector's schema conversion gives it ({@code
     * BenchmarkRowsTest} checks it against ours). Spelled out with Flink's types only, because the
     * launcher of Iceberg's connector shares this class and must not see our connector.
     */
    public static final RowType ROW_TYPE =
            RowType.of(
                    new LogicalType[] {
                        new BigIntType(false),
                        new TimestampType(6),
                        new VarCharType(VarCharType.MAX_LENGTH),
                        new VarCharType(VarCharType.MAX_LENGTH),
                        new DoubleType(),
                        new IntType(),
                        new BooleanType(),
                        new DecimalType(10, 2),
                        new DateType(),
                        new VarCharType(VarCharType.MAX_LENGTH)
                    },
                    SCHEMA.columns().stream().map(Types.NestedField::name).toArray(String[]::new));

    /** Rows with {@code quantity < FILTER_QUANTITY} are the ~10% the filtered workloads select. */
    public static final int FILTER_QUANTITY = 100;

    /** How many distinct categories there are. */
    public static final int CATEGORIES = 16;

    static final int NAME_LENGTH = 20;
    static final int COMMENT_LENGTH = 60;

    private static final String[] CATEGORY_NAMES = new String[CATEGORIES];
    private static final char[] ALPHABET =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -".toCharArray();
    private static final LocalDateTime EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);
    private static final long START_MICROS =
            ChronoUnit.MICROS.between(EPOCH, LocalDateTime.of(2026, 1, 1, 0, 0));
    private static final long YEAR_MICROS = 365L * 24 * 3600 * 1_000_000L;
    private static final int START_DAY = (int) LocalDate.of(2020, 1, 1).toEpochDay();

    static {
        for (int i = 0; i < CATEGORIES; i++) {
            CATEGORY_NAMES[i] = String.format("category-%02d", i);
        }
    }

    private final long seed;

    /**
     * @param seed the seed; a different seed gives different values for the same ids (the upsert
     *     writes its new values with another seed)
     */
    public BenchmarkRows(long seed) {
        this.seed = seed;
    }

    /** The seed of these rows. */
    public long seed() {
        return seed;
    }

    /** The row with this id as Flink internal data. */
    public RowData rowData(long id) {
        long h = hash(id, 0);
        long h2 = hash(id, 1);
        GenericRowData row = new GenericRowData(10);
        row.setField(0, id);
        long micros = tsMicros(h);
        row.setField(1, TimestampData.fromEpochMillis(micros / 1000, (int) (micros % 1000) * 1000));
        row.setField(2, StringData.fromString(CATEGORY_NAMES[category(h)]));
        row.setField(3, StringData.fromString(text(id, 2, NAME_LENGTH)));
        row.setField(4, price(h2));
        row.setField(5, quantity(h));
        row.setField(6, active(h2));
        row.setField(7, DecimalData.fromUnscaledLong(amountCents(h2), 10, 2));
        row.setField(8, day(h2));
        row.setField(9, StringData.fromString(text(id, 3, COMMENT_LENGTH)));
        return row;
    }

    /** The row with this id as an Iceberg generic record of {@link #SCHEMA}. */
    public Record record(long id) {
        long h = hash(id, 0);
        long h2 = hash(id, 1);
        GenericRecord record = GenericRecord.create(SCHEMA);
        record.set(0, id);
        record.set(1, EPOCH.plus(tsMicros(h), ChronoUnit.MICROS));
        record.set(2, CATEGORY_NAMES[category(h)]);
        record.set(3, text(id, 2, NAME_LENGTH));
        record.set(4, price(h2));
        record.set(5, quantity(h));
        record.set(6, active(h2));
        record.set(7, BigDecimal.valueOf(amountCents(h2), 2));
        record.set(8, LocalDate.ofEpochDay(day(h2)));
        record.set(9, text(id, 3, COMMENT_LENGTH));
        return record;
    }

    /** Rows {@code [0, count)} as Flink internal data (for micro-benchmarks that hold them all). */
    public List<RowData> rowData(int count) {
        List<RowData> rows = new ArrayList<>(count);
        for (long id = 0; id < count; id++) {
            rows.add(rowData(id));
        }
        return rows;
    }

    /** Rows {@code [0, count)} as Iceberg generic records, equal to {@link #rowData(int)}. */
    public List<Record> records(int count) {
        List<Record> records = new ArrayList<>(count);
        for (long id = 0; id < count; id++) {
            records.add(record(id));
        }
        return records;
    }

    /**
     * The quantity of row {@code id}: lets a check count the filtered rows without building them.
     */
    public int quantityOf(long id) {
        return quantity(hash(id, 0));
    }

    /** How many of the ids {@code [0, rows)} pass the filter {@code quantity < FILTER_QUANTITY}. */
    public long filteredCount(long rows) {
        long count = 0;
        for (long id = 0; id < rows; id++) {
            if (quantityOf(id) < FILTER_QUANTITY) {
                count++;
            }
        }
        return count;
    }

    private static long tsMicros(long h) {
        return START_MICROS + Long.remainderUnsigned(h, YEAR_MICROS);
    }

    private static int category(long h) {
        return (int) (h >>> 60);
    }

    private static int quantity(long h) {
        return (int) ((h >>> 20) % 1000);
    }

    private static double price(long h) {
        return (h >>> 11) * 0x1.0p-53 * 1000.0;
    }

    private static boolean active(long h) {
        return (h & 1) == 0;
    }

    private static long amountCents(long h) {
        return (h >>> 1) % 100_000_000L;
    }

    private static int day(long h) {
        return START_DAY + (int) ((h >>> 40) % 3650);
    }

    private String text(long id, int salt, int length) {
        char[] chars = new char[length];
        long bits = 0;
        int left = 0;
        int round = 0;
        for (int i = 0; i < length; i++) {
            if (left < 6) {
                bits = hash(id, (salt << 8) + round++);
                left = 64;
            }
            chars[i] = ALPHABET[(int) (bits & 63)];
            bits >>>= 6;
            left -= 6;
        }
        return new String(chars);
    }

    private long hash(long id, int stream) {
        return mix(mix(seed * 0x9E3779B97F4A7C15L + stream) ^ id);
    }

    /** SplitMix64's finalizer: a fast, well-spread 64-bit mix. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
