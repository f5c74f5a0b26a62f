package dev.icebergflink.testing.servers;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;

/**
 * A real HDFS on {@code 127.0.0.1} for tests: Hadoop's {@link MiniDFSCluster} (from {@code
 * hadoop-client-minicluster}, where Hadoop's own Jetty is relocated) with one NameNode and one
 * DataNode in the test JVM, replication 1, in a fresh temporary directory.
 *
 * <p>Register it as {@code @RegisterExtension static final HdfsServerExtension HDFS = new
 * HdfsServerExtension();} (one cluster per test class; about 5 s to start, ~450 MB). Use {@link
 * #uri()} for warehouse locations ({@code hdfs://127.0.0.1:<port>/...}), {@link #configuration()}
 * for Hadoop clients in the test JVM and {@link #hadoopConfDir()} for other processes (point {@code
 * HADOOP_CONF_DIR} at it).
 *
 * <p>The module that uses it must put the shaded Hadoop client jars ({@code hadoop-client-api},
 * {@code -runtime}, {@code -minicluster}) on its test classpath and keep the unshaded ones off it
 * (see {@code classpathDependencyExcludes} in the core module's pom).
 */
public final class HdfsServerExtension extends ServerExtension {

    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private Path directory;
    private MiniDFSCluster cluster;
    private Configuration configuration;

    @Override
    protected String serverName() {
        return "HDFS";
    }

    @Override
    protected void doStart() throws Exception {
        directory = Files.createTempDirectory("hdfs-");
        Configuration conf = new Configuration();
        conf.set(
                MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
                directory.resolve("data").toAbsolutePath().toString());
        conf.set("dfs.namenode.rpc-address", "127.0.0.1:0");
        conf.set("dfs.namenode.http-address", "127.0.0.1:0");
        conf.set("dfs.namenode.https-address", "127.0.0.1:0");
        conf.set("dfs.datanode.address", "127.0.0.1:0");
        conf.set("dfs.datanode.http.address", "127.0.0.1:0");
        conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
        conf.set("dfs.datanode.hostname", "127.0.0.1");
        conf.setInt("dfs.replication", 1);
        conf.setBoolean("dfs.permissions.enabled", false);

        ExecutorService starter =
                Executors.newSingleThreadExecutor(
                        runnable -> {
                            Thread thread = new Thread(runnable, "hdfs-fixture-start");
                            thread.setDaemon(true);
                            return thread;
                        });
        Future<MiniDFSCluster> starting =
                starter.submit(
                        () -> {
                            MiniDFSCluster started =
                                    new MiniDFSCluster.Builder(conf)
                                            .numDataNodes(1)
                                            .format(true)
                                            .build();
                            try {
                                started.waitActive();
                                return started;
                            } catch (IOException | RuntimeException e) {
                                started.shutdown(true);
                                throw e;
                            }
                        });
        try {
            cluster = starting.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            DistributedFileSystem fs = cluster.getFileSystem();
            ServerSupport.await(
                    "one live DataNode",
                    START_TIMEOUT,
                    () -> fs.getDataNodeStats(DatanodeReportType.LIVE).length == 1,
                    () -> "");
        } catch (TimeoutException | ExecutionException | IOException e) {
            starting.cancel(true);
            if (cluster != null) {
                cluster.shutdown(true);
                cluster = null;
            }
            ServerSupport.deleteRecursively(directory);
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new IOException(
                    "Cannot start HDFS (MiniDFSCluster) in "
                            + directory
                            + ": "
                            + cause
                            + " (the NameNode and DataNode log to this test's output)",
                    cause);
        } finally {
            starter.shutdownNow();
        }

        configuration = new Configuration(conf);
        configuration.set(FileSystem.FS_DEFAULT_NAME_KEY, uriOf(cluster));
        writeConfDir(configuration);
    }

    @Override
    protected void doStop() throws Exception {
        try {
            if (cluster != null) {
                cluster.shutdown(true);
            }
        } finally {
            cluster = null;
            configuration = null;
            ServerSupport.deleteRecursively(directory);
            directory = null;
        }
    }

    /** The file system's URI, {@code hdfs://127.0.0.1:<port>} (no trailing slash). */
    public String uri() {
        requireRunning();
        return uriOf(cluster);
    }

    /** {@link #uri()} followed by {@code path}, e.g. {@code uri("/warehouse")}. */
    public String uri(String path) {
        return uri() + (path.startsWith("/") ? path : "/" + path);
    }

    /**
     * A new Hadoop configuration for clients of this cluster: {@code fs.defaultFS} points at it and
     * {@code dfs.replication} is 1. Each call returns a fresh copy that the caller may change.
     */
    public Configuration configuration() {
        requireRunning();
        return new Configuration(configuration);
    }

    /** A client file system of this cluster, owned by the fixture (do not close it). */
    public FileSystem fileSystem() throws IOException {
        requireRunning();
        return cluster.getFileSystem();
    }

    /**
     * A directory with {@code core-site.xml} and {@code hdfs-site.xml} for this cluster, for other
     * processes (e.g. a Flink cluster) through {@code HADOOP_CONF_DIR}.
     */
    public Path hadoopConfDir() {
        requireRunning();
        return directory.resolve("conf");
    }

    private static String uriOf(MiniDFSCluster cluster) {
        return URI.create("hdfs://127.0.0.1:" + cluster.getNameNodePort()).toString();
    }

    private void writeConfDir(Configuration conf) throws IOException {
        Path confDir = Files.createDirectories(directory.resolve("conf"));
        Map<String, String> core = new TreeMap<>();
        core.put(FileSystem.FS_DEFAULT_NAME_KEY, conf.get(FileSystem.FS_DEFAULT_NAME_KEY));
        Map<String, String> hdfs = new TreeMap<>();
        hdfs.put("dfs.replication", "1");
        hdfs.put("dfs.permissions.enabled", "false");
        hdfs.put("dfs.client.use.datanode.hostname", "false");
        writeSiteFile(confDir.resolve("core-site.xml"), core);
        writeSiteFile(confDir.resolve("hdfs-site.xml"), hdfs);
    }

    private static void writeSiteFile(Path file, Map<String, String> properties)
            throws IOException {
        Configuration site = new Configuration(false);
        properties.forEach(site::set);
        try (OutputStream out = Files.newOutputStream(file)) {
            site.writeXml(out);
        }
    }
}
