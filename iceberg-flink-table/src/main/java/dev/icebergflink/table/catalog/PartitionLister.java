package dev.icebergflink.table.catalog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Type;

/**
 * Lists the distinct identity-partition tuples of a table's live data files, for {@code SHOW
 * PARTITIONS}.
 *
 * <p>It exists because Iceberg keeps no partition registry: the partitions are those of the data
 * files in the current snapshot, found by planning a scan over the manifests (no data file is
 * read). Values are rendered as Iceberg renders identity partition values ({@code
 * Transform#toHumanString}); a null value is {@code null}. Files written under an older spec that
 * lacks one of the keys are skipped.
 */
final class PartitionLister {

    private PartitionLister() {}

    /**
     * The partitions of the table whose values match every entry of {@code filter} (an empty filter
     * matches all), in first-seen order.
     */
    static List<CatalogPartitionSpec> list(
            Table table, List<String> partitionKeys, Map<String, String> filter) {
        Schema schema = table.schema();
        Set<Map<String, String>> partitions = new LinkedHashSet<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                Map<String, String> values =
                        values(schema, task.spec(), task.file().partition(), partitionKeys);
                if (values != null && matches(values, filter)) {
                    partitions.add(values);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list the partitions of " + table.name(), e);
        }
        List<CatalogPartitionSpec> specs = new ArrayList<>(partitions.size());
        for (Map<String, String> values : partitions) {
            specs.add(new CatalogPartitionSpec(values));
        }
        return specs;
    }

    private static Map<String, String> values(
            Schema schema, PartitionSpec spec, StructLike partition, List<String> keys) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String key : keys) {
            int sourceId = schema.findField(key).fieldId();
            int position = -1;
            List<PartitionField> fields = spec.fields();
            for (int i = 0; i < fields.size(); i++) {
                if (fields.get(i).sourceId() == sourceId
                        && fields.get(i).transform().isIdentity()) {
                    position = i;
                }
            }
            if (position < 0) {
                return null;
            }
            @SuppressWarnings("unchecked")
            org.apache.iceberg.transforms.Transform<Object, Object> transform =
                    (org.apache.iceberg.transforms.Transform<Object, Object>)
                            fields.get(position).transform();
            Type type = spec.partitionType().fields().get(position).type();
            Object value = partition.get(position, Object.class);
            values.put(key, transform.toHumanString(type, value));
        }
        return values;
    }

    private static boolean matches(Map<String, String> values, Map<String, String> filter) {
        for (Map.Entry<String, String> entry : filter.entrySet()) {
            if (!entry.getValue().equals(values.get(entry.getKey()))) {
                return false;
            }
        }
        return true;
    }
}
