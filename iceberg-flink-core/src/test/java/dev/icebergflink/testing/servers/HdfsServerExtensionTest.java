package dev.icebergflink.testing.servers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class HdfsServerExtensionTest {

    @RegisterExtension static final HdfsServerExtension HDFS = new HdfsServerExtension();

    @Test
    void writesAndReadsAFileOnHdfsWithReplicationOne() throws IOException {
        assertThat(HDFS.uri()).matches("hdfs://127\\.0\\.0\\.1:\\d+");
        Path file = new Path(HDFS.uri("/fixture/hello.txt"));
        FileSystem fs = file.getFileSystem(HDFS.configuration());
        assertThat(fs).isInstanceOf(DistributedFileSystem.class);

        try (OutputStream out = fs.create(file)) {
            out.write("hello hdfs".getBytes(StandardCharsets.UTF_8));
        }

        FileStatus status = fs.getFileStatus(file);
        assertThat(status.getReplication()).isEqualTo((short) 1);
        assertThat(status.getLen()).isEqualTo(10);
        assertThat(read(fs, file)).isEqualTo("hello hdfs");
        assertThat(fs.listStatus(new Path(HDFS.uri("/fixture"))))
                .extracting(s -> s.getPath().getName())
                .containsExactly("hello.txt");
    }

    @Test
    void confDirLetsAnotherClientFindTheCluster() throws IOException {
        java.nio.file.Path confDir = HDFS.hadoopConfDir();
        assertThat(confDir.resolve("core-site.xml")).isRegularFile();
        assertThat(confDir.resolve("hdfs-site.xml")).isRegularFile();

        Configuration fromFiles = new Configuration(false);
        fromFiles.addResource(new Path(confDir.resolve("core-site.xml").toUri()));
        fromFiles.addResource(new Path(confDir.resolve("hdfs-site.xml").toUri()));
        assertThat(fromFiles.get("fs.defaultFS")).isEqualTo(HDFS.uri());
        assertThat(fromFiles.get("dfs.replication")).isEqualTo("1");
        assertThat(Files.readString(confDir.resolve("core-site.xml"))).contains(HDFS.uri());

        // A relative path resolves against fs.defaultFS from the conf dir.
        FileSystem fs = FileSystem.newInstance(new Configuration(fromFiles));
        try {
            Path file = new Path("/conf-dir/from-conf-dir.txt");
            try (OutputStream out = fs.create(file)) {
                out.write("via HADOOP_CONF_DIR".getBytes(StandardCharsets.UTF_8));
            }
            assertThat(fs.getUri().toString()).isEqualTo(HDFS.uri());
            assertThat(read(HDFS.fileSystem(), file)).isEqualTo("via HADOOP_CONF_DIR");
        } finally {
            fs.close();
        }
    }

    private static String read(FileSystem fs, Path file) throws IOException {
        try (InputStream in = fs.open(file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
