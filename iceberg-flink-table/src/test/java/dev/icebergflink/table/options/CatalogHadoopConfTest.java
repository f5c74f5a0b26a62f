package dev.icebergflink.table.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the Hadoop configuration of a SQL catalog comes from. */
class CatalogHadoopConfTest {

    @TempDir Path dir;

    @Test
    void layersSiteFilesAndFlinkHadoopKeysInOrder() throws IOException {
        Path env = Files.createDirectories(dir.resolve("env"));
        Path hadoop = Files.createDirectories(dir.resolve("hadoop"));
        Path hive = Files.createDirectories(dir.resolve("hive"));
        writeSite(env.resolve("core-site.xml"), Map.of("from.env", "env", "layered", "env"));
        writeSite(hadoop.resolve("core-site.xml"), Map.of("from.core", "core", "layered", "core"));
        writeSite(hadoop.resolve("hdfs-site.xml"), Map.of("dfs.replication", "7"));
        writeSite(
                hive.resolve("hive-site.xml"),
                Map.of("hive.metastore.uris", "thrift://hms:9083", "layered", "hive"));
        Configuration flink = new Configuration();
        flink.setString("flink.hadoop.fs.custom.key", "from-flink");
        flink.setString("unrelated.key", "x");

        org.apache.hadoop.conf.Configuration conf =
                CatalogHadoopConf.build(
                        settings(
                                Map.of(
                                        "hadoop-conf-dir", hadoop.toString(),
                                        "hive-conf-dir", hive.toUri().toString())),
                        flink,
                        env.toString());

        assertThat(conf.get("from.env")).isEqualTo("env");
        assertThat(conf.get("from.core")).isEqualTo("core");
        assertThat(conf.get("dfs.replication")).isEqualTo("7");
        assertThat(conf.get("hive.metastore.uris")).isEqualTo("thrift://hms:9083");
        assertThat(conf.get("layered")).isEqualTo("hive");
        assertThat(conf.get("fs.custom.key")).isEqualTo("from-flink");
        assertThat(conf.get("unrelated.key")).isNull();
    }

    @Test
    void catalogHadoopOptionsReachTheHadoopConfAndWinOverFlinkHadoopKeys() throws IOException {
        Path hadoop = Files.createDirectories(dir.resolve("site"));
        writeSite(hadoop.resolve("hdfs-site.xml"), Map.of("dfs.replication", "3"));
        Configuration flink = new Configuration();
        flink.setString("flink.hadoop.dfs.replication", "2");
        flink.setString("flink.hadoop.fs.only.flink", "f");

        org.apache.hadoop.conf.Configuration conf =
                CatalogHadoopConf.build(
                        settings(
                                Map.of(
                                        "hadoop-conf-dir", hadoop.toString(),
                                        "hadoop.dfs.replication", "1",
                                        "hadoop.fs.s3a.path.style.access", "true")),
                        flink,
                        null);

        assertThat(conf.get("dfs.replication")).isEqualTo("1");
        assertThat(conf.get("fs.s3a.path.style.access")).isEqualTo("true");
        assertThat(conf.get("fs.only.flink")).isEqualTo("f");
        assertThat(conf.get("hadoop.dfs.replication")).isNull();
    }

    @Test
    void aConfDirectoryMustExistAndHoldItsFiles() throws IOException {
        Path missing = dir.resolve("missing");
        assertThatThrownBy(
                        () ->
                                CatalogHadoopConf.build(
                                        settings(Map.of("hive-conf-dir", missing.toString())),
                                        new Configuration(),
                                        null))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'hive-conf-dir'='" + missing + "' is not a local directory")
                .hasMessageContaining("hive-site.xml");

        Path empty = Files.createDirectories(dir.resolve("empty"));
        assertThatThrownBy(
                        () ->
                                CatalogHadoopConf.build(
                                        settings(Map.of("hadoop-conf-dir", empty.toString())),
                                        new Configuration(),
                                        null))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("holds none of core-site.xml, hdfs-site.xml");
    }

    private static CatalogSettings settings(Map<String, String> options) {
        Map<String, String> all = new HashMap<>(options);
        all.put("type", "iceberg");
        all.put("catalog-type", "hive");
        return CatalogSettings.parse("c", all);
    }

    private static void writeSite(Path file, Map<String, String> properties) throws IOException {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
        properties.forEach(
                (key, value) ->
                        xml.append("  <property><name>")
                                .append(key)
                                .append("</name><value>")
                                .append(value)
                                .append("</value></property>\n"));
        xml.append("</configuration>\n");
        Files.writeString(file, xml.toString());
    }
}
