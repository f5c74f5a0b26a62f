package dev.icebergflink.table.catalog;

import dev.icebergflink.table.testing.HiveMetastoreServerExtension;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The DDL suite against a real Hive Metastore 2.3 over Thrift on 127.0.0.1 (embedded Derby). */
class HiveCatalogDdlITCase extends FlinkCatalogDdlSuiteBase {

    @RegisterExtension
    static final HiveMetastoreServerExtension HMS = new HiveMetastoreServerExtension();

    @Override
    protected Map<String, String> catalogOptions() {
        return Map.of(
                "catalog-type",
                "hive",
                "uri",
                HMS.uri(),
                "warehouse",
                HMS.warehouse(),
                "clients",
                "2");
    }

    @Override
    protected boolean supportsNanosecondTimestamps() {
        return false;
    }
}
