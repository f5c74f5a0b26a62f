package dev.icebergflink.table.storage;

import dev.icebergflink.testing.servers.PostgresServerExtension;
import dev.icebergflink.testing.servers.S3ProxyServerExtension;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Iceberg's JdbcCatalog on a real PostgreSQL with its warehouse in S3 (S3FileIO on s3proxy). */
class JdbcCatalogOnS3ITCase extends CatalogWarehouseITCaseBase {

    @RegisterExtension static final S3ProxyServerExtension S3 = new S3ProxyServerExtension();

    @RegisterExtension
    static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

    @Override
    protected Map<String, String> catalogOptions() {
        Map<String, String> options = POSTGRES.catalogProperties();
        options.put("catalog-impl", "org.apache.iceberg.jdbc.JdbcCatalog");
        options.put("warehouse", storage().warehouse());
        return options;
    }

    @Override
    protected WarehouseStorage storage() {
        return new S3Warehouse(S3);
    }
}
