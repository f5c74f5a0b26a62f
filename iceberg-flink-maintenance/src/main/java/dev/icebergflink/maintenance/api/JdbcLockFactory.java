package dev.icebergflink.maintenance.api;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.iceberg.ClientPool;
import org.apache.iceberg.jdbc.JdbcClientPool;
import org.apache.iceberg.jdbc.UncheckedInterruptedException;
import org.apache.iceberg.jdbc.UncheckedSQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link TriggerLockFactory} whose locks are rows of a table in a relational database, so that
 * maintenance running in several Flink jobs (or in a job and its restarted successor) of one table
 * never runs two tasks at once: every job that names the same database and the same lock id shares
 * the lock.
 *
 * <p>All lock ids live in one table, {@value #LOCK_TABLE}, with one row per held lock:
 *
 * <pre>{@code
 * CREATE TABLE flink_maintenance_lock (
 *     lock_id     VARCHAR(255) NOT NULL PRIMARY KEY,  -- the lock id, or the lock id + ".recovery"
 *     instance_id VARCHAR(36)  NOT NULL,              -- a random UUID per acquisition, for diagnosis
 *     acquired_at TIMESTAMP    NOT NULL)              -- the database's time of the acquisition
 * }</pre>
 *
 * <p>Taking a lock inserts its row, and the primary key makes at most one insert win; releasing it
 * deletes the row. The factory creates the table on {@link #open()} unless {@value
 * #INIT_LOCK_TABLES_PROPERTY} is {@code false}, in which case an administrator creates it with the
 * statement above. The SQL is plain enough for PostgreSQL, MySQL, H2 and SQLite.
 *
 * <p>Connections come from Iceberg's {@link JdbcClientPool}, configured like Iceberg's {@code
 * JdbcCatalog}: {@value #USER_PROPERTY} and {@value #PASSWORD_PROPERTY} log in, every other {@code
 * jdbc.}-prefixed property goes to the driver without the prefix, and {@code clients} sizes the
 * pool. The JDBC driver must be on the JobManager's classpath.
 *
 * <p>A lock that a crashed job left behind stays held until someone {@linkplain Lock#unlock()
 * unlocks} it; a restored maintenance topology does that under the {@linkplain
 * #createRecoveryLock() recovery lock}. To clear one by hand, delete its row.
 */
@PublicEvolving
public class JdbcLockFactory implements TriggerLockFactory {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(JdbcLockFactory.class);

    /** The table that holds one row per held lock. */
    public static final String LOCK_TABLE = "flink_maintenance_lock";

    /**
     * The property that says whether {@link #open()} creates {@value #LOCK_TABLE} when it is
     * missing: {@code true} (the default) or {@code false}.
     */
    public static final String INIT_LOCK_TABLES_PROPERTY = "init-lock-table";

    /** The prefix of the properties that go to the JDBC driver (without the prefix). */
    public static final String JDBC_PROPERTY_PREFIX = "jdbc.";

    /** The property with the database user. */
    public static final String USER_PROPERTY = JDBC_PROPERTY_PREFIX + "user";

    /** The property with the database password. */
    public static final String PASSWORD_PROPERTY = JDBC_PROPERTY_PREFIX + "password";

    /** What the recovery lock's row key adds to the lock id. */
    public static final String RECOVERY_LOCK_SUFFIX = ".recovery";

    /** The width of the key column. */
    private static final int KEY_LENGTH = 255;

    /** The longest lock id whose recovery key still fits the key column. */
    public static final int MAX_LOCK_ID_LENGTH = KEY_LENGTH - RECOVERY_LOCK_SUFFIX.length();

    private static final String CREATE_TABLE_SQL =
            "CREATE TABLE IF NOT EXISTS "
                    + LOCK_TABLE
                    + " (lock_id VARCHAR("
                    + KEY_LENGTH
                    + ") NOT NULL PRIMARY KEY, instance_id VARCHAR(36) NOT NULL,"
                    + " acquired_at TIMESTAMP NOT NULL)";
    private static final String PROBE_TABLE_SQL = "SELECT 1 FROM " + LOCK_TABLE + " WHERE 1 = 0";
    private static final String INSERT_SQL =
            "INSERT INTO "
                    + LOCK_TABLE
                    + " (lock_id, instance_id, acquired_at) VALUES (?, ?, CURRENT_TIMESTAMP)";
    private static final String SELECT_SQL =
            "SELECT instance_id FROM " + LOCK_TABLE + " WHERE lock_id = ?";
    private static final String DELETE_SQL = "DELETE FROM " + LOCK_TABLE + " WHERE lock_id = ?";

    /** SQLSTATE class 23: integrity constraint violation, here a second row with the same key. */
    private static final String INTEGRITY_CONSTRAINT_CLASS = "23";

    /** SQLite's driver sets no SQLSTATE; its error code for a violated constraint is this one. */
    private static final int SQLITE_CONSTRAINT = 19;

    private static final String SQLITE_URL_PREFIX = "jdbc:sqlite:";

    /** {@code password=...} in a URL's parameters (PostgreSQL, MySQL, SQL Server, ...). */
    private static final Pattern PASSWORD_PARAMETER = Pattern.compile("(?i)(password\\s*=)[^&;)]*");

    /** {@code //user:password@host} in a URL (MySQL, MariaDB, ...). */
    private static final Pattern PASSWORD_USER_INFO = Pattern.compile("(//[^/@:?;]*:)[^/@]*@");

    /** {@code jdbc:oracle:thin:user/password@host}. */
    private static final Pattern PASSWORD_ORACLE = Pattern.compile("(?i)(:thin:[^/@:]+/)[^@]*@");

    private final String uri;
    private final String lockId;
    private final HashMap<String, String> properties;
    private final boolean initLockTable;

    /** Created by {@link #open()}; not serialized, so every deserialized copy opens its own. */
    private transient volatile JdbcClientPool pool;

    /**
     * A factory of the locks of {@code lockId} in the database at {@code uri}.
     *
     * @param uri the JDBC URL of the database, e.g. {@code jdbc:postgresql://host:5432/db}
     * @param lockId the name of the lock, the same in every job that must exclude the others;
     *     usually the table's name. At most {@value #MAX_LOCK_ID_LENGTH} characters.
     * @param properties the connection properties ({@value #USER_PROPERTY}, {@value
     *     #PASSWORD_PROPERTY}, other {@code jdbc.*} driver properties, {@code clients}) and {@value
     *     #INIT_LOCK_TABLES_PROPERTY}; may be empty
     * @throws IllegalArgumentException if an argument is null or blank, the lock id is too long, or
     *     {@value #INIT_LOCK_TABLES_PROPERTY} is neither {@code true} nor {@code false}
     */
    public JdbcLockFactory(String uri, String lockId, Map<String, String> properties) {
        if (uri == null || uri.isBlank()) {
            throw new IllegalArgumentException(
                    "uri must be a JDBC URL such as jdbc:postgresql://host:5432/database, but is "
                            + (uri == null ? "null" : "blank"));
        }
        if (lockId == null || lockId.isBlank()) {
            throw new IllegalArgumentException(
                    "lockId must name the lock (usually the table's name) with at least one"
                            + " non-blank character, but is "
                            + (lockId == null ? "null" : "blank"));
        }
        if (lockId.length() > MAX_LOCK_ID_LENGTH) {
            throw new IllegalArgumentException(
                    "lockId must have at most "
                            + MAX_LOCK_ID_LENGTH
                            + " characters, but has "
                            + lockId.length()
                            + ": '"
                            + lockId
                            + "'");
        }
        if (properties == null) {
            throw new IllegalArgumentException(
                    "properties must be a map of JDBC connection properties (it may be empty), but"
                            + " is null");
        }
        this.uri = uri.trim();
        this.lockId = lockId;
        this.properties = new HashMap<>(properties);
        this.initLockTable = parseInitLockTable(properties.get(INIT_LOCK_TABLES_PROPERTY));
    }

    private static boolean parseInitLockTable(String value) {
        if (value == null) {
            return true;
        }
        String normalized = value.trim().toLowerCase(Locale.ROOT);
        if (normalized.equals("true")) {
            return true;
        }
        if (normalized.equals("false")) {
            return false;
        }
        throw new IllegalArgumentException(
                "properties["
                        + INIT_LOCK_TABLES_PROPERTY
                        + "] must be true or false, but is '"
                        + value
                        + "'");
    }

    /**
     * Creates the connection pool and, unless {@value #INIT_LOCK_TABLES_PROPERTY} is {@code false},
     * the lock table if it is missing. Calling it again while open does nothing.
     *
     * @throws UncheckedSQLException if the table cannot be created
     */
    @Override
    public synchronized void open() {
        if (pool != null) {
            return;
        }
        JdbcClientPool created = new JdbcClientPool(uri, properties);
        pool = created;
        if (initLockTable) {
            try {
                createLockTable();
            } catch (RuntimeException e) {
                pool = null;
                created.close();
                throw e;
            }
        }
    }

    private void createLockTable() {
        run(
                "create the lock table " + LOCK_TABLE + " for lock '" + lockId + "'",
                connection -> {
                    try (Statement statement = connection.createStatement()) {
                        statement.execute(CREATE_TABLE_SQL);
                        return null;
                    } catch (SQLException e) {
                        // Two factories racing on an empty database: PostgreSQL may reject the
                        // loser's CREATE TABLE IF NOT EXISTS. The table exists all the same.
                        if (lockTableExists(connection)) {
                            LOG.debug("{} was created concurrently", LOCK_TABLE, e);
                            return null;
                        }
                        throw e;
                    }
                });
    }

    private static boolean lockTableExists(Connection connection) {
        try (Statement statement = connection.createStatement()) {
            statement.executeQuery(PROBE_TABLE_SQL).close();
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    @Override
    public Lock createLock() {
        return new JdbcLock(lockId);
    }

    @Override
    public Lock createRecoveryLock() {
        return new JdbcLock(lockId + RECOVERY_LOCK_SUFFIX);
    }

    /** Closes the connection pool; the factory can be {@link #open()}ed again. */
    @Override
    public synchronized void close() {
        JdbcClientPool current = pool;
        pool = null;
        if (current != null) {
            current.close();
        }
    }

    @Override
    public String toString() {
        return "JdbcLockFactory{uri=" + redact(uri) + ", lockId=" + lockId + "}";
    }

    /** Runs {@code action} on a pooled connection; every failure names the lock and the URL. */
    private <R> R run(String what, ClientPool.Action<R, Connection, SQLException> action) {
        JdbcClientPool current = pool;
        if (current == null) {
            throw new IllegalStateException(
                    "Cannot "
                            + what
                            + ": the JdbcLockFactory of "
                            + redact(uri)
                            + " is not open; call open() first");
        }
        try {
            return current.run(action);
        } catch (SQLException e) {
            throw failure(what, e);
        } catch (UncheckedSQLException e) {
            // The pool's "Failed to connect" repeats the URL as given, password and all; keep
            // only the driver's exception.
            throw failure(what, e.getCause() != null ? e.getCause() : e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedInterruptedException(
                    e, "%s", "Interrupted while trying to " + what + " in " + redact(uri));
        }
    }

    private UncheckedSQLException failure(String what, Throwable cause) {
        return new UncheckedSQLException(
                cause, "%s", "Cannot " + what + " in " + redact(uri) + ": " + cause.getMessage());
    }

    private static boolean isKeyViolation(SQLException e, boolean sqlite) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException) {
                SQLException sql = (SQLException) t;
                String state = sql.getSQLState();
                if (state != null && state.startsWith(INTEGRITY_CONSTRAINT_CLASS)) {
                    return true;
                }
                if (sqlite && state == null && sql.getErrorCode() == SQLITE_CONSTRAINT) {
                    return true;
                }
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /** {@code uri} without the passwords it may contain, for messages and logs. */
    static String redact(String uri) {
        String redacted = PASSWORD_PARAMETER.matcher(uri).replaceAll("$1***");
        redacted = PASSWORD_USER_INFO.matcher(redacted).replaceAll("$1***@");
        return PASSWORD_ORACLE.matcher(redacted).replaceAll("$1***@");
    }

    /** One row key of the lock table. */
    private final class JdbcLock implements Lock {

        private final String key;

        JdbcLock(String key) {
            this.key = key;
        }

        @Override
        public boolean tryLock() {
            String instanceId = UUID.randomUUID().toString();
            boolean sqlite =
                    uri.regionMatches(true, 0, SQLITE_URL_PREFIX, 0, SQLITE_URL_PREFIX.length());
            boolean taken =
                    run(
                            "take lock '" + key + "'",
                            connection -> {
                                try (PreparedStatement insert =
                                        connection.prepareStatement(INSERT_SQL)) {
                                    insert.setString(1, key);
                                    insert.setString(2, instanceId);
                                    insert.executeUpdate();
                                    return true;
                                } catch (SQLException e) {
                                    if (isKeyViolation(e, sqlite)) {
                                        return false;
                                    }
                                    throw e;
                                }
                            });
            if (taken) {
                LOG.info("Took lock '{}' as instance {} in {}", key, instanceId, redact(uri));
            } else {
                LOG.debug("Lock '{}' is held by somebody else in {}", key, redact(uri));
            }
            return taken;
        }

        @Override
        public boolean isHeld() {
            return run(
                    "check lock '" + key + "'",
                    connection -> {
                        try (PreparedStatement select = connection.prepareStatement(SELECT_SQL)) {
                            select.setString(1, key);
                            try (ResultSet rows = select.executeQuery()) {
                                return rows.next();
                            }
                        }
                    });
        }

        @Override
        public void unlock() {
            int deleted =
                    run(
                            "release lock '" + key + "'",
                            connection -> {
                                try (PreparedStatement delete =
                                        connection.prepareStatement(DELETE_SQL)) {
                                    delete.setString(1, key);
                                    return delete.executeUpdate();
                                }
                            });
            if (deleted > 0) {
                LOG.info("Released lock '{}' in {}", key, redact(uri));
            }
        }

        @Override
        public String toString() {
            return "JdbcLock{" + key + " in " + redact(uri) + "}";
        }
    }
}
