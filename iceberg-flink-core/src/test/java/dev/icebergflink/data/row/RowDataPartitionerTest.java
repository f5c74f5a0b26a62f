package dev.icebergflink.data.row;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * Partition keys of Flink rows: equal keys mean one partition, equal partitions give equal hashes
 * in every representation of the row, and keys and partitions kept across rows never change.
 */
class RowDataPartitionerTest {

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "ts", Types.TimestampType.withoutZone()),
                    Types.NestedField.optional(3, "category", Types.StringType.get()),
                    Types.NestedField.optional(4, "payload", Types.BinaryType.get()),
                    Types.NestedField.optional(
                            5,
                            "address",
                            Types.StructType.of(
                                    Types.NestedField.optional(
                                            6, "city", Types.StringType.get()))));
    private static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);
    private static final RowDataSerializer SERIALIZER = new RowDataSerializer(ROW_TYPE);

    private static GenericRowData row(long id, String ts, String category, byte[] payload) {
        return GenericRowData.of(
                id,
                TimestampData.fromLocalDateTime(LocalDateTime.parse(ts)),
                category == null ? null : StringData.fromString(category),
                payload,
                GenericRowData.of(StringData.fromString("city-" + id % 3)));
    }

    /** The same row as Flink ships it between tasks: binary, strings as UTF-8 bytes. */
    private static BinaryRowData binary(RowData row) {
        return SERIALIZER.toBinaryRow(row).copy();
    }

    private static PartitionSpec mixedSpec() {
        return PartitionSpec.builderFor(SCHEMA)
                .day("ts")
                .bucket("id", 16)
                .identity("category")
                .identity("address.city")
                .build();
    }

    private static PartitionKey icebergPartition(PartitionSpec spec, RowData row) {
        PartitionKey key = new PartitionKey(spec, SCHEMA);
        key.partition(new RowDataStructLike(SCHEMA.asStruct(), ROW_TYPE).wrap(row));
        return key;
    }

    @Test
    void rowsOfOnePartitionHaveEqualKeysAndOthersDiffer() {
        RowDataPartitioner partitioner = new RowDataPartitioner(mixedSpec(), SCHEMA, ROW_TYPE);
        RowDataPartitioner.Key key =
                partitioner.key(row(5L, "2024-01-02T03:04:05", "books", null)).detach();

        assertThat(partitioner.key(row(5L, "2024-01-02T23:59:59", "books", null))).isEqualTo(key);
        assertThat(partitioner.key(binary(row(5L, "2024-01-02T00:00:00", "books", null))))
                .isEqualTo(key)
                .hasSameHashCodeAs(key);
        assertThat(partitioner.key(row(5L, "2024-01-03T00:00:00", "books", null)))
                .isNotEqualTo(key);
        assertThat(partitioner.key(row(5L, "2024-01-02T03:04:05", "games", null)))
                .isNotEqualTo(key);
        assertThat(partitioner.key(row(5L, "2024-01-02T03:04:05", null, null))).isNotEqualTo(key);
        assertThat(partitioner.key(row(6L, "2024-01-02T03:04:05", "books", null)))
                .as("another bucket and city")
                .isNotEqualTo(key);
    }

    @Test
    void thePartitionIsIcebergsPartitionOfTheRow() {
        PartitionSpec spec = mixedSpec();
        RowDataPartitioner partitioner = new RowDataPartitioner(spec, SCHEMA, ROW_TYPE);
        GenericRowData row = row(5L, "2024-01-02T03:04:05", "books", null);

        PartitionKey expected = icebergPartition(spec, row);
        assertThat(partitioner.partition(row)).isEqualTo(expected);
        assertThat(partitioner.partition(binary(row))).isEqualTo(expected);
        assertThat(partitioner.detachedPartition(binary(row))).isEqualTo(expected);
        assertThat(expected.get(2, String.class)).isEqualTo("books");
        assertThat(expected.get(3, String.class)).isEqualTo("city-2");
    }

    @Test
    void aStringPartitionHashesLikeItsJavaStringInEveryRowRepresentation() {
        PartitionSpec spec = PartitionSpec.builderFor(SCHEMA).identity("category").build();
        RowDataPartitioner partitioner = new RowDataPartitioner(spec, SCHEMA, ROW_TYPE);
        for (String category : List.of("books", "category-07", "", "Bücher", "书籍 📚")) {
            GenericRowData generic = row(1L, "2024-01-01T00:00:00", category, null);
            int expected = category.hashCode();
            assertThat(partitioner.key(generic).hashCode()).as(category).isEqualTo(expected);
            assertThat(partitioner.key(binary(generic)).hashCode())
                    .as(category)
                    .isEqualTo(expected);
            generic.setField(2, StringData.fromBytes(category.getBytes(StandardCharsets.UTF_8)));
            assertThat(partitioner.key(generic).hashCode()).as(category).isEqualTo(expected);
        }
        assertThat(partitioner.key(row(1L, "2024-01-01T00:00:00", null, null)).hashCode()).isZero();
    }

    @Test
    void transformedStringsHashLikeTheirJavaString() {
        PartitionSpec spec = PartitionSpec.builderFor(SCHEMA).truncate("category", 3).build();
        RowDataPartitioner partitioner = new RowDataPartitioner(spec, SCHEMA, ROW_TYPE);
        RowDataPartitioner.Key key =
                partitioner.key(binary(row(1L, "2024-01-01T00:00:00", "books", null))).detach();

        assertThat(key.hashCode()).isEqualTo("boo".hashCode());
        assertThat(partitioner.key(row(2L, "2024-01-01T00:00:00", "boost", null))).isEqualTo(key);
        assertThat(partitioner.key(row(3L, "2024-01-01T00:00:00", "bone", null))).isNotEqualTo(key);
    }

    @Test
    void charColumnsAndNestedStringsArePartitionedLikeIceberg() {
        Schema schema =
                new Schema(
                        Types.NestedField.required(1, "code", Types.StringType.get()),
                        Types.NestedField.optional(
                                2,
                                "inner",
                                Types.StructType.of(
                                        Types.NestedField.optional(
                                                3, "name", Types.StringType.get()))));
        RowType rowType = RowType.of(new CharType(false, 3), RowType.of(new VarCharType(10)));
        PartitionSpec spec =
                PartitionSpec.builderFor(schema).identity("code").identity("inner.name").build();
        RowDataPartitioner partitioner = new RowDataPartitioner(spec, schema, rowType);
        RowData row =
                GenericRowData.of(StringData.fromString("abc"), GenericRowData.of((Object) null));

        RowDataPartitioner.Key key = partitioner.key(row).detach();
        assertThat(key.hashCode()).isEqualTo(31 * "abc".hashCode());
        assertThat(partitioner.partition(row).get(0, String.class)).isEqualTo("abc");
        assertThat(partitioner.partition(row).get(1, String.class)).isNull();
        assertThat(key)
                .isNotEqualTo(
                        partitioner.key(
                                GenericRowData.of(
                                        StringData.fromString("abd"),
                                        GenericRowData.of((Object) null))));
    }

    @Test
    void detachedKeysAndPartitionsSurviveTheReuseOfTheRowsMemory() {
        PartitionSpec spec =
                PartitionSpec.builderFor(SCHEMA).identity("category").identity("payload").build();
        RowDataPartitioner partitioner = new RowDataPartitioner(spec, SCHEMA, ROW_TYPE);
        GenericRowData expected =
                row(9L, "2024-01-01T00:00:00", "long-category-name", new byte[] {1, 2, 3});

        // a binary row whose memory is rewritten for the next row (object reuse)
        BinaryRowData reused = new BinaryRowData(SCHEMA.columns().size());
        BinaryRowWriter writer = new BinaryRowWriter(reused);
        fill(writer, "long-category-name", new byte[] {1, 2, 3});
        RowDataPartitioner.Key key = partitioner.key(reused).detach();
        PartitionKey partition = partitioner.detachedPartition(reused);
        fill(writer, "another-category!!", new byte[] {7, 7, 7});

        assertThat(partitioner.key(reused)).isNotEqualTo(key);
        assertThat(partitioner.key(expected)).isEqualTo(key);
        assertThat(partition).isEqualTo(icebergPartition(spec, expected));

        // a generic row whose byte[] is changed in place
        byte[] payload = {1, 2, 3};
        GenericRowData generic = row(9L, "2024-01-01T00:00:00", "long-category-name", payload);
        RowDataPartitioner.Key genericKey = partitioner.key(generic).detach();
        PartitionKey genericPartition = partitioner.detachedPartition(generic);
        payload[0] = 42;

        assertThat(genericKey).isEqualTo(key);
        assertThat(genericPartition.get(1, ByteBuffer.class))
                .isEqualTo(ByteBuffer.wrap(new byte[] {1, 2, 3}));
    }

    @Test
    void binaryPartitionsAreComparedByContent() {
        PartitionSpec spec = PartitionSpec.builderFor(SCHEMA).identity("payload").build();
        RowDataPartitioner partitioner = new RowDataPartitioner(spec, SCHEMA, ROW_TYPE);
        RowDataPartitioner.Key key =
                partitioner.key(row(1L, "2024-01-01T00:00:00", "a", new byte[] {1, 2, 3})).detach();

        assertThat(partitioner.key(row(2L, "2024-01-01T00:00:00", "b", new byte[] {1, 2, 3})))
                .isEqualTo(key)
                .hasSameHashCodeAs(key);
        assertThat(partitioner.key(row(3L, "2024-01-01T00:00:00", "c", new byte[] {1, 2, 4})))
                .isNotEqualTo(key);
    }

    @Test
    void malformedUtf8ThatDecodesToOneStringHasOneHashAndOnePartition() {
        PartitionSpec spec = PartitionSpec.builderFor(SCHEMA).identity("category").build();
        RowDataPartitioner partitioner = new RowDataPartitioner(spec, SCHEMA, ROW_TYPE);
        GenericRowData first = row(1L, "2024-01-01T00:00:00", null, null);
        first.setField(2, BinaryStringData.fromBytes(new byte[] {'x', (byte) 0xFF}));
        GenericRowData second = row(2L, "2024-01-01T00:00:00", null, null);
        second.setField(2, BinaryStringData.fromBytes(new byte[] {'x', (byte) 0xFE}));

        RowDataPartitioner.Key firstKey = partitioner.key(first).detach();
        RowDataPartitioner.Key secondKey = partitioner.key(second).detach();
        // distinct bytes, one decoded string: one hash and one partition (the keys may differ)
        assertThat(firstKey).hasSameHashCodeAs(secondKey);
        assertThat(partitioner.detachedPartition(first))
                .isEqualTo(partitioner.detachedPartition(second));
    }

    @Test
    void unpartitionedSpecsGiveEveryRowTheSameKey() {
        RowDataPartitioner partitioner =
                new RowDataPartitioner(PartitionSpec.unpartitioned(), SCHEMA, ROW_TYPE);
        assertThat(partitioner.isUnpartitioned()).isTrue();
        List<RowDataPartitioner.Key> keys = new ArrayList<>();
        keys.add(partitioner.key(row(1L, "2024-01-01T00:00:00", "a", null)).detach());
        keys.add(partitioner.key(row(2L, "2025-01-01T00:00:00", "b", null)).detach());
        assertThat(keys.get(0)).isEqualTo(keys.get(1));
        StructLike partition = partitioner.partition(row(1L, "2024-01-01T00:00:00", "a", null));
        assertThat(partition.size()).isZero();
        assertThat(new RowDataPartitioner(mixedSpec(), SCHEMA, ROW_TYPE).isUnpartitioned())
                .isFalse();
    }

    private static void fill(BinaryRowWriter writer, String category, byte[] payload) {
        writer.reset();
        writer.writeLong(0, 9L);
        writer.writeTimestamp(
                1, TimestampData.fromLocalDateTime(LocalDateTime.parse("2024-01-01T00:00:00")), 6);
        writer.writeString(2, StringData.fromString(category));
        writer.writeBinary(3, payload);
        writer.setNullAt(4);
        writer.complete();
    }
}
