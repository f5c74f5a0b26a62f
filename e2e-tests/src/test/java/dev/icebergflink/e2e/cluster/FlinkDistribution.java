package dev.icebergflink.e2e.cluster;

import dev.icebergflink.testing.servers.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A Flink distribution (of the Flink line the build targets) laid out for one test class, the way a
 * user installs it: {@code conf/config.yaml}, {@code conf/log4j.properties}, {@code lib/}, {@code
 * opt/} and {@code log/}, with free ports on {@code 127.0.0.1}.
 *
 * <p>Why it exists: every process of a test (JobManager, TaskManager, CLI, SQL client) must see the
 * same configuration and class path, and the one difference the tests are about is whether the
 * bundle jar sits in {@code lib/} ({@link BundlePlacement#LIB}) or comes with the job or the SQL
 * client's {@code -j} / {@code ADD JAR} ({@link BundlePlacement#USER_JAR}). Hadoop comes from a
 * separate directory, in the role of {@code HADOOP_CLASSPATH}.
 */
public final class FlinkDistribution {

    /** Where the connector's bundle jar is deployed. */
    public enum BundlePlacement {
        /** In the cluster's and client's {@code lib/}: loaded by the parent class loader. */
        LIB,
        /** Not in {@code lib/}: each job or SQL session brings it (user class loader). */
        USER_JAR
    }

    /** Flink's {@code env.java.opts.all} for Java 17. */
    private static final List<String> MODULE_FLAGS =
            List.of(
                    "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
                    "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
                    "--add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED",
                    "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
                    "--add-exports=jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED",
                    "--add-exports=jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED",
                    "--add-exports=jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED",
                    "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED");

    private final Path home;
    private final BundlePlacement placement;
    private final int restPort;
    private final int rpcPort;
    private final Path hadoopConfDir;

    private FlinkDistribution(
            Path home, BundlePlacement placement, int restPort, int rpcPort, Path hadoopConfDir) {
        this.home = home;
        this.placement = placement;
        this.restPort = restPort;
        this.rpcPort = rpcPort;
        this.hadoopConfDir = hadoopConfDir;
    }

    /**
     * Lays out a distribution under {@code home} (created if missing).
     *
     * @param extraConfig more {@code config.yaml} entries (flat keys), e.g. checkpoint settings
     * @param hadoopConfDir a directory with {@code core-site.xml}/{@code hdfs-site.xml} for every
     *     process ({@code HADOOP_CONF_DIR}), or null
     * @param extraLibJars jars users put into {@code lib/} next to Flink's (e.g. a JDBC driver)
     */
    public static FlinkDistribution create(
            Path home,
            BundlePlacement placement,
            Map<String, String> extraConfig,
            Path hadoopConfDir,
            List<Path> extraLibJars)
            throws IOException {
        Files.createDirectories(home.resolve("conf"));
        Files.createDirectories(home.resolve("lib"));
        Files.createDirectories(home.resolve("opt"));
        Files.createDirectories(home.resolve("log"));
        Path parts = E2eArtifacts.flinkParts();
        linkAll(parts.resolve("lib"), home.resolve("lib"));
        linkAll(parts.resolve("opt"), home.resolve("opt"));
        if (placement == BundlePlacement.LIB) {
            Path bundle = E2eArtifacts.bundleJar();
            Files.createSymbolicLink(home.resolve("lib").resolve(bundle.getFileName()), bundle);
        }
        for (Path jar : extraLibJars) {
            Files.createSymbolicLink(home.resolve("lib").resolve(jar.getFileName()), jar);
        }
        int restPort = FreePorts.freePort();
        int rpcPort = FreePorts.freePort();
        Map<String, String> config = new LinkedHashMap<>();
        config.put("jobmanager.bind-host", "127.0.0.1");
        config.put("jobmanager.rpc.address", "127.0.0.1");
        config.put("jobmanager.rpc.port", Integer.toString(rpcPort));
        config.put("jobmanager.memory.process.size", "1024m");
        config.put("taskmanager.bind-host", "127.0.0.1");
        config.put("taskmanager.host", "127.0.0.1");
        config.put("taskmanager.numberOfTaskSlots", "2");
        config.put("taskmanager.memory.process.size", "1536m");
        config.put("taskmanager.memory.managed.size", "128m");
        config.put("parallelism.default", "1");
        config.put("rest.address", "127.0.0.1");
        config.put("rest.bind-address", "127.0.0.1");
        config.put("rest.port", Integer.toString(restPort));
        config.put("blob.server.port", "0");
        // A loaded 2-core machine: give slow starts and GC pauses room before declaring anyone
        // dead.
        config.put("heartbeat.timeout", "120000");
        config.put("pekko.ask.timeout", "60 s");
        config.put("execution.checkpointing.dir", home.resolve("checkpoints").toUri().toString());
        config.putAll(extraConfig);
        StringBuilder yaml = new StringBuilder();
        config.forEach((k, v) -> yaml.append(k).append(": ").append(quote(v)).append('\n'));
        Files.writeString(home.resolve("conf/config.yaml"), yaml, StandardCharsets.UTF_8);
        Files.writeString(
                home.resolve("conf/log4j.properties"), LOG4J_PROPERTIES, StandardCharsets.UTF_8);
        return new FlinkDistribution(home, placement, restPort, rpcPort, hadoopConfDir);
    }

    /** The distribution's root directory ({@code FLINK_HOME}). */
    public Path home() {
        return home;
    }

    /** {@code conf/} ({@code FLINK_CONF_DIR}). */
    public Path confDir() {
        return home.resolve("conf");
    }

    /** {@code lib/} ({@code FLINK_LIB_DIR}). */
    public Path libDir() {
        return home.resolve("lib");
    }

    /** {@code opt/} ({@code FLINK_OPT_DIR}): the SQL client and gateway. */
    public Path optDir() {
        return home.resolve("opt");
    }

    /** {@code log/}: one {@code <name>.log} and {@code <name>.out} per process. */
    public Path logDir() {
        return home.resolve("log");
    }

    /** Where the bundle jar is deployed. */
    public BundlePlacement placement() {
        return placement;
    }

    /** The JobManager's REST port on {@code 127.0.0.1}. */
    public int restPort() {
        return restPort;
    }

    /** The JobManager's RPC port on {@code 127.0.0.1}. */
    public int rpcPort() {
        return rpcPort;
    }

    /** {@code http://127.0.0.1:<rest port>}. */
    public String restUrl() {
        return "http://127.0.0.1:" + restPort;
    }

    /** The {@code HADOOP_CONF_DIR} of every process, or null. */
    public Path hadoopConfDir() {
        return hadoopConfDir;
    }

    /**
     * The class path of a Flink process: {@code lib/*} in name order (as Flink's scripts build it),
     * then the Hadoop jars ({@code HADOOP_CLASSPATH}) and the Hadoop configuration directory.
     */
    public List<Path> processClasspath() {
        List<Path> classpath = new ArrayList<>(jarsIn(libDir()));
        classpath.addAll(jarsIn(E2eArtifacts.flinkParts().resolve("hadoop")));
        if (hadoopConfDir != null) {
            classpath.add(hadoopConfDir);
        }
        return classpath;
    }

    /** The class path of the SQL client: a process class path plus {@code opt/*}. */
    public List<Path> sqlClientClasspath() {
        List<Path> classpath = new ArrayList<>(processClasspath());
        classpath.addAll(jarsIn(optDir()));
        return classpath;
    }

    /** The JVM flags every Flink process needs on Java 17, plus its log file settings. */
    public List<String> jvmFlags(String processName) {
        List<String> flags = new ArrayList<>();
        flags.addAll(Arrays.asList(E2eArtifacts.flinkJvmFlags().trim().split("\\s+")));
        flags.addAll(MODULE_FLAGS);
        flags.add("-Dlog.file=" + logDir().resolve(processName + ".log"));
        flags.add("-Dlog4j.configurationFile=file:" + confDir().resolve("log4j.properties"));
        return flags;
    }

    /** Applies the environment a user's shell gives a Flink process ({@code FLINK_CONF_DIR}...). */
    public ChildJvm.Builder environment(ChildJvm.Builder builder) {
        builder.environment("FLINK_HOME", home.toString())
                .environment("FLINK_CONF_DIR", confDir().toString())
                .environment("FLINK_LIB_DIR", libDir().toString())
                .environment("FLINK_OPT_DIR", optDir().toString())
                .environment("FLINK_LOG_DIR", logDir().toString())
                .workingDirectory(home);
        if (hadoopConfDir != null) {
            builder.environment("HADOOP_CONF_DIR", hadoopConfDir.toString());
        }
        return builder;
    }

    private static List<Path> jarsIn(Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + directory, e);
        }
    }

    private static void linkAll(Path from, Path to) throws IOException {
        for (Path jar : jarsIn(from)) {
            Files.createSymbolicLink(to.resolve(jar.getFileName()), jar);
        }
    }

    private static String quote(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    private static final String LOG4J_PROPERTIES =
            String.join(
                    "\n",
                    "# Written by the end-to-end tests: one file per process, appended.",
                    "monitorInterval = 0",
                    "rootLogger.level = INFO",
                    "rootLogger.appenderRef.file.ref = MainAppender",
                    "logger.pekko.name = org.apache.pekko",
                    "logger.pekko.level = WARN",
                    "logger.hadoop.name = org.apache.hadoop",
                    "logger.hadoop.level = WARN",
                    "logger.parquet.name = org.apache.parquet",
                    "logger.parquet.level = WARN",
                    "appender.main.name = MainAppender",
                    "appender.main.type = File",
                    "appender.main.append = true",
                    "appender.main.fileName = ${sys:log.file}",
                    "appender.main.layout.type = PatternLayout",
                    "appender.main.layout.pattern = %d{HH:mm:ss,SSS} %-5p %-40c{1.} [%t] - %m%n",
                    "");
}
