package dev.icebergflink.data.orc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.data.FormatRoundTripSuite;
import dev.icebergflink.data.FormatTestFiles;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Counts, bounds and NaN counts of known values in ORC files (metrics equal to the generic writer's
 * are checked by the shared suite, {@link OrcRoundTripTest}).
 */
class OrcMetricsTest {

    private static final Schema NUMBERS = FormatRoundTripSuite.NUMBERS;

    @TempDir Path temp;

    @Test
    void floatingPointBoundsExcludeNanAndNanValuesAreCounted() {
        List<RowData> rows =
                List.of(
                        row(1, 1.5f, 2.5d, "m", 10.0d, Double.NaN),
                        row(2, Float.NaN, Double.NaN, "a", -3.0d),
                        row(3, -2.0f, -7.25d, null),
                        GenericRowData.of(4, null, null, StringData.fromString("z"), null),
                        row(5, Float.NaN, 100.0d, "q"));
        File file = temp.resolve("numbers.orc").toFile();

        Metrics metrics = FormatTestFiles.of(FileFormat.ORC).writeRows(file, NUMBERS, null, rows);

        assertThat(metrics.recordCount()).isEqualTo(5L);
        assertThat(metrics.valueCounts()).containsEntry(1, 5L).containsEntry(2, 5L);
        assertThat(metrics.nullValueCounts())
                .containsEntry(1, 0L)
                .containsEntry(2, 1L)
                .containsEntry(3, 1L)
                .containsEntry(4, 1L);
        // Iceberg keeps no NaN counts for list elements (id 6), as for the generic writer
        assertThat(metrics.nanValueCounts()).containsOnly(Map.entry(2, 2L), Map.entry(3, 1L));
        assertThat(bound(NUMBERS, 1, metrics.lowerBounds())).isEqualTo(1);
        assertThat(bound(NUMBERS, 1, metrics.upperBounds())).isEqualTo(5);
        assertThat(bound(NUMBERS, 2, metrics.lowerBounds())).isEqualTo(-2.0f);
        assertThat(bound(NUMBERS, 2, metrics.upperBounds())).isEqualTo(1.5f);
        assertThat(bound(NUMBERS, 3, metrics.lowerBounds())).isEqualTo(-7.25d);
        assertThat(bound(NUMBERS, 3, metrics.upperBounds())).isEqualTo(100.0d);
        assertThat(bound(NUMBERS, 4, metrics.lowerBounds()).toString()).isEqualTo("a");
        assertThat(bound(NUMBERS, 4, metrics.upperBounds()).toString()).isEqualTo("z");
    }

    private static Object bound(Schema schema, int id, Map<Integer, ByteBuffer> bounds) {
        Type type = schema.findType(id);
        return Conversions.fromByteBuffer(type, bounds.get(id));
    }

    private static RowData row(int id, float f, double d, String s, double... ds) {
        Object[] elements = new Object[ds.length];
        for (int i = 0; i < ds.length; i++) {
            elements[i] = ds[i];
        }
        return GenericRowData.of(
                id,
                f,
                d,
                s == null ? null : StringData.fromString(s),
                new GenericArrayData(elements));
    }
}
