package dev.icebergflink.maintenance.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.maintenance.api.TriggerLockFactory.Lock;
import dev.icebergflink.testing.servers.PostgresServerExtension;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.jdbc.UncheckedSQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The lock contract of {@link JdbcLockFactory} on a real PostgreSQL and on a SQLite file: every
 * test gets a database namespace of its own (a PostgreSQL schema, a SQLite file) without the lock
 * table, and every factory stands for one Flink job.
 */
class JdbcLockFactoryTest {

    @RegisterExtension
    static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

    private static final String LOCK_ID = "db.sales";

    @TempDir Path tempDir;

    private final List<JdbcLockFactory> factories = new ArrayList<>();

    /** The databases the lock contract runs on. */
    enum Backend {
        POSTGRESQL,
        SQLITE
    }

    /** A URL and connection properties that reach a fresh namespace of one backend. */
    private record Database(Backend backend, String uri, Map<String, String> properties) {

        /** The same database with one more property. */
        Database with(String key, String value) {
            Map<String, String> more = new HashMap<>(properties);
            more.put(key, value);
            return new Database(backend, uri, more);
        }

        /** A connection with the factory's driver properties ({@code jdbc.*} without prefix). */
        Connection connect() throws SQLException {
            Properties driver = new Properties();
            properties.forEach(
                    (key, value) -> {
                        if (key.startsWith(JdbcLockFactory.JDBC_PROPERTY_PREFIX)) {
                            driver.setProperty(
                                    key.substring(JdbcLockFactory.JDBC_PROPERTY_PREFIX.length()),
                                    value);
                        }
                    });
            return DriverManager.getConnection(uri, driver);
        }

        /** The schema the lock table lands in (null for SQLite, which has none). */
        String schema() {
            return properties.get("jdbc.currentSchema");
        }
    }

    @AfterEach
    void closeFactories() {
        factories.forEach(JdbcLockFactory::close);
    }

    private Database freshDatabase(Backend backend) throws SQLException {
        switch (backend) {
            case POSTGRESQL:
                String schema = "locks_" + UUID.randomUUID().toString().replace("-", "");
                try (Connection connection = POSTGRES.connect();
                        Statement statement = connection.createStatement()) {
                    statement.execute("CREATE SCHEMA " + schema);
                }
                Map<String, String> properties = new HashMap<>();
                properties.put(JdbcLockFactory.USER_PROPERTY, POSTGRES.user());
                properties.put(JdbcLockFactory.PASSWORD_PROPERTY, POSTGRES.password());
                properties.put("jdbc.currentSchema", schema);
                return new Database(backend, POSTGRES.jdbcUrl(), properties);
            case SQLITE:
                Path file = tempDir.resolve(UUID.randomUUID() + ".db");
                return new Database(backend, "jdbc:sqlite:" + file, Map.of());
            default:
                throw new IllegalArgumentException("Unknown backend " + backend);
        }
    }

    /** A factory of {@code lockId} on {@code database}, not opened; closed after the test. */
    private JdbcLockFactory factory(Database database, String lockId) {
        JdbcLockFactory factory =
                new JdbcLockFactory(database.uri(), lockId, database.properties());
        factories.add(factory);
        return factory;
    }

    private JdbcLockFactory openFactory(Database database, String lockId) {
        JdbcLockFactory factory = factory(database, lockId);
        factory.open();
        return factory;
    }

    private static int lockTables(Database database) throws SQLException {
        try (Connection connection = database.connect();
                ResultSet tables =
                        connection
                                .getMetaData()
                                .getTables(
                                        null,
                                        database.schema(),
                                        JdbcLockFactory.LOCK_TABLE,
                                        new String[] {"TABLE"})) {
            int count = 0;
            while (tables.next()) {
                count++;
            }
            return count;
        }
    }

    private static List<String> rowKeys(Database database) throws SQLException {
        try (Connection connection = database.connect();
                Statement statement = connection.createStatement();
                ResultSet rows =
                        statement.executeQuery(
                                "SELECT lock_id, instance_id, acquired_at FROM "
                                        + JdbcLockFactory.LOCK_TABLE
                                        + " ORDER BY lock_id")) {
            List<String> keys = new ArrayList<>();
            while (rows.next()) {
                assertThat(UUID.fromString(rows.getString("instance_id"))).isNotNull();
                assertThat(rows.getObject("acquired_at")).isNotNull();
                keys.add(rows.getString("lock_id"));
            }
            return keys;
        }
    }

