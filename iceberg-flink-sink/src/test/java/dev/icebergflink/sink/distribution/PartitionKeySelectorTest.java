package dev.icebergflink.sink.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import java.time.LocalDateTime;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The hash distribution's partition keys: equal for one partition in every row representation,
 * distinct across the partitions tested, and the same in every JVM.
 */
class PartitionKeySelectorTest {

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "ts", Types.TimestampType.withoutZone()),
                    Types.NestedField.optional(3, "category", Types.StringType.get()),
                    Types.NestedField.optional(4, "payload", Types.BinaryType.get()));
    private static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);

    private static RowData row(long id, String ts, String category, byte[] payload) {
        return GenericRowData.of(
                id,
                TimestampData.fromLocalDateTime(LocalDateTime.parse(ts)),
                category == null ? null : StringData.fromString(category),
                payload);
    }

    @Test
    void rowsOfOnePartitionHaveOneKeyAndOtherPartitionsOthers() throws Exception {
        PartitionSpec spec =
                PartitionSpec.builderFor(SCHEMA)
                        .day("ts")
                        .bucket("id", 16)
                        .identity("category")
                        .build();
        PartitionKeySelector selector = new PartitionKeySelector(SCHEMA, spec, ROW_TYPE);

        Integer key = selector.getKey(row(5L, "2024-01-02T03:04:05", "books", null));
        assertThat(selector.getKey(row(5L, "2024-01-02T23:59:59", "books", null))).isEqualTo(key);
        assertThat(selector.getKey(binary(row(5L, "2024-01-02T00:00:00", "books", null))))
                .as("the same partition as a binary row")
                .isEqualTo(key);
        assertThat(selector.getKey(row(5L, "2024-01-03T00:00:00", "books", null)))
                .isNotEqualTo(key);
        assertThat(selector.getKey(row(5L, "2024-01-02T03:04:05", "games", null)))
                .isNotEqualTo(key);
        assertThat(selector.getKey(row(5L, "2024-01-02T03:04:05", null, null)))
                .isNotEqualTo(key)
                .isNotEqualTo(selector.getKey(row(5L, "2024-01-02T03:04:05", "x", null)));
    }

    @Test
    void aStringPartitionIsKeyedByItsJavaHashCode() throws Exception {
        // the same key in every JVM; one string field keeps the writer choice of earlier versions,
        // whose key was the value itself
        PartitionKeySelector selector =
                new PartitionKeySelector(
                        SCHEMA,
                        PartitionSpec.builderFor(SCHEMA).identity("category").build(),
                        ROW_TYPE);
        for (String category : new String[] {"category-00", "category-15", "Bücher"}) {
            assertThat(selector.getKey(row(1L, "2024-01-01T00:00:00", category, null)))
                    .isEqualTo(category.hashCode());
            assertThat(selector.getKey(binary(row(1L, "2024-01-01T00:00:00", category, null))))
                    .isEqualTo(category.hashCode());
        }
    }

    @Test
    void binaryValuesAreKeyedByTheirContent() throws Exception {
        PartitionSpec spec = PartitionSpec.builderFor(SCHEMA).identity("payload").build();
        PartitionKeySelector selector = new PartitionKeySelector(SCHEMA, spec, ROW_TYPE);

        Integer key = selector.getKey(row(1L, "2024-01-01T00:00:00", "a", new byte[] {1, 2, 3}));
        assertThat(selector.getKey(row(2L, "2024-01-01T00:00:00", "b", new byte[] {1, 2, 3})))
                .isEqualTo(key);
        assertThat(selector.getKey(row(3L, "2024-01-01T00:00:00", "c", new byte[] {1, 2, 4})))
                .isNotEqualTo(key);
    }

    private static RowData binary(RowData row) {
        return new RowDataSerializer(ROW_TYPE).toBinaryRow(row).copy();
    }
}
