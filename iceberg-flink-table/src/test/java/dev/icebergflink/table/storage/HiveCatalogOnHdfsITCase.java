package dev.icebergflink.table.storage;

import dev.icebergflink.table.testing.HiveMetastoreServerExtension;
import dev.icebergflink.testing.servers.HdfsServerExtension;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The Hive Metastore catalog with its warehouse on HDFS. */
class HiveCatalogOnHdfsITCase extends CatalogWarehouseITCaseBase {

    @RegisterExtension static final HdfsServerExtension HDFS = new HdfsServerExtension();

    @RegisterExtension
    static final HiveMetastoreServerExtension HMS = new HiveMetastoreServerExtension();

    @Override
    protected Map<String, String> catalogOptions() {
        Map<String, String> options = new HashMap<>();
        options.put("catalog-type", "hive");
        options.put("uri", HMS.uri());
        options.put("warehouse", storage().warehouse());
        options.put("clients", "2");
        return options;
    }

    @Override
    protected WarehouseStorage storage() {
        return new HdfsWarehouse(HDFS);
    }
}
