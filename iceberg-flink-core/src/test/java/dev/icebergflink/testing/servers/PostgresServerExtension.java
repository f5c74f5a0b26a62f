package dev.icebergflink.testing.servers;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real PostgreSQL for tests, for Iceberg's {@code JdbcCatalog}: every use of the fixture (a test
 * class when it is a {@code static} field) gets a fresh database with a unique name, dropped again
 * at the end, so runs never see each other's catalogs.
 *
 * <p>The server is the one named by the environment variable {@value #URL_ENV} when it is set (a
 * JDBC URL {@code jdbc:postgresql://127.0.0.1:<port>/postgres}, user {@code postgres}, trust
 * authentication; {@code .ci/run} starts one). Otherwise the fixture starts a throw-away cluster of
 * its own from {@code /usr/lib/postgresql/<version>/bin} ({@code initdb} + {@code pg_ctl}) in a
 * temporary directory on a free port of 127.0.0.1, running the binaries as user {@code postgres}
 * when the tests run as root, and stops it afterwards.
 */
public final class PostgresServerExtension extends ServerExtension {

    /** The environment variable that names an already running server. */
    public static final String URL_ENV = "ICEBERG_FLINK_TEST_POSTGRES_URL";

    private static final String USER = "postgres";
    private static final String PASSWORD = "";
    private static final Path INSTALL_ROOT = Path.of("/usr/lib/postgresql");
    private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);
    private static final Pattern URL_PATTERN =
            Pattern.compile("jdbc:postgresql://([^/?]+)(/[^?]*)?(\\?.*)?");

    /** The server's host:port, e.g. {@code 127.0.0.1:5432}. */
    private String hostAndPort;

    /** Set when the fixture started the server itself. */
    private Path directory;

    private Path binaries;
    private String database;

    @Override
    protected String serverName() {
        return "PostgreSQL";
    }

    @Override
    protected void doStart() throws Exception {
        String external = System.getenv(URL_ENV);
        if (external != null && !external.isBlank()) {
            hostAndPort = hostAndPortOf(external.trim());
        } else {
            startOwnCluster();
        }
        database = "iceberg_test_" + UUID.randomUUID().toString().replace("-", "");
        try {
            execute("CREATE DATABASE " + database);
        } catch (SQLException e) {
            stopOwnCluster();
            throw new IOException(
                    "Cannot create database " + database + " on " + hostAndPort + ": " + e, e);
        }
    }

    @Override
    protected void doStop() throws Exception {
        try {
            // FORCE (PostgreSQL 13+) also ends connections a test left open, e.g. a catalog's pool.
            execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        } finally {
            database = null;
            stopOwnCluster();
        }
    }

    /** The JDBC URL of this fixture's own database. */
    public String jdbcUrl() {
        requireRunning();
        return "jdbc:postgresql://" + hostAndPort + "/" + database;
    }

    /** The database's name (unique per fixture start). */
    public String database() {
        requireRunning();
        return database;
    }

    /** The user name ({@code postgres}). */
    public String user() {
        return USER;
    }

    /** The password (empty: the server trusts local connections). */
    public String password() {
        return PASSWORD;
    }

    /**
     * The properties of Iceberg's {@code JdbcCatalog} on this database ({@code uri}, {@code
     * jdbc.user}, {@code jdbc.password}, {@code jdbc.schema-version=V1}), as a mutable map; add
     * {@code warehouse} (and FileIO properties) for a complete catalog.
     */
    public Map<String, String> catalogProperties() {
        Map<String, String> properties = new HashMap<>();
        properties.put("uri", jdbcUrl());
        properties.put("jdbc.user", USER);
        properties.put("jdbc.password", PASSWORD);
        properties.put("jdbc.schema-version", "V1");
        return properties;
    }

    /** A new connection to this fixture's database; the caller closes it. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), USER, PASSWORD);
    }

    private void execute(String sql) throws SQLException {
        String url = "jdbc:postgresql://" + hostAndPort + "/postgres";
        try (Connection connection = DriverManager.getConnection(url, USER, PASSWORD);
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private void startOwnCluster() throws Exception {
        binaries = findBinaries();
        directory = Files.createTempDirectory("postgres-");
        boolean root = "root".equals(System.getProperty("user.name"));
        if (root) {
            handToPostgresUser(directory);
        }
        Path data = directory.resolve("pgdata");
        Path log = directory.resolve("postgres.log");
        int port = FreePorts.freePort();
        hostAndPort = "127.0.0.1:" + port;
        try {
            run(
                    root,
                    directory.resolve("initdb.log"),
                    binaries.resolve("initdb").toString(),
                    "-D",
                    data.toString(),
                    "-U",
                    USER,
                    "--auth=trust",
                    "-E",
                    "UTF8");
            run(
                    root,
                    directory.resolve("pg_ctl.log"),
                    binaries.resolve("pg_ctl").toString(),
                    "-D",
                    data.toString(),
                    "-o",
                    "-p " + port + " -c listen_addresses=127.0.0.1 -k " + directory,
                    "-l",
                    log.toString(),
                    "-w",
                    "-t",
                    Long.toString(READY_TIMEOUT.toSeconds()),
                    "start");
            ServerSupport.await(
                    "PostgreSQL on " + hostAndPort,
                    READY_TIMEOUT,
                    () -> {
                        execute("SELECT 1");
                        return true;
                    },
                    () -> ServerSupport.tail(log, 40));
        } catch (Exception e) {
            stopOwnCluster();
            throw e;
        }
    }

    private void stopOwnCluster() throws Exception {
        if (directory == null) {
            return;
        }
        boolean root = "root".equals(System.getProperty("user.name"));
        try {
            Path data = directory.resolve("pgdata");
            if (Files.exists(data.resolve("postmaster.pid"))) {
                run(
                        root,
                        directory.resolve("pg_ctl-stop.log"),
                        binaries.resolve("pg_ctl").toString(),
                        "-D",
                        data.toString(),
                        "-m",
                        "fast",
                        "-w",
                        "stop");
            }
        } finally {
            ServerSupport.deleteRecursively(directory);
            directory = null;
        }
    }

    /** Runs a PostgreSQL command (as user postgres when we are root) and checks its exit code. */
    private static void run(boolean asPostgresUser, Path log, String... command)
            throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (asPostgresUser) {
            full.addAll(List.of("runuser", "-u", USER, "--"));
        }
        full.addAll(List.of(command));
        Process process =
                new ProcessBuilder(full)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        if (!process.waitFor(COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IOException(
                    "Timed out after "
                            + COMMAND_TIMEOUT.toSeconds()
                            + " s: "
                            + String.join(" ", full)
                            + ServerSupport.tail(log, 40));
        }
        if (process.exitValue() != 0) {
            throw new IOException(
                    "Failed with exit code "
                            + process.exitValue()
                            + ": "
                            + String.join(" ", full)
                            + ServerSupport.tail(log, 40)
                            + ServerSupport.tail(log.resolveSibling("postgres.log"), 40));
        }
    }

    /** The newest {@code /usr/lib/postgresql/<version>/bin} with initdb and pg_ctl. */
    private static Path findBinaries() throws IOException {
        List<Path> candidates = new ArrayList<>();
        if (Files.isDirectory(INSTALL_ROOT)) {
            try (DirectoryStream<Path> versions = Files.newDirectoryStream(INSTALL_ROOT)) {
                for (Path version : versions) {
                    Path bin = version.resolve("bin");
                    if (Files.isExecutable(bin.resolve("initdb"))
                            && Files.isExecutable(bin.resolve("pg_ctl"))) {
                        candidates.add(bin);
                    }
                }
            }
        }
        return candidates.stream()
                .max(Comparator.comparing(PostgresServerExtension::majorVersion))
                .orElseThrow(
                        () ->
                                new IllegalStateException(
                                        "No PostgreSQL server binaries (initdb, pg_ctl) under "
                                                + INSTALL_ROOT
                                                + "/*/bin: install them with `apt-get install -y"
                                                + " postgresql`, or set "
                                                + URL_ENV
                                                + " to the JDBC URL of a running server"
                                                + " (jdbc:postgresql://127.0.0.1:<port>/postgres,"
                                                + " user postgres, trust authentication)"));
    }

    private static int majorVersion(Path bin) {
        try {
            return Integer.parseInt(bin.getParent().getFileName().toString());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static void handToPostgresUser(Path dir) throws IOException {
        UserPrincipalLookupService lookup = dir.getFileSystem().getUserPrincipalLookupService();
        UserPrincipal user = lookup.lookupPrincipalByName(USER);
        GroupPrincipal group = lookup.lookupPrincipalByGroupName(USER);
        Files.setOwner(dir, user);
        Files.getFileAttributeView(dir, PosixFileAttributeView.class).setGroup(group);
    }

    private static String hostAndPortOf(String url) {
        Matcher matcher = URL_PATTERN.matcher(url);
        if (!matcher.matches()) {
            throw new IllegalArgumentException(
                    URL_ENV
                            + " must be a JDBC URL like jdbc:postgresql://127.0.0.1:<port>/postgres,"
                            + " but is '"
                            + url
                            + "'");
        }
        return matcher.group(1).toLowerCase(Locale.ROOT);
    }
}
