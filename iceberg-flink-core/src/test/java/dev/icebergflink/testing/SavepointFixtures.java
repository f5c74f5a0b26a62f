package dev.icebergflink.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Savepoint fixtures: a savepoint of a job that an earlier release of the connector ran, together
 * with the Iceberg tables (and other output) that job read and wrote, and a {@code
 * fixture.properties} file describing it. The restore tests ({@code *SavepointCompatibilityITCase})
 * restore them on the current code; the generators ({@code *SavepointFixtureGeneratorITCase}) write
 * new ones when run with {@code -Dsavepoint.fixtures.generate=<dir>}.
 *
 * <p>Iceberg metadata and Flink state hold absolute paths, so every fixture lives, while it is
 * generated and while it is restored, at one fixed directory, {@code
 * /tmp/iceberg-flink-savepoint-fixtures/<name>}. Builds of several Flink lines may run at once on
 * one machine: a {@link Fixture} holds an exclusive lock (a {@link FileLock} on {@code <name>.lock}
 * next to the directory, plus a lock within this JVM) until it is closed.
 *
 * <p>The fixture directory's layout is the fixture's own ({@code savepoint/...}, {@code
 * tables/...}); {@code fixture.properties} names the savepoint directory under {@link
 * #SAVEPOINT_KEY}.
 */
public final class SavepointFixtures {

    /** The system property that turns the generators on: the directory to write fixtures to. */
    public static final String GENERATE_PROPERTY = "savepoint.fixtures.generate";

    /** Our version that generates, recorded in the fixture (the build passes it through). */
    public static final String CONNECTOR_VERSION_PROPERTY = "savepoint.fixtures.connector-version";

    /** Where every fixture lives while it is generated or restored. */
    public static final Path ROOT = Path.of("/tmp", "iceberg-flink-savepoint-fixtures");

    /** The properties file of a fixture. */
    public static final String PROPERTIES_FILE = "fixture.properties";

    /** The key of the savepoint directory, relative to the fixture's directory. */
    public static final String SAVEPOINT_KEY = "savepoint";

    private static final Map<String, ReentrantLock> JVM_LOCKS = new ConcurrentHashMap<>();

    private SavepointFixtures() {}

    /**
     * The directory new fixtures go to ({@code -Dsavepoint.fixtures.generate}); skips the calling
     * test with an assumption when it is not set.
     */
    public static Path generateTarget() {
        String target = System.getProperty(GENERATE_PROPERTY, "");
        assumeTrue(
                !target.isBlank(),
                "generates savepoint fixtures only with -D" + GENERATE_PROPERTY + "=<dir>");
        return Path.of(target).toAbsolutePath();
    }

    /**
     * Locks the fixed directory of fixture {@code name} and empties it, for a generator to write a
     * new fixture into; {@link Fixture#export} copies the result out.
     */
    public static Fixture forGeneration(String name) {
        Fixture fixture = Fixture.lock(name);
        try {
            deleteRecursively(fixture.dir());
            Files.createDirectories(fixture.dir());
            return fixture;
        } catch (IOException | RuntimeException e) {
            fixture.close();
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    /**
     * Locks the fixed directory of fixture {@code name} and copies the fixture from the class path
     * resource directory {@code resource} (e.g. {@code savepoints/flink-2.1/iceberg-sink}) into it,
     * replacing whatever was there.
     */
    public static Fixture restore(String resource, String name) {
        Path source = resourceDirectory(resource);
        Fixture fixture = Fixture.lock(name);
        try {
            deleteRecursively(fixture.dir());
            copyTree(source, fixture.dir(), false);
            fixture.loadProperties();
            return fixture;
        } catch (IOException | RuntimeException e) {
            fixture.close();
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    /** The directory of a class path resource directory (test resources are plain directories). */
    static Path resourceDirectory(String resource) {
        URL url = SavepointFixtures.class.getClassLoader().getResource(resource);
        Objects.requireNonNull(url, () -> "no fixture on the class path at " + resource);
        try {
            Path dir = Path.of(url.toURI());
            if (!Files.isDirectory(dir)) {
                throw new IllegalArgumentException("fixture " + resource + " is no directory");
            }
            return dir;
        } catch (URISyntaxException | java.nio.file.FileSystemNotFoundException e) {
            throw new IllegalArgumentException(
                    "fixture " + resource + " is not a plain directory: " + url, e);
        }
    }

    /** An exclusively locked fixture directory with its properties; close to unlock. */
    public static final class Fixture implements AutoCloseable {
        private final String name;
        private final Path dir;
        private final ReentrantLock jvmLock;
        private final FileChannel channel;
        private final FileLock fileLock;
        private final Properties properties = new Properties();

        private Fixture(
                String name,
                Path dir,
                ReentrantLock jvmLock,
                FileChannel channel,
                FileLock fileLock) {
            this.name = name;
            this.dir = dir;
            this.jvmLock = jvmLock;
            this.channel = channel;
            this.fileLock = fileLock;
        }

        private static Fixture lock(String name) {
            if (!name.matches("[a-z0-9][a-z0-9.-]*")) {
                throw new IllegalArgumentException("bad fixture name " + name);
            }
            ReentrantLock jvmLock = JVM_LOCKS.computeIfAbsent(name, n -> new ReentrantLock());
            jvmLock.lock();
            FileChannel channel = null;
            try {
                Files.createDirectories(ROOT);
                channel =
                        FileChannel.open(
                                ROOT.resolve(name + ".lock"),
                                StandardOpenOption.CREATE,
                                StandardOpenOption.WRITE);
                // blocks while another build (another JVM) holds it
                FileLock fileLock = channel.lock();
                return new Fixture(name, ROOT.resolve(name), jvmLock, channel, fileLock);
            } catch (IOException | RuntimeException e) {
                closeQuietly(channel);
                jvmLock.unlock();
                throw e instanceof IOException io
                        ? new UncheckedIOException(io)
                        : (RuntimeException) e;
            }
        }

        public String name() {
            return name;
        }

        /** The fixed directory: {@code /tmp/iceberg-flink-savepoint-fixtures/<name>}. */
        public Path dir() {
            return dir;
        }

        /** {@code relative} inside the fixture's directory. */
        public Path resolve(String relative) {
            return dir.resolve(relative);
        }

        /** The savepoint to restore, as a URI string for {@code execution.state-recovery.path}. */
        public String savepoint() {
            return resolve(property(SAVEPOINT_KEY)).toUri().toString();
        }

        /** A property of {@code fixture.properties}; fails when it is missing. */
        public String property(String key) {
            String value = properties.getProperty(key);
            if (value == null) {
                throw new IllegalStateException(
                        "fixture " + name + " has no property " + key + ": " + properties);
            }
            return value;
        }

        public long longProperty(String key) {
            return Long.parseLong(property(key));
        }

        /** Sets a property {@link #export} writes to {@code fixture.properties}. */
        public Fixture put(String key, Object value) {
            properties.setProperty(key, String.valueOf(value));
            return this;
        }

        /**
         * Copies the fixture's directory to {@code <target>/<name>} (replacing it), without
         * Hadoop's {@code .crc} checksum files, and writes the properties set with {@link #put}
         * there, sorted.
         *
         * @return the exported directory
         */
        public Path export(Path target) {
            Path out = target.resolve(name);
            try {
                deleteRecursively(out);
                copyTree(dir, out, true);
                Map<String, String> sorted = new TreeMap<>();
                properties
                        .stringPropertyNames()
                        .forEach(key -> sorted.put(key, properties.getProperty(key)));
                StringBuilder text =
                        new StringBuilder("# Savepoint fixture ")
                                .append(name)
                                .append(", written by its generator ITCase. Do not edit.\n");
                sorted.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
                Files.writeString(out.resolve(PROPERTIES_FILE), text);
                return out;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private void loadProperties() throws IOException {
            try (InputStream in = Files.newInputStream(dir.resolve(PROPERTIES_FILE))) {
                properties.load(in);
            }
        }

        /** Releases the locks; the directory stays (the next user replaces it). */
        @Override
        public void close() {
            try {
                if (fileLock.isValid()) {
                    fileLock.release();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                closeQuietly(channel);
                if (jvmLock.isHeldByCurrentThread()) {
                    jvmLock.unlock();
                }
            }
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable != null) {
            try {
                closeable.close();
            } catch (Exception ignored) {
                // nothing left to do
            }
        }
    }

    /** Deletes {@code dir} and everything in it, if it exists. */
    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    /** Copies a directory tree; {@code withoutChecksums} leaves out Hadoop's {@code .crc} files. */
    static void copyTree(Path from, Path to, boolean withoutChecksums) throws IOException {
        Files.walkFileTree(
                from,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
                            throws IOException {
                        Files.createDirectories(to.resolve(from.relativize(dir).toString()));
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                            throws IOException {
                        String fileName = file.getFileName().toString();
                        if (withoutChecksums && fileName.endsWith(".crc")) {
                            return FileVisitResult.CONTINUE;
                        }
                        Path target = to.resolve(from.relativize(file).toString());
                        try (InputStream in = Files.newInputStream(file);
                                OutputStream out = Files.newOutputStream(target)) {
                            in.transferTo(out);
                        }
                        return FileVisitResult.CONTINUE;
                    }
                });
    }

    /**
     * The environment of every fixture job: parallelism 2, a checkpoint every 100 ms, no restarts
     * (a failure must fail the test); restoring {@code savepoint} (when not null) with every piece
     * of its state claimed, so a restore that silently dropped state fails.
     */
    public static StreamExecutionEnvironment environment(String savepoint) {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        if (savepoint != null) {
            conf.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
            conf.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, false);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(100);
        return env;
    }

    /**
     * Stops the generator's job with a canonical savepoint into {@code fixture}'s {@code savepoint}
     * directory (without draining: the state is mid-stream) and waits until the job has ended.
     *
     * @return the savepoint's path
     */
    public static String stopWithSavepoint(JobClient client, Fixture fixture, Duration timeout)
            throws Exception {
        String savepoint =
                client.stopWithSavepoint(
                                false,
                                fixture.resolve("savepoint").toUri().toString(),
                                SavepointFormatType.CANONICAL)
                        .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        client.getJobExecutionResult().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        return savepoint;
    }
}
