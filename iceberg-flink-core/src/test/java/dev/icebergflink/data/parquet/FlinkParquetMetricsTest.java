package dev.icebergflink.data.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import dev.icebergflink.testing.RandomRecords;
import dev.icebergflink.testing.RandomRowData;
import dev.icebergflink.testing.TestSchemas;
import java.io.File;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The metrics of files we write are those iceberg-data's generic writer reports. */
class FlinkParquetMetricsTest {

    @TempDir File temp;

    @ParameterizedTest
    @ValueSource(strings = {"ALL_PRIMITIVES", "NESTED", "V3_PRIMITIVES"})
    void matchTheGenericWriterForTheSameRows(String name) throws Exception {
        Schema schema = (Schema) TestSchemas.class.getField(name).get(null);
        Metrics ours =
                ParquetTestFiles.writeRows(
                        new File(temp, "ours.parquet"),
                        schema,
                        FlinkSchemaUtil.convert(schema),
                        RandomRowData.generate(schema, 400, 21L));
        Metrics generic =
                ParquetTestFiles.writeRecords(
                        new File(temp, "generic.parquet"),
                        schema,
                        RandomRecords.generate(schema, 400, 21L));

        assertThat(ours.recordCount()).isEqualTo(400L);
        assertThat(ours.valueCounts()).isEqualTo(generic.valueCounts());
        assertThat(ours.nullValueCounts()).isEqualTo(generic.nullValueCounts());
        assertThat(ours.nanValueCounts()).isEqualTo(generic.nanValueCounts());
        assertThat(ours.lowerBounds()).isEqualTo(generic.lowerBounds());
        assertThat(ours.upperBounds()).isEqualTo(generic.upperBounds());
        assertThat(ours.nullValueCounts()).isNotEmpty();
        assertThat(ours.lowerBounds()).isNotEmpty();
    }

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
                ParquetTestFiles.writeRows(new File(temp, "known.parquet"), schema, null, rows);

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
