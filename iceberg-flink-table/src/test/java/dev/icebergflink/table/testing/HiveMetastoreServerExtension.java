package dev.icebergflink.table.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStore;
import org.apache.hadoop.hive.metastore.IHMSHandler;
import org.apache.hadoop.hive.metastore.RetryingHMSHandler;
import org.apache.hadoop.hive.metastore.TSetIpAddressProcessor;
import org.apache.iceberg.hive.ScriptRunner;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.server.TServer;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TTransportFactory;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real Hive Metastore 2.3 for tests, in the test JVM, serving Thrift on {@code 127.0.0.1} with an
 * embedded Derby database in a fresh temporary directory.
 *
 * <p>Register it as a static field ({@code @RegisterExtension static final
 * HiveMetastoreServerExtension HMS = new HiveMetastoreServerExtension();}) for one server per test
 * class; it can also be used by hand with {@link #start()} and {@link #close()}. The Derby schema
 * comes from {@code hive-schema-3.1.0.derby.sql} (Iceberg's Hive test jar), not from DataNucleus,
 * so that the lock tables Iceberg's {@code HiveCatalog} needs exist.
 *
 * <p>Clients use {@link #uri()} ({@code thrift://127.0.0.1:<port>}) and {@link #warehouse()}.
 */
public final class HiveMetastoreServerExtension
        implements BeforeAllCallback, AfterAllCallback, AutoCloseable {

    private static final String SCHEMA_SCRIPT = "hive-schema-3.1.0.derby.sql";
    private static final int WORKER_THREADS = 8;

    private Path directory;
    private TServer server;
    private Thread serving;
    private HiveMetaStore.HMSHandler handler;
    private int port;

    /** Starts the metastore (a no-op when running). */
    public synchronized void start() throws Exception {
        if (server != null) {
            return;
        }
        directory = Files.createTempDirectory("hive-metastore-");
        System.setProperty("derby.stream.error.file", directory.resolve("derby.log").toString());
        String jdbcUrl = "jdbc:derby:" + directory.resolve("metastore_db") + ";create=true";
        createSchema(jdbcUrl);

        TServerSocket socket = new TServerSocket(new InetSocketAddress("127.0.0.1", 0));
        port = socket.getServerSocket().getLocalPort();
        HiveConf conf = new HiveConf(new org.apache.hadoop.conf.Configuration(), HiveConf.class);
        conf.set("hive.metastore.warehouse.dir", warehouse());
        conf.set("javax.jdo.option.ConnectionURL", jdbcUrl);
        conf.set("hive.metastore.try.direct.sql", "false");
        conf.set("hive.metastore.disallow.incompatible.col.type.changes", "false");
        conf.set("datanucleus.connectionPoolingType", "DBCP");
        conf.set(
                "hive.metastore.expression.proxy",
                "org.apache.hadoop.hive.metastore.DefaultPartitionExpressionProxy");

        forgetPreviousLockDatabase();
        handler = new HiveMetaStore.HMSHandler("embedded", conf);
        IHMSHandler proxy = RetryingHMSHandler.getProxy(conf, handler, false);
        TThreadPoolServer.Args args =
                new TThreadPoolServer.Args(socket)
                        .processor(new TSetIpAddressProcessor<>(proxy))
                        .transportFactory(new TTransportFactory())
                        .protocolFactory(new TBinaryProtocol.Factory())
                        .minWorkerThreads(2)
                        .maxWorkerThreads(WORKER_THREADS);
        server = new TThreadPoolServer(args);
        serving = new Thread(server::serve, "hive-metastore-" + port);
        serving.setDaemon(true);
        serving.start();
    }

    /** Stops the server and deletes its directory; a no-op when stopped. */
    @Override
    public synchronized void close() throws Exception {
        if (server == null) {
            return;
        }
        try {
            server.stop();
            serving.join(10_000);
            handler.shutdown();
        } finally {
            server = null;
            serving = null;
            handler = null;
            shutdownDerby();
            deleteRecursively(directory);
            directory = null;
        }
    }

    /** The Thrift URI of the metastore. */
    public String uri() {
        requireStarted();
        return "thrift://127.0.0.1:" + port;
    }

    /** The warehouse location (a {@code file:} URI). */
    public String warehouse() {
        requireStarted();
        return directory.resolve("warehouse").toUri().toString();
    }

    /** Properties of an Iceberg {@code HiveCatalog} client of this server, as a mutable map. */
    public Map<String, String> clientProperties() {
        Map<String, String> properties = new HashMap<>();
        properties.put("uri", uri());
        properties.put("warehouse", warehouse());
        properties.put("clients", "2");
        return properties;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        close();
    }

    private void requireStarted() {
        if (directory == null) {
            throw new IllegalStateException(
                    "The Hive Metastore is not running: register the extension with"
                            + " @RegisterExtension or call start()");
        }
    }

    /**
     * Hive 2.3's {@code TxnHandler} (HMS locks, which Iceberg's HiveCatalog takes on every commit)
     * keeps its connection pools in static fields, created once per JVM: a second metastore in the
     * same test JVM would take its locks in the first one's (deleted) Derby database and fail with
     * "Table/View 'NEXT_LOCK_ID' does not exist". Clearing them makes each server build its own.
     */
    private static void forgetPreviousLockDatabase() throws ReflectiveOperationException {
        Class<?> txnHandler = Class.forName("org.apache.hadoop.hive.metastore.txn.TxnHandler");
        synchronized (txnHandler) {
            for (String field : new String[] {"connPool", "connPoolMutex"}) {
                java.lang.reflect.Field pool = txnHandler.getDeclaredField(field);
                pool.setAccessible(true);
                pool.set(null, null);
            }
        }
    }

    private static void createSchema(String jdbcUrl) throws IOException, SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl);
                InputStream script =
                        HiveMetastoreServerExtension.class
                                .getClassLoader()
                                .getResourceAsStream(SCHEMA_SCRIPT)) {
            if (script == null) {
                throw new IllegalStateException(
                        SCHEMA_SCRIPT
                                + " is not on the class path: add"
                                + " org.apache.iceberg:iceberg-hive-metastore:tests");
            }
            ScriptRunner runner = new ScriptRunner(connection, true, true);
            PrintWriter silent = new PrintWriter(Writer.nullWriter());
            runner.setLogWriter(silent);
            runner.setErrorLogWriter(silent);
            try (Reader reader = new InputStreamReader(script, StandardCharsets.UTF_8)) {
                runner.runScript(reader);
            }
        }
    }

    private void shutdownDerby() {
        try {
            DriverManager.getConnection(
                    "jdbc:derby:" + directory.resolve("metastore_db") + ";shutdown=true");
        } catch (SQLException expected) {
            // Derby reports a successful shutdown of one database as SQLState 08006.
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(
                            path -> {
                                try {
                                    Files.deleteIfExists(path);
                                } catch (IOException e) {
                                    throw new UncheckedIOException(e);
                                }
                            });
        }
    }
}
