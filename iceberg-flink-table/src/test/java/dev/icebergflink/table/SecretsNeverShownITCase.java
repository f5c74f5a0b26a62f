package dev.icebergflink.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.testing.servers.RestCatalogServerExtension;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The checks of {@link SecretsNeverShownTest} against a real Iceberg REST catalog server that the
 * catalog logs in to with the OAuth2 client credential given as {@code credential-secret}, and with
 * jobs that write and read the table on a MiniCluster, so that the task side's log lines count too.
 */
class SecretsNeverShownITCase extends SecretsNeverShownTest {

    @RegisterExtension
    static final RestCatalogServerExtension REST = new RestCatalogServerExtension();

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @Override
    protected String catalogOptions() {
        return String.format(
                "'type'='iceberg', 'catalog-type'='rest', 'uri'='%s',"
                        + " 'rest.auth.type'='oauth2', 'oauth2-server-uri'='%s/v1/oauth/tokens',"
                        + " 'header.X-Api-Key'='TokenSecret3'",
                REST.uri(), REST.uri());
    }

    @Override
    protected List<String> runJobs(StreamTableEnvironment sql) throws Exception {
        List<String> shown = new ArrayList<>();
        sql.executeSql("INSERT INTO lake.`default`.t VALUES (1, 'a'), (2, 'b')").await();
        List<String> rows = rows(sql.executeSql("SELECT id, data FROM lake.`default`.t"));
        assertThat(rows).containsExactlyInAnyOrder("+I[1, a]", "+I[2, b]");
        shown.addAll(rows);
        return shown;
    }
}
