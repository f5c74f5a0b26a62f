package dev.icebergflink.table.storage;

import dev.icebergflink.testing.servers.HdfsServerExtension;
import dev.icebergflink.testing.servers.PostgresServerExtension;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Iceberg's JdbcCatalog on a real PostgreSQL with its warehouse on HDFS. */
class JdbcCatalogOnHdfsITCase extends CatalogWarehouseITCaseBase {

    @RegisterExtension static final HdfsServerExtension HDFS = new HdfsServerExtension();

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
        return new HdfsWarehouse(HDFS);
    }
}
