package dev.icebergflink.sink.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;
import org.apache.flink.streaming.runtime.partitioner.CustomPartitionerWrapper;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * Hash distribution is a custom partitioning by key hash, never a keyed stream (which would make
 * BATCH execution sort every row before the writer), and sends equal keys to one writer.
 */
class HashDistributionTest {

    private static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "category", Types.StringType.get()));
    private static final RowType ROW_TYPE = FlinkSchemaUtil.convert(SCHEMA);

    private static DataStream<RowData> hashed(PartitionSpec spec, int[] keyPositions) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        DataStream<RowData> input =
                env.fromData(
                        List.<RowData>of(GenericRowData.of(1L, StringData.fromString("a"))),
                        InternalTypeInfo.of(ROW_TYPE));
        return new DistributionTopology(
                        DistributionMode.HASH,
                        ROW_TYPE,
                        SCHEMA,
                        spec,
                        keyPositions,
                        null,
                        null,
                        "t",
                        null,
                        0.0)
                .apply(input, false);
    }

    private static void assertCustomPartitioning(DataStream<RowData> stream) {
        Transformation<RowData> transformation = stream.getTransformation();
        assertThat(transformation).isInstanceOf(PartitionTransformation.class);
        assertThat(((PartitionTransformation<RowData>) transformation).getPartitioner())
                .isInstanceOf(CustomPartitionerWrapper.class);
    }

    @Test
    void partitionedTablesAreHashedByPartitionWithoutKeying() {
        assertCustomPartitioning(
                hashed(PartitionSpec.builderFor(SCHEMA).identity("category").build(), new int[0]));
    }

    @Test
    void unpartitionedTablesWithEqualityFieldsAreHashedByKeyWithoutKeying() {
        assertCustomPartitioning(hashed(PartitionSpec.unpartitioned(), new int[] {0}));
    }

    @Test
    void rowsGoToTheWriterTheirEqualityKeyPicks() {
        DistributionTopology.KeyHashPartitioner<EqualityKey> byKey =
                new DistributionTopology.KeyHashPartitioner<>();
        EqualityKeySelector keys = new EqualityKeySelector(ROW_TYPE, new int[] {0, 1});
        DistributionTopology.EqualityKeyPartitioner byRow =
                new DistributionTopology.EqualityKeyPartitioner(ROW_TYPE, new int[] {0, 1});
        RowDataSerializer binary = new RowDataSerializer(ROW_TYPE);
        for (long id = 0; id < 500; id++) {
            GenericRowData row =
                    GenericRowData.of(id, StringData.fromString("c".repeat((int) (id % 40))));
            for (int writers : new int[] {1, 2, 5}) {
                int writer = byKey.partition(keys.getKey(row), writers);
                assertThat(byRow.partition(row, writers)).isEqualTo(writer);
                assertThat(byRow.partition(binary.toBinaryRow(row), writers)).isEqualTo(writer);
            }
        }
    }

    @Test
    void equalKeysGoToOneWriterAndEveryWriterIsInRange() {
        DistributionTopology.KeyHashPartitioner<String> partitioner =
                new DistributionTopology.KeyHashPartitioner<>();
        for (int writers : new int[] {1, 2, 3, 7}) {
            IntStream.range(0, 1000)
                    .mapToObj(i -> "key-" + i)
                    .forEach(
                            key -> {
                                int writer = partitioner.partition(key, writers);
                                assertThat(writer).isBetween(0, writers - 1);
                                assertThat(partitioner.partition(new String(key), writers))
                                        .isEqualTo(writer);
                            });
        }
        // sixteen categories over two writers: both get some
        assertThat(
                        IntStream.range(0, 16)
                                .map(i -> partitioner.partition("category-" + i, 2))
                                .distinct()
                                .count())
                .isEqualTo(2);
    }
}