    // ---- the lock contract, on every backend ----

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aFreeLockIsTakenOnceUntilItIsReleased(Backend backend) throws Exception {
        Database database = freshDatabase(backend);
        Lock lock = openFactory(database, LOCK_ID).createLock();

        assertThat(lock.isHeld()).isFalse();
        assertThat(lock.tryLock()).isTrue();
        assertThat(lock.isHeld()).isTrue();
        assertThat(lock.tryLock()).as("the lock is not reentrant").isFalse();
        assertThat(rowKeys(database)).containsExactly(LOCK_ID);

        lock.unlock();
        assertThat(lock.isHeld()).isFalse();
        assertThat(rowKeys(database)).isEmpty();
        assertThat(lock.tryLock()).isTrue();
        assertThat(lock.isHeld()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void anotherJobWithTheSameLockIdSeesTheLockAndMayReleaseIt(Backend backend) throws Exception {
        Database database = freshDatabase(backend);
        Lock first = openFactory(database, LOCK_ID).createLock();
        Lock second = openFactory(database, LOCK_ID).createLock();

        assertThat(first.tryLock()).isTrue();
        assertThat(second.isHeld()).isTrue();
        assertThat(second.tryLock()).isFalse();

        second.unlock();
        assertThat(first.isHeld()).isFalse();
        assertThat(second.tryLock()).isTrue();
        assertThat(first.tryLock()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void unlockingAFreeLockDoesNothing(Backend backend) throws Exception {
        Database database = freshDatabase(backend);
        JdbcLockFactory factory = openFactory(database, LOCK_ID);
        Lock lock = factory.createLock();

        lock.unlock();
        lock.unlock();
        factory.createRecoveryLock().unlock();

        assertThat(lock.isHeld()).isFalse();
        assertThat(lock.tryLock()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void theRecoveryLockIsIndependentOfTheTaskLock(Backend backend) throws Exception {
        Database database = freshDatabase(backend);
        JdbcLockFactory factory = openFactory(database, LOCK_ID);
        Lock task = factory.createLock();
        Lock recovery = factory.createRecoveryLock();

        assertThat(task.tryLock()).isTrue();
        assertThat(recovery.isHeld()).isFalse();
        assertThat(recovery.tryLock()).isTrue();
        assertThat(rowKeys(database))
                .containsExactly(LOCK_ID, LOCK_ID + JdbcLockFactory.RECOVERY_LOCK_SUFFIX);

        task.unlock();
        assertThat(task.isHeld()).isFalse();
        assertThat(recovery.isHeld()).isTrue();

        // Another job's recovery lock of the same id is the same lock.
        Lock otherRecovery = openFactory(database, LOCK_ID).createRecoveryLock();
        assertThat(otherRecovery.tryLock()).isFalse();
        recovery.unlock();
        assertThat(otherRecovery.tryLock()).isTrue();
        assertThat(task.isHeld()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void differentLockIdsAreIndependent(Backend backend) throws Exception {
        Database database = freshDatabase(backend);
        JdbcLockFactory sales = openFactory(database, LOCK_ID);
        JdbcLockFactory orders = openFactory(database, "db.orders");

        assertThat(sales.createLock().tryLock()).isTrue();
        assertThat(orders.createLock().isHeld()).isFalse();
        assertThat(orders.createLock().tryLock()).isTrue();
        assertThat(orders.createRecoveryLock().tryLock()).isTrue();
        assertThat(sales.createRecoveryLock().isHeld()).isFalse();

        orders.createLock().unlock();
        assertThat(sales.createLock().isHeld()).isTrue();
        assertThat(orders.createRecoveryLock().isHeld()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void theFactorySurvivesJavaSerialization(Backend backend) throws Exception {
        Database database = freshDatabase(backend);
        JdbcLockFactory original = openFactory(database, LOCK_ID);
        assertThat(original.createRecoveryLock().tryLock()).isTrue();

        // Serialized while open, as a job graph is: the pool stays behind.
        JdbcLockFactory copy = roundTrip(original);
        factories.add(copy);
        assertThatThrownBy(() -> copy.createLock().tryLock())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not open")
                .hasMessageContaining("open()");

        copy.open();
        assertThat(copy.createRecoveryLock().isHeld()).isTrue();
        assertThat(copy.createLock().tryLock()).isTrue();
        assertThat(original.createLock().isHeld()).isTrue();
        assertThat(original.createLock().tryLock()).isFalse();

        // The copy keeps the properties too: with init-lock-table=false it must not create tables.
        Database empty =
                freshDatabase(backend).with(JdbcLockFactory.INIT_LOCK_TABLES_PROPERTY, "false");
        JdbcLockFactory noInit = roundTrip(factory(empty, LOCK_ID));
        factories.add(noInit);
        noInit.open();
        assertThat(lockTables(empty)).isZero();
    }

    private static JdbcLockFactory roundTrip(JdbcLockFactory factory) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(factory);
        }
        try (ObjectInputStream in =
                new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (JdbcLockFactory) in.readObject();
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void twoFactoriesCreateTheTableOnce(Backend backend) throws Exception {
        Database database = freshDatabase(backend);
        assertThat(lockTables(database)).isZero();

        JdbcLockFactory first = openFactory(database, LOCK_ID);
        assertThat(lockTables(database)).isOne();
        assertThat(first.createLock().tryLock()).isTrue();

        JdbcLockFactory second = openFactory(database, LOCK_ID);
        assertThat(lockTables(database)).isOne();
        assertThat(second.createLock().isHeld()).as("the table keeps its rows").isTrue();
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void twoFactoriesOpeningAtOnceBothSucceed(Backend backend) throws Exception {
        Database database = freshDatabase(backend);
        JdbcLockFactory first = factory(database, LOCK_ID);
        JdbcLockFactory second = factory(database, LOCK_ID);
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            CompletableFuture<Void> openFirst =
                    CompletableFuture.runAsync(() -> openAfter(start, first), threads);
            CompletableFuture<Void> openSecond =
                    CompletableFuture.runAsync(() -> openAfter(start, second), threads);
            start.countDown();
            CompletableFuture.allOf(openFirst, openSecond).get(2, TimeUnit.MINUTES);
        } finally {
            threads.shutdownNow();
        }

        assertThat(lockTables(database)).isOne();
        assertThat(first.createLock().tryLock()).isTrue();
        assertThat(second.createLock().tryLock()).isFalse();
    }

    private static void openAfter(CountDownLatch start, JdbcLockFactory factory) {
        try {
            start.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        factory.open();
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void withoutInitLockTableTheTableMustExist(Backend backend) throws Exception {
        Database database =
                freshDatabase(backend).with(JdbcLockFactory.INIT_LOCK_TABLES_PROPERTY, "false");
        JdbcLockFactory factory = openFactory(database, LOCK_ID);
        assertThat(lockTables(database)).isZero();

        assertThatThrownBy(() -> factory.createLock().tryLock())
                .isInstanceOf(UncheckedSQLException.class)
                .hasMessageContaining("'" + LOCK_ID + "'")
                .hasMessageContaining(database.uri())
                .hasMessageContaining(JdbcLockFactory.LOCK_TABLE)
                .hasCauseInstanceOf(SQLException.class);

        // An administrator (here another factory) creates it; the first one then works.
        openFactory(database.with(JdbcLockFactory.INIT_LOCK_TABLES_PROPERTY, "true"), LOCK_ID);
        assertThat(factory.createLock().tryLock()).isTrue();
    }

    // ---- failures ----

    @Test
    void aConnectionFailureNamesTheLockAndTheUrlButNoPassword() throws Exception {
        String server = POSTGRES.jdbcUrl().substring(0, POSTGRES.jdbcUrl().lastIndexOf('/'));
        String uri = server + "/no_such_database?password=url-secret&ssl=false";
        Map<String, String> properties = new HashMap<>();
        properties.put(JdbcLockFactory.USER_PROPERTY, POSTGRES.user());
        properties.put(JdbcLockFactory.PASSWORD_PROPERTY, "property-secret");

        JdbcLockFactory factory = new JdbcLockFactory(uri, LOCK_ID, properties);
        factories.add(factory);
        Throwable failure = catchFailure(factory::open);
        assertNamesLockAndUrlOnly(failure, server + "/no_such_database?password=***&ssl=false");

        // Without creating the table, the first lock operation is the one that connects.
        properties.put(JdbcLockFactory.INIT_LOCK_TABLES_PROPERTY, "false");
        JdbcLockFactory lazy = new JdbcLockFactory(uri, LOCK_ID, properties);
        factories.add(lazy);
        lazy.open();
        assertNamesLockAndUrlOnly(
                catchFailure(() -> lazy.createLock().tryLock()),
                server + "/no_such_database?password=***&ssl=false");
        assertNamesLockAndUrlOnly(
                catchFailure(() -> lazy.createRecoveryLock().isHeld()),
                server + "/no_such_database?password=***&ssl=false");
    }

    private static Throwable catchFailure(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError("Expected a failure");
    }

    private static void assertNamesLockAndUrlOnly(Throwable failure, String redactedUri) {
        assertThat(failure)
                .isInstanceOf(UncheckedSQLException.class)
                .hasMessageContaining("'" + LOCK_ID)
                .hasMessageContaining(redactedUri);
        for (Throwable t = failure; t != null; t = t.getCause()) {
            assertThat(String.valueOf(t.getMessage()))
                    .doesNotContain("url-secret")
                    .doesNotContain("property-secret");
        }
    }

    @Test
    void lockOperationsNeedAnOpenFactory() throws Exception {
        Database database = freshDatabase(Backend.SQLITE);
        JdbcLockFactory factory = factory(database, LOCK_ID);
        Lock lock = factory.createLock();
        assertThatThrownBy(lock::tryLock)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'" + LOCK_ID + "'")
                .hasMessageContaining("call open() first");

        factory.open();
        assertThat(lock.tryLock()).isTrue();
        factory.close();
        factory.close();
        assertThatThrownBy(lock::isHeld).isInstanceOf(IllegalStateException.class);

        factory.open();
        assertThat(lock.isHeld()).isTrue();
    }

    @Test
    void badArgumentsAreNamed() {
        Map<String, String> none = Map.of();
        String uri = "jdbc:sqlite::memory:";

        assertThatThrownBy(() -> new JdbcLockFactory(null, LOCK_ID, none))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("uri must be a JDBC URL")
                .hasMessageContaining("null");
        assertThatThrownBy(() -> new JdbcLockFactory(" ", LOCK_ID, none))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("uri must be a JDBC URL")
                .hasMessageContaining("blank");
        assertThatThrownBy(() -> new JdbcLockFactory(uri, null, none))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lockId must name the lock")
                .hasMessageContaining("null");
        assertThatThrownBy(() -> new JdbcLockFactory(uri, "\t", none))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lockId must name the lock")
                .hasMessageContaining("blank");
        assertThatThrownBy(
                        () ->
                                new JdbcLockFactory(
                                        uri,
                                        "x".repeat(JdbcLockFactory.MAX_LOCK_ID_LENGTH + 1),
                                        none))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lockId must have at most 246 characters, but has 247");
        assertThatThrownBy(() -> new JdbcLockFactory(uri, LOCK_ID, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("properties must be a map")
                .hasMessageContaining("null");
        assertThatThrownBy(
                        () ->
                                new JdbcLockFactory(
                                        uri,
                                        LOCK_ID,
                                        Map.of(JdbcLockFactory.INIT_LOCK_TABLES_PROPERTY, "yes")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("properties[init-lock-table] must be true or false")
                .hasMessageContaining("'yes'");

        assertThat(new JdbcLockFactory(uri, "x".repeat(246), none)).isNotNull();
    }

    @Test
    void urlsAreRedacted() {
        assertThat(
                        JdbcLockFactory.redact(
                                "jdbc:postgresql://h:5432/db?user=u&password=s3&ssl=true"))
                .isEqualTo("jdbc:postgresql://h:5432/db?user=u&password=***&ssl=true");
        assertThat(JdbcLockFactory.redact("jdbc:sqlserver://h;user=u;Password=s3;encrypt=true"))
                .isEqualTo("jdbc:sqlserver://h;user=u;Password=***;encrypt=true");
        assertThat(JdbcLockFactory.redact("jdbc:mysql://u:s3@h:3306/db"))
                .isEqualTo("jdbc:mysql://u:***@h:3306/db");
        assertThat(JdbcLockFactory.redact("jdbc:oracle:thin:u/s3@h:1521:orcl"))
                .isEqualTo("jdbc:oracle:thin:u/***@h:1521:orcl");
        assertThat(JdbcLockFactory.redact("jdbc:postgresql://h:5432/db"))
                .isEqualTo("jdbc:postgresql://h:5432/db");
        assertThat(new JdbcLockFactory("jdbc:postgresql://h/db?password=s3", LOCK_ID, Map.of()))
                .hasToString(
                        "JdbcLockFactory{uri=jdbc:postgresql://h/db?password=***, lockId=db.sales}");
    }
}
