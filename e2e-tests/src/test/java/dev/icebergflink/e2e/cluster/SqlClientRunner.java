package dev.icebergflink.e2e.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Flink's SQL client ({@code org.apache.flink.table.client.SqlClient}, what {@code
 * bin/sql-client.sh} runs) in embedded mode in a child JVM, running a script against a {@link
 * FlinkSessionCluster}: {@code SqlClient embedded [-i init.sql] [-j jar] -f script.sql}.
 *
 * <p>Why it exists: {@code -j} and {@code ADD JAR} load the bundle through the user class loader,
 * the way Apache Iceberg's own Flink runtime jar fails; only a real SQL client shows that ours does
 * not.
 */
public final class SqlClientRunner {

    private static final String SQL_CLIENT = "org.apache.flink.table.client.SqlClient";
    private static final AtomicInteger RUNS = new AtomicInteger();

    private final FlinkDistribution distribution;
    private Path initScript;
    private final List<Path> jars = new ArrayList<>();

    /** A SQL client of the given cluster's distribution (jobs go to that cluster). */
    public SqlClientRunner(FlinkSessionCluster cluster) {
        this.distribution = cluster.distribution();
    }

    /** {@code -i}: an initialization script, run before the main script. */
    public SqlClientRunner initScript(String sql) throws IOException {
        this.initScript = write("init", sql);
        return this;
    }

    /** {@code -j}: a jar for the session's user class loader (and the jobs it submits). */
    public SqlClientRunner jar(Path jar) {
        jars.add(jar);
        return this;
    }

    /**
     * Runs {@code script} with {@code -f}; kills the client after {@code timeout} (exit code -1).
     *
     * @return the exit code and everything the client printed
     */
    public ChildJvm.Result run(String script, Duration timeout)
            throws IOException, InterruptedException {
        String name = "sql-client-" + RUNS.incrementAndGet();
        List<String> args = new ArrayList<>(List.of("embedded"));
        if (initScript != null) {
            args.add("-i");
            args.add(initScript.toString());
        }
        for (Path jar : jars) {
            args.add("-j");
            args.add(jar.toString());
        }
        args.add("-f");
        args.add(write(name, script).toString());
        ChildJvm.Builder builder =
                ChildJvm.builder(name, SQL_CLIENT)
                        .classpath(distribution.sqlClientClasspath())
                        .jvmArguments(distribution.jvmFlags(name))
                        .jvmArguments("-Xmx768m")
                        .arguments(args)
                        .outputFile(distribution.logDir().resolve(name + ".out"));
        return distribution.environment(builder).build().run(timeout);
    }

    private Path write(String name, String sql) throws IOException {
        Path dir = distribution.home().resolve("sql");
        Files.createDirectories(dir);
        Path file = Files.createTempFile(dir, name + "-", ".sql");
        Files.writeString(file, sql, StandardCharsets.UTF_8);
        return file;
    }
}
