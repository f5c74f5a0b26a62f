package dev.icebergflink.table.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code table.exec.iceberg.allow-query-paths}: with false in the Flink configuration file,
 * statements cannot choose paths or Hadoop settings (catalog keys, hints, table properties, session
 * settings), each error names the key and the switch, and a session's {@code SET} cannot turn it
 * back on; by default everything is allowed, as before.
 */
class QueryPathsTest {

    private static final String SWITCH = "table.exec.iceberg.allow-query-paths";

    @TempDir Path dir;

    private TableEnvironment sql;

    @BeforeEach
    void session() {
        sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    }

    @AfterEach
    void readTheEnvironmentsFileAgain() {
        QueryPaths.readConfigurationFileOf(null);
    }

    /** What a session's {@code SET 'key'='value'} does: the table configuration. */
    private void set(String key, String value) {
        sql.getConfig().set(key, value);
    }

    /** The operator's Flink configuration file, forbidding paths (and, say, spilling to /data). */
    private void forbidInConfigurationFile() throws IOException {
        Path conf = Files.createDirectories(dir.resolve("conf"));
        Files.writeString(
                conf.resolve("config.yaml"),
                SWITCH + ": false\nupsert-spill-directory: /data/spill\n");
        QueryPaths.readConfigurationFileOf(conf.toString());
    }

    private String catalogDdl(String extra) {
        return catalogDdl("lake", extra);
    }

    /**
     * A statement creating catalog {@code name}. Statements expected to fail use a name of their
     * own: Flink 1.20 keeps the name of a catalog whose creation failed, so it cannot be reused.
     */
    private String catalogDdl(String name, String extra) {
        return String.format(
                "CREATE CATALOG %s WITH ('type'='iceberg', 'catalog-type'='hadoop',"
                        + " 'warehouse'='%s'%s)",
                name, dir.resolve("warehouse").toUri(), extra);
    }

    @Test
    void pathsAreAllowedByDefault() throws IOException {
        Files.createDirectories(dir.resolve("hadoop-conf"));
        Files.writeString(
                dir.resolve("hadoop-conf/core-site.xml"), "<configuration></configuration>\n");
        sql.executeSql(
                catalogDdl(
                        ", 'hadoop-conf-dir'='"
                                + dir.resolve("hadoop-conf")
                                + "', 'hadoop.dfs.replication'='1'"));
        sql.executeSql(
                "CREATE TABLE lake.`default`.t (id BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH"
                        + " ('format-version'='2', 'flink.manifests.location'='"
                        + dir.resolve("manifests").toUri()
                        + "')");
        assertThat(
                        sql.explainSql(
                                "INSERT INTO lake.`default`.t /*+ OPTIONS('upsert-enabled'='true',"
                                        + " 'upsert-spill-directory'='/tmp/spill') */ VALUES (1)"))
                .contains("Sink(table=[lake.default.t]");
    }

    @Test
    void catalogPathsAndHadoopKeysAreRejectedNamingTheKeyAndTheSwitch() throws IOException {
        forbidInConfigurationFile();
        assertThatThrownBy(
                        () ->
                                sql.executeSql(
                                        catalogDdl(
                                                "rejected1", ", 'hadoop-conf-dir'='/etc/hadoop'")))
                .hasStackTraceContaining("sets option 'hadoop-conf-dir'")
                .hasStackTraceContaining("'" + SWITCH + "'=false");
        assertThatThrownBy(
                        () ->
                                sql.executeSql(
                                        catalogDdl(
                                                "rejected2",
                                                ", 'hive-conf-dir'='/etc/hive',"
                                                        + " 'hadoop.fs.defaultFS'='hdfs://x'")))
                .hasStackTraceContaining("sets options 'hadoop.fs.defaultFS', 'hive-conf-dir'");

        // a session cannot allow what the file forbids
        set(SWITCH, "true");
        assertThatThrownBy(
                        () ->
                                sql.executeSql(
                                        catalogDdl(
                                                "rejected3", ", 'hadoop-conf-dir'='/etc/hadoop'")))
                .hasStackTraceContaining("sets option 'hadoop-conf-dir'");

        // nor choose Hadoop settings through the session
        set("flink.hadoop.fs.defaultFS", "hdfs://elsewhere");
        assertThatThrownBy(() -> sql.executeSql(catalogDdl("rejected4", "")))
                .hasStackTraceContaining("The session sets setting 'flink.hadoop.fs.defaultFS'");
    }

    @Test
    void tablePathsHintsAndSessionPathsAreRejected() throws IOException {
        forbidInConfigurationFile();
        sql.executeSql(catalogDdl(""));
        for (String property :
                new String[] {"flink.manifests.location", "write.data.path", "location"}) {
            assertThatThrownBy(
                            () ->
                                    sql.executeSql(
                                            "CREATE TABLE lake.`default`.bad (id BIGINT) WITH ('"
                                                    + property
                                                    + "'='file:///tmp/elsewhere')"))
                    .as(property)
                    .hasStackTraceContaining("sets option '" + property + "'")
                    .hasStackTraceContaining(SWITCH);
        }
        sql.executeSql(
                "CREATE TABLE lake.`default`.t (id BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH"
                        + " ('format-version'='2')");
        assertThatThrownBy(
                        () ->
                                sql.executeSql(
                                        "ALTER TABLE lake.`default`.t SET"
                                                + " ('write.metadata.path'='/tmp/m')"))
                .hasStackTraceContaining("sets option 'write.metadata.path'");

        String insert =
                "INSERT INTO lake.`default`.t /*+ OPTIONS('upsert-enabled'='true'%s) */ VALUES (1)";
        assertThatThrownBy(
                        () ->
                                sql.explainSql(
                                        String.format(
                                                insert, ", 'upsert-spill-directory'='/tmp/x'")))
                .hasStackTraceContaining("sets option 'upsert-spill-directory'");
        // the operator's own value reaches the session and is allowed; another one is not
        set("upsert-spill-directory", "/data/spill");
        assertThat(sql.explainSql(String.format(insert, "")))
                .contains("Sink(table=[lake.default.t]");
        set("upsert-spill-directory", "/tmp/mine");
        assertThatThrownBy(() -> sql.explainSql(String.format(insert, "")))
                .hasStackTraceContaining("The session sets setting 'upsert-spill-directory'");
    }

    @Test
    void aSessionMayForbidPathsForItself() {
        set(SWITCH, "false");
        assertThatThrownBy(() -> sql.executeSql(catalogDdl(", 'hadoop-conf-dir'='/etc/hadoop'")))
                .isInstanceOf(ValidationException.class)
                .hasStackTraceContaining("sets option 'hadoop-conf-dir'");
    }
}
