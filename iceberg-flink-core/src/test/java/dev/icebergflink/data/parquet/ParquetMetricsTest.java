package dev.icebergflink.data.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.data.FormatTestFiles;
import java.io.File;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Counts and bounds of known values in Parquet files (metrics equal to the generic writer's are
 * checked by the shared suite, {@link ParquetRoundTripTest}).
 */
class ParquetMetricsTest {

    @TempDir File temp;

    @Test
    void reportCountsAndBoundsOfKnownValues() {
        Schema schema =
                new Schema(
                        Types.NestedField.optional(1, "n", Types.IntegerType.get()),
                        Types.NestedField.optional(2, "x", Types.DoubleType.get()),
                        Types.NestedField.optional(3, "s", Types.StringType.get()),
                        Types.NestedField.optional(
                                4, "fs", Types.ListType.ofOptional(5, Types.FloatType.get())));
        List<RowData> rows =
                List.of(
                        GenericRowData.of(
                                5,
                                Double.NaN,
                                StringData.fromString("pear"),
                                new GenericArrayData(new Object[] {1.5f, Float.NaN, null})),
                        GenericRowData.of(-3, 2.5, null, null),
                        GenericRowData.of(null, -1.0, StringData.fromString("apple"), null),
                        GenericRowData.of(
                                12,
                                null,
                                StringData.fromString("zebra"),
                                new GenericArrayData(new Object[] {-4f})));

        Metrics metrics =
                FormatTestFiles.of(FileFormat.PARQUET)
                        .writeRows(new File(temp, "known.parquet"), schema, null, rows);

        assertThat(metrics.recordCount()).isEqualTo(4L);
        assertThat(metrics.valueCounts())
                .containsEntry(1, 4L)
                .containsEntry(2, 4L)
                .containsEntry(3, 4L);
        // Like the generic writer, counts are not kept for fields inside lists or maps.
        assertThat(metrics.valueCounts()).doesNotContainKey(5);
        assertThat(metrics.nullValueCounts())
                .containsEntry(1, 1L)
                .containsEntry(2, 1L)
                .containsEntry(3, 1L);
        assertThat(metrics.nanValueCounts()).containsEntry(2, 1L);
        assertThat(bound(metrics.lowerBounds().get(1), Types.IntegerType.get())).isEqualTo(-3);
        assertThat(bound(metrics.upperBounds().get(1), Types.IntegerType.get())).isEqualTo(12);
        assertThat(bound(metrics.lowerBounds().get(2), Types.DoubleType.get())).isEqualTo(-1.0);
        assertThat(bound(metrics.upperBounds().get(2), Types.DoubleType.get())).isEqualTo(2.5);
        assertThat(bound(metrics.lowerBounds().get(3), Types.StringType.get()).toString())
                .isEqualTo("apple");
        assertThat(bound(metrics.upperBounds().get(3), Types.StringType.get()).toString())
                .isEqualTo("zebra");
    }

    private static Object bound(ByteBuffer buffer, org.apache.iceberg.types.Type type) {
        assertThat(buffer).as("bound of type %s", type).isNotNull();
        return Conversions.fromByteBuffer(type, buffer);
    }
}
