package dev.icebergflink.examples;

import dev.icebergflink.examples.ChangeEvent.Operation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;

/**
 * The change log of a small shop database that {@link DatabaseReplication} replicates: a
 * deterministic stream of {@link ChangeEvent}s, a function of their position only, so that every
 * run (and every restart from a checkpoint) produces the same changes and a test can replay them.
 *
 * <p>The database has three tables, each with the primary key {@code id}:
 *
 * <ul>
 *   <li>{@code customers (id, name, email)}; from {@link #schemaChangeAt()} on it has a new column,
 *       {@code phone} (schema version 2);
 *   <li>{@code orders (id, customer_id, total_cents int, status)}; from {@link #schemaChangeAt()}
 *       on {@code total_cents} is a {@code bigint} (schema version 2), and the totals outgrow an
 *       int;
 *   <li>{@code shipments (id, order_id, carrier, status)}, which is created in the source database
 *       mid-stream: its first change is change {@link #shipmentsFrom()}.
 * </ul>
 *
 * <p>Until {@code shipments} exists, changes alternate between customers and orders; from then on
 * they go round the three tables. Of each table's changes, four in five touch its {@value
 * #BUSY_ROWS} busy rows (ids 1 to {@value #BUSY_ROWS}), which are inserted, updated, deleted and
 * inserted again; the fifth inserts a new row (ids from {@value #FIRST_NEW_ID} on) that never
 * changes again, so rows written before the schema change stay as they were.
 */
public final class GeneratedChanges implements GeneratorFunction<Long, ChangeEvent> {

    private static final long serialVersionUID = 1L;

    /** The source tables, in the order changes go round them. */
    public static final List<String> TABLES = List.of("customers", "orders", "shipments");

    /** How many busy rows each table has. */
    public static final int BUSY_ROWS = 8;

    /** The id of the first row inserted once and never changed. */
    public static final long FIRST_NEW_ID = 1001;

    /** Of this many changes of a table, the last inserts a new row. */
    private static final int NEW_ROW_EVERY = 5;

    private static final String[] ORDER_STATUSES = {"placed", "paid", "shipped"};
    private static final String[] CARRIERS = {"DHL", "UPS", "FedEx"};

    /** The schema versions of each source table; version v is element v - 1. */
    private static final Map<String, List<Schema>> SCHEMAS =
            Map.of(
                    "customers",
                    List.of(
                            keyed(
                                    Types.NestedField.optional(2, "name", Types.StringType.get()),
                                    Types.NestedField.optional(3, "email", Types.StringType.get())),
                            keyed(
                                    Types.NestedField.optional(2, "name", Types.StringType.get()),
                                    Types.NestedField.optional(3, "email", Types.StringType.get()),
                                    Types.NestedField.optional(
                                            4, "phone", Types.StringType.get()))),
                    "orders",
                    List.of(
                            keyed(
                                    Types.NestedField.optional(
                                            2, "customer_id", Types.LongType.get()),
                                    Types.NestedField.optional(
                                            3, "total_cents", Types.IntegerType.get()),
                                    Types.NestedField.optional(
                                            4, "status", Types.StringType.get())),
                            keyed(
                                    Types.NestedField.optional(
                                            2, "customer_id", Types.LongType.get()),
                                    Types.NestedField.optional(
                                            3, "total_cents", Types.LongType.get()),
                                    Types.NestedField.optional(
                                            4, "status", Types.StringType.get()))),
                    "shipments",
                    List.of(
                            keyed(
                                    Types.NestedField.optional(2, "order_id", Types.LongType.get()),
                                    Types.NestedField.optional(
                                            3, "carrier", Types.StringType.get()),
                                    Types.NestedField.optional(
                                            4, "status", Types.StringType.get()))));

    private final long count;

    /**
     * The change log of {@code count} changes; the schema changes and the new table come at fixed
     * fractions of it.
     */
    public GeneratedChanges(long count) {
        if (count < 0) {
            throw new IllegalArgumentException("The number of changes must not be negative");
        }
        this.count = count;
    }

