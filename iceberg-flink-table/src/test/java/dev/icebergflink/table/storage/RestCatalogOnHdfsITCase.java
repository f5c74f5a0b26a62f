package dev.icebergflink.table.storage;

import dev.icebergflink.testing.servers.HdfsServerExtension;
import dev.icebergflink.testing.servers.RestCatalogServerExtension;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The REST catalog whose server keeps the warehouse on HDFS. */
class RestCatalogOnHdfsITCase extends CatalogWarehouseITCaseBase {

    @RegisterExtension static final HdfsServerExtension HDFS = new HdfsServerExtension();

    @RegisterExtension
    static final RestCatalogServerExtension REST =
            new RestCatalogServerExtension(
                    () -> Map.of("warehouse", new HdfsWarehouse(HDFS).warehouse()));

    @Override
    protected Map<String, String> catalogOptions() {
        Map<String, String> options = REST.clientProperties();
        options.put("catalog-type", "rest");
        return options;
    }

    @Override
    protected WarehouseStorage storage() {
        return new HdfsWarehouse(HDFS);
    }
}
