package dev.icebergflink.examples;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;

/**
 * The events the examples write: a deterministic stream of shop events, so that every run of an
 * example produces the same table and its output can be checked.
 */
public final class GeneratedEvents implements GeneratorFunction<Long, RowData> {

    private static final long serialVersionUID = 1L;

    /** The Iceberg schema of the events table. */
    public static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get(), "event id"),
                    Types.NestedField.required(
                            2, "ts", Types.TimestampType.withoutZone(), "event time"),
                    Types.NestedField.required(3, "category", Types.StringType.get()),
                    Types.NestedField.optional(
                            4, "amount", Types.DecimalType.of(10, 2), "order value"));

    /** Events are partitioned by category. */
    public static final PartitionSpec SPEC =
            PartitionSpec.builderFor(SCHEMA).identity("category").build();

    /** The categories events cycle through. */
    public static final String[] CATEGORIES = {"books", "games", "music", "tools"};

    private static final LocalDateTime START = LocalDateTime.of(2026, 1, 1, 0, 0);

    @Override
    public RowData map(Long id) {
        String category = CATEGORIES[(int) (id % CATEGORIES.length)];
        return GenericRowData.of(
                id,
                TimestampData.fromLocalDateTime(START.plusSeconds(id * 37)),
                StringData.fromString(category),
                DecimalData.fromBigDecimal(amountOf(id), 10, 2));
    }

    /** The amount of event {@code id}: a function of the id, so totals can be checked. */
    public static BigDecimal amountOf(long id) {
        return BigDecimal.valueOf(id % 1000 + 1, 2);
    }
}