    /**
     * The schema of a source table in a version.
     *
     * @throws IllegalArgumentException for a table or version the source database never had
     */
    public static Schema schema(String table, int version) {
        List<Schema> versions = SCHEMAS.get(table);
        if (versions == null || version < 1 || version > versions.size()) {
            throw new IllegalArgumentException(
                    "The source database has no table " + table + " in schema version " + version);
        }
        return versions.get(version - 1);
    }

    /** The position of the first change in schema version 2 (customers and orders). */
    public long schemaChangeAt() {
        return count / 2;
    }

    /** The position of the first change of {@code shipments}, the table created mid-stream. */
    public long shipmentsFrom() {
        return count / 3;
    }

    /** The change at {@code position} (0 to count - 1). */
    @Override
    public ChangeEvent map(Long position) {
        long index = position;
        // which table, and how many changes of that table came before this one
        String table;
        long nth;
        long shipmentsFrom = shipmentsFrom();
        if (index < shipmentsFrom) {
            table = TABLES.get((int) (index % 2));
            nth = index / 2;
        } else {
            long sinceShipments = index - shipmentsFrom;
            int t = (int) (sinceShipments % 3);
            long before = t == 0 ? (shipmentsFrom + 1) / 2 : t == 1 ? shipmentsFrom / 2 : 0;
            table = TABLES.get(t);
            nth = before + sinceShipments / 3;
        }
        int version = index >= schemaChangeAt() && !"shipments".equals(table) ? 2 : 1;

        long id;
        Operation operation;
        if (nth % NEW_ROW_EVERY == NEW_ROW_EVERY - 1) {
            id = FIRST_NEW_ID + nth / NEW_ROW_EVERY;
            operation = Operation.INSERT;
        } else {
            long busy = nth - nth / NEW_ROW_EVERY; // changes of busy rows before this one
            id = busy % BUSY_ROWS + 1;
            operation = operation(TABLES.indexOf(table), id, busy / BUSY_ROWS);
        }
        Map<String, String> values =
                operation == Operation.DELETE ? Map.of() : values(table, version, id, nth);
        return new ChangeEvent(table, operation, id, version, values);
    }

    /**
     * What the {@code round}-th change of busy row {@code id} of a table does: the first inserts
     * it, and every fifth round or so a change deletes it and the next inserts it again.
     */
    private static Operation operation(int table, long id, long round) {
        if (round == 0) {
            return Operation.INSERT;
        }
        if (deletedIn(table, id, round)) {
            return Operation.DELETE;
        }
        return deletedIn(table, id, round - 1) ? Operation.INSERT : Operation.UPDATE;
    }

    private static boolean deletedIn(int table, long id, long round) {
        return round >= 1 && (table + id + round) % 5 == 0;
    }

    /** The row's columns, as text, for the {@code nth} change of the table. */
    private static Map<String, String> values(String table, int version, long id, long nth) {
        Map<String, String> values = new LinkedHashMap<>();
        switch (table) {
            case "customers" -> {
                values.put("name", "Customer " + id);
                values.put("email", "customer" + id + "." + nth + "@example.com");
                if (version >= 2) {
                    values.put("phone", String.format("+1 555 %04d", nth % 10_000));
                }
            }
            case "orders" -> {
                values.put("customer_id", String.valueOf(id % 5 + 1));
                long total =
                        version >= 2
                                ? 3_000_000_000L + nth * 100 + id // beyond an int
                                : nth % 1000 * 100 + id;
                values.put("total_cents", String.valueOf(total));
                values.put("status", ORDER_STATUSES[(int) (nth % ORDER_STATUSES.length)]);
            }
            case "shipments" -> {
                values.put("order_id", String.valueOf(id));
                values.put("carrier", CARRIERS[(int) (nth % CARRIERS.length)]);
                values.put("status", nth % 2 == 0 ? "in transit" : "delivered");
            }
            default -> throw new IllegalArgumentException("No source table " + table);
        }
        return values;
    }

    /** A schema of {@code id bigint NOT NULL} (the primary key) and {@code columns}. */
    private static Schema keyed(Types.NestedField... columns) {
        Types.NestedField[] all = new Types.NestedField[columns.length + 1];
        all[0] = Types.NestedField.required(1, "id", Types.LongType.get());
        System.arraycopy(columns, 0, all, 1, columns.length);
        return new Schema(List.of(all), Set.of(1));
    }
}
