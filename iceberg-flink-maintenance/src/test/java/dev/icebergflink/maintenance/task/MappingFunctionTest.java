package dev.icebergflink.maintenance.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.util.ListCollector;
import org.junit.jupiter.api.Test;

/**
 * The mapping stage of a two-stage task: records go to the bucket of their hash, and a failing item
 * tells every bucket, so that no reducer acts on a run with missing records.
 */
class MappingFunctionTest {

    /**
     * Sends one record per byte of the item, hashed by the byte's value; fails on an empty item.
     */
    private static final class ByteMapper implements TaskMapper {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(byte[] item, Output out) {
            if (item.length == 0) {
                throw new IllegalStateException("cannot read the manifest");
            }
            for (byte b : item) {
                out.emit(b, new byte[] {b});
            }
        }
    }

    @Test
    void recordsGoToTheBucketOfTheirHash() throws Exception {
        List<KeyedRecord> out = new ArrayList<>();

        new MappingFunction(new ByteMapper(), 4)
                .processElement(new byte[] {1, 6, -1}, null, new ListCollector<>(out));

        assertThat(out).extracting(KeyedRecord::bucket).containsExactly(1, 2, 3);
        assertThat(out).extracting(KeyedRecord::error).containsOnlyNulls();
        assertThat(MappingFunction.bucketOf(Integer.MIN_VALUE, 3)).isBetween(0, 2);
    }

    @Test
    void aFailingItemTellsEveryBucket() throws Exception {
        List<KeyedRecord> out = new ArrayList<>();

        new MappingFunction(new ByteMapper(), 5)
                .processElement(new byte[0], null, new ListCollector<>(out));

        assertThat(out).extracting(KeyedRecord::bucket).containsExactly(0, 1, 2, 3, 4);
        assertThat(out)
                .extracting(KeyedRecord::error)
                .allSatisfy(
                        error ->
                                assertThat(error)
                                        .isEqualTo(
                                                "IllegalStateException: cannot read the manifest"));
        assertThatThrownBy(() -> new MappingFunction(new ByteMapper(), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("buckets must be positive, got 0");
    }
}
