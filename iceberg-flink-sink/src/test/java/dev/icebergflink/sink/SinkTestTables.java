package dev.icebergflink.sink;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.types.RowKind;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.types.Types;

/**
 * Tables in a Hadoop-catalog warehouse in a temporary folder, with the sink tests' schema {@code
 * (id bigint not null, data string, part string not null)}, and helpers to make rows and read a
 * table back as sorted {@code "id:data:part"} strings.
 */
final class SinkTestTables {

    static final Schema SCHEMA =
            new Schema(
                    List.of(
                            Types.NestedField.required(1, "id", Types.LongType.get()),
                            Types.NestedField.optional(2, "data", Types.StringType.get()),
                            Types.NestedField.required(3, "part", Types.StringType.get())),
                    Set.of(1));

    static final PartitionSpec BY_PART = PartitionSpec.builderFor(SCHEMA).identity("part").build();

    static final InternalTypeInfo<RowData> TYPE_INFO =
            InternalTypeInfo.of(dev.icebergflink.FlinkSchemaUtil.convert(SCHEMA));

    private static final AtomicInteger COUNTER = new AtomicInteger();

    private final CatalogLoader catalogLoader;

    SinkTestTables(Path warehouse) {
        Map<String, String> properties = new HashMap<>();
        properties.put("warehouse", warehouse.toUri().toString());
        this.catalogLoader = CatalogLoader.hadoop("test", new Configuration(), properties);
    }

    Catalog catalog() {
        return catalogLoader.loadCatalog();
    }

    /** Creates a fresh table; returns its loader. */
    TableLoader create(PartitionSpec spec, int formatVersion, Map<String, String> props) {
        TableIdentifier id = TableIdentifier.of("db", "t" + COUNTER.incrementAndGet());
        Map<String, String> all = new HashMap<>(props);
        all.put(TableProperties.FORMAT_VERSION, Integer.toString(formatVersion));
        catalog().createTable(id, SCHEMA, spec, all);
        return TableLoader.fromCatalog(catalogLoader, id);
    }

    /** The loader of a table created in this warehouse by the test itself. */
    TableLoader loader(TableIdentifier id) {
        return TableLoader.fromCatalog(catalogLoader, id);
    }

    TableLoader create(PartitionSpec spec, int formatVersion) {
        return create(spec, formatVersion, Map.of());
    }

    static Table load(TableLoader loader) {
        return loader.clone().loadTable();
    }

    static RowData row(RowKind kind, long id, String data, String part) {
        GenericRowData row =
                GenericRowData.of(id, StringData.fromString(data), StringData.fromString(part));
        row.setRowKind(kind);
        return row;
    }

    static RowData row(long id, String data, String part) {
        return row(RowKind.INSERT, id, data, part);
    }

    /** The rows of the table's current snapshot (of {@code branch} when not null), sorted. */
    static List<String> rows(TableLoader loader, String branch) {
        Table table = load(loader);
        IcebergGenerics.ScanBuilder scan = IcebergGenerics.read(table);
        if (branch != null) {
            scan = scan.useSnapshot(table.refs().get(branch).snapshotId());
        }
        return TestingTableRows.read(scan);
    }

    static List<String> rows(TableLoader loader) {
        return rows(loader, null);
    }

    /** The snapshots of the table (all branches), oldest first. */
    static List<Snapshot> snapshots(TableLoader loader) {
        List<Snapshot> snapshots = new ArrayList<>();
        load(loader).snapshots().forEach(snapshots::add);
        return snapshots;
    }
}
