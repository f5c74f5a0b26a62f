package dev.icebergflink.testing.servers;

import jakarta.servlet.DispatcherType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.rest.RESTCatalogAdapter;
import org.apache.iceberg.rest.RESTCatalogServlet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A real Iceberg REST catalog server on {@code 127.0.0.1} for tests: Iceberg's {@link
 * RESTCatalogServlet} in an embedded Jetty 12 server, backed by a {@code JdbcCatalog} on a sqlite
 * file and a {@code file:} warehouse in a fresh temporary directory.
 *
 * <p>Register it as a static field ({@code @RegisterExtension static final
 * RestCatalogServerExtension REST = new RestCatalogServerExtension();}) for one server per test
 * class, or as an instance field for one per test. It can also be used by hand with {@link
 * #start()} and {@link #close()}.
 *
 * <p>Clients connect with {@link #clientProperties()} ({@code uri}, plus nothing else). Client and
 * server share the local disk, so tables written through the client are readable by the server.
 * Pitfall: Iceberg's REST client rejects immutable JDK maps as namespace properties; pass {@link
 * HashMap}s.
 *
 * <p>{@link #commitFaults()} disturbs chosen table commits (applied but answered with an error, or
 * refused), for tests of commit retries.
 *
 * <p>{@link #RestCatalogServerExtension(Supplier)} changes the backend, e.g. a warehouse on HDFS or
 * S3 ({@code warehouse}, {@code io-impl}, ...); the supplier runs at each start, so it may use
 * other fixtures registered before this one.
 */
public final class RestCatalogServerExtension extends ServerExtension {

    private final Supplier<Map<String, String>> backendOverrides;
    private final RestCommitFaults commitFaults = new RestCommitFaults();
    private Path directory;
    private String warehouse;
    private Catalog backend;
    private Server server;
    private int port;

    /** A server whose backend keeps its tables in a {@code file:} warehouse. */
    public RestCatalogServerExtension() {
        this(Map::of);
    }

    /**
     * A server whose backend catalog properties are the defaults overridden by {@code
     * backendOverrides} (evaluated at each start), e.g. {@code warehouse} and FileIO properties.
     */
    public RestCatalogServerExtension(Supplier<Map<String, String>> backendOverrides) {
        this.backendOverrides = backendOverrides;
    }

    /** A new backend in a new temporary directory, served over HTTP. */
    @Override
    protected void doStart() throws Exception {
        directory = Files.createTempDirectory("rest-catalog-");
        Map<String, String> backendProperties = new HashMap<>();
        backendProperties.put(
                CatalogProperties.CATALOG_IMPL, "org.apache.iceberg.jdbc.JdbcCatalog");
        backendProperties.put(
                CatalogProperties.URI, "jdbc:sqlite:file:" + directory.resolve("cat.db"));
        backendProperties.put(
                CatalogProperties.WAREHOUSE_LOCATION,
                directory.resolve("warehouse").toUri().toString());
        backendProperties.put("jdbc.schema-version", "V1");
        backendProperties.putAll(backendOverrides.get());
        warehouse = backendProperties.get(CatalogProperties.WAREHOUSE_LOCATION);
        backend =
                CatalogUtil.buildIcebergCatalog(
                        "rest-backend", backendProperties, new Configuration());

        QueuedThreadPool threads = new QueuedThreadPool(16, 2);
        threads.setName("rest-catalog-server");
        Server jetty = new Server(threads);
        ServerConnector connector = new ServerConnector(jetty);
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", 0);
        connector.setHost(address.getHostString());
        connector.setPort(address.getPort());
        jetty.addConnector(connector);
        ServletContextHandler context =
                new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
        context.addServlet(
                new ServletHolder(new RESTCatalogServlet(new RESTCatalogAdapter(backend))), "/*");
        context.addFilter(new FilterHolder(commitFaults), "/*", EnumSet.of(DispatcherType.REQUEST));
        jetty.setHandler(context);
        try {
            jetty.start();
        } catch (Exception e) {
            jetty.stop();
            closeBackendAndDelete();
            throw e;
        }
        server = jetty;
        port = connector.getLocalPort();
    }

    /** Stops the server, closes the backend and deletes its directory. */
    @Override
    protected void doStop() throws Exception {
        try {
            server.stop();
        } finally {
            server = null;
            commitFaults.clear();
            closeBackendAndDelete();
        }
    }

    /** The server's base URI, {@code http://127.0.0.1:<port>}. */
    public String uri() {
        requireRunning();
        return "http://127.0.0.1:" + port;
    }

    /** The backend's warehouse location (a {@code file:} URI unless overridden). */
    public String warehouse() {
        requireRunning();
        return warehouse;
    }

    /** Properties for a {@code RESTCatalog} client of this server, as a mutable map. */
    public Map<String, String> clientProperties() {
        Map<String, String> properties = new HashMap<>();
        properties.put(CatalogProperties.URI, uri());
        return properties;
    }

    /**
     * The catalog behind the server, for setting up and checking tables without going through HTTP.
     */
    public Catalog backend() {
        requireRunning();
        return backend;
    }

    /** Table commits to disturb on demand (none unless a test asks). */
    public RestCommitFaults commitFaults() {
        return commitFaults;
    }

    @Override
    protected String serverName() {
        return "REST catalog server";
    }

    private void closeBackendAndDelete() throws IOException {
        try {
            if (backend instanceof AutoCloseable closeable) {
                closeable.close();
            }
        } catch (Exception e) {
            throw new IOException("Cannot close the REST catalog backend", e);
        } finally {
            backend = null;
            deleteRecursively(directory);
            directory = null;
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
                                    Files.delete(path);
                                } catch (IOException e) {
                                    throw new UncheckedIOException(e);
                                }
                            });
        }
    }
}
