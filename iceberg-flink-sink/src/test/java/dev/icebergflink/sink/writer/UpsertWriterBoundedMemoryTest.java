package dev.icebergflink.sink.writer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.FlinkSchemaUtil;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.types.RowKind;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The upsert writer keeps no per-key structure: after 200,000 distinct keys within one checkpoint,
 * it holds one open data and one open delete file writer per partition, and no collection reachable
 * through the sink's own classes grows beyond the number of partitions. Proven by the writer's
 * structure, never by timing or heap measurement.
 */
class UpsertWriterBoundedMemoryTest {

    private static final int KEYS = 200_000;
    private static final int PARTITIONS = 4;

    @TempDir Path dir;

    @Test
    void twoHundredThousandDistinctKeysLeaveNoPerKeyStructure() throws Exception {
        Schema schema =
                new Schema(
                        List.of(
                                Types.NestedField.required(1, "id", Types.LongType.get()),
                                Types.NestedField.optional(2, "data", Types.StringType.get()),
                                Types.NestedField.required(3, "part", Types.StringType.get())),
                        Set.of(1, 3));
        Table table =
                new HadoopTables(new Configuration())
                        .create(
                                schema,
                                PartitionSpec.builderFor(schema).identity("part").build(),
                                Map.of(TableProperties.FORMAT_VERSION, "2"),
                                dir.resolve("t").toString());
        RowDataTaskWriterFactory factory =
                new RowDataTaskWriterFactory(
                        table,
                        FlinkSchemaUtil.convert(schema),
                        FileFormat.AVRO,
                        1L << 30,
                        Map.of(),
                        WriterMode.UPSERT,
                        List.of(1, 3));
        IcebergSinkWriter writer =
                new IcebergSinkWriter(
                        factory,
                        new WriterMetrics(UnregisteredMetricsGroup.createSinkWriterMetricGroup()),
                        0,
                        0);

        for (long id = 0; id < KEYS; id++) {
            GenericRowData row =
                    GenericRowData.of(
                            id,
                            StringData.fromString("v" + id),
                            StringData.fromString("p" + id % PARTITIONS));
            row.setRowKind(id % 2 == 0 ? RowKind.INSERT : RowKind.UPDATE_AFTER);
            writer.write(row, null);
        }

        PartitionedRowWriter taskWriter = (PartitionedRowWriter) writer.currentTaskWriter();
        assertThat(taskWriter).isInstanceOf(DeltaTaskWriter.class);
        assertThat(taskWriter.openDataWriters()).isEqualTo(PARTITIONS);
        assertThat(taskWriter.openDeleteWriters()).isEqualTo(PARTITIONS);
        // per partition, not per key: the writers of each partition and the location of each
        // file opened (a data and a delete file per partition), kept for clean-up on failure
        assertThat(largestOwnCollection(writer))
                .as("the largest collection held by the sink's own writer classes")
                .isLessThanOrEqualTo(2 * PARTITIONS);

        // and the rows really went out: one key delete and one row per key, nothing buffered
        List<WriteResult> results = List.copyOf(writer.prepareCommit());
        assertThat(results).hasSize(1);
        assertThat(records(List.of(results.get(0).dataFiles()))).isEqualTo(KEYS);
        assertThat(records(List.of(results.get(0).deleteFiles()))).isEqualTo(KEYS);
        assertThat(writer.currentTaskWriter()).isNull();
        writer.close();
    }

    private static long records(List<? extends ContentFile<?>> files) {
        return files.stream().mapToLong(ContentFile::recordCount).sum();
    }

    /**
     * Walks the fields of every object of the sink's own classes ({@code dev.icebergflink.*})
     * reachable from {@code root} and returns the largest size of a collection, map or array held
     * in such a field. Library objects are measured where our classes hold them, not walked: a
     * per-key structure added to our writers shows up here.
     */
    private static int largestOwnCollection(Object root) throws IllegalAccessException {
        Deque<Object> queue = new ArrayDeque<>(List.of(root));
        Set<Object> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        int largest = 0;
        int walked = 0;
        while (!queue.isEmpty()) {
            Object current = queue.poll();
            if (!seen.add(current)) {
                continue;
            }
            walked++;
            for (Class<?> c = current.getClass();
                    c != null && c.getName().startsWith("dev.icebergflink.");
                    c = c.getSuperclass()) {
                for (Field field : c.getDeclaredFields()) {
                    if (Modifier.isStatic(field.getModifiers()) || field.getType().isPrimitive()) {
                        continue;
                    }
                    field.setAccessible(true);
                    Object value = field.get(current);
                    if (value == null) {
                        continue;
                    }
                    int size = sizeOf(value);
                    largest = Math.max(largest, size);
                    if (value instanceof Collection<?> collection) {
                        collection.forEach(e -> enqueueOwn(queue, e));
                    } else if (value instanceof Map<?, ?> map) {
                        map.values().forEach(e -> enqueueOwn(queue, e));
                    } else {
                        enqueueOwn(queue, value);
                    }
                }
            }
        }
        assertThat(walked).as("objects of the sink's classes walked").isGreaterThan(3);
        return largest;
    }

    private static int sizeOf(Object value) {
        if (value instanceof Collection<?> collection) {
            return collection.size();
        }
        if (value instanceof Map<?, ?> map) {
            return map.size();
        }
        if (value.getClass().isArray() && !value.getClass().getComponentType().isPrimitive()) {
            return Array.getLength(value);
        }
        return 0;
    }

    private static void enqueueOwn(Deque<Object> queue, Object value) {
        if (value != null
                && value.getClass().getName().startsWith("dev.icebergflink.")
                && !value.getClass().isHidden()) {
            queue.add(value);
        }
    }
}
