package dev.icebergflink.table.storage;

import dev.icebergflink.testing.servers.RestCatalogServerExtension;
import dev.icebergflink.testing.servers.S3ProxyServerExtension;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The REST catalog whose server keeps the warehouse in S3; the server (table metadata) and the
 * Flink client (data files) both use S3FileIO on s3proxy.
 */
class RestCatalogOnS3ITCase extends CatalogWarehouseITCaseBase {

    @RegisterExtension static final S3ProxyServerExtension S3 = new S3ProxyServerExtension();

    @RegisterExtension
    static final RestCatalogServerExtension REST =
            new RestCatalogServerExtension(() -> S3Warehouse.prepare(S3));

    @Override
    protected Map<String, String> catalogOptions() {
        Map<String, String> options = REST.clientProperties();
        options.put("catalog-type", "rest");
        return options;
    }

    @Override
    protected WarehouseStorage storage() {
        return new S3Warehouse(S3);
    }
}
