package dev.icebergflink.e2e.cluster;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Flink's command line client ({@code CliFrontend}, what {@code bin/flink} runs) in a child JVM,
 * against a {@link FlinkSessionCluster}: {@code flink run -c <main> job.jar args...}.
 *
 * <p>Why it exists: submitting a packaged job jar the way users do checks what the IDE and the
 * MiniCluster cannot: the job's class loading on a real cluster.
 */
public final class FlinkCli {

    private static final String CLI_FRONTEND = "org.apache.flink.client.cli.CliFrontend";
    private static final AtomicInteger RUNS = new AtomicInteger();

    private final FlinkDistribution distribution;

    /** A CLI of the given cluster's distribution. */
    public FlinkCli(FlinkSessionCluster cluster) {
        this.distribution = cluster.distribution();
    }

    /**
     * {@code flink run -m 127.0.0.1:<rest> -c mainClass jar args...}, attached: returns when the
     * job is finished, or kills the client after {@code timeout} (exit code -1).
     */
    public ChildJvm.Result run(
            Duration timeout, String mainClass, java.nio.file.Path jar, List<String> args)
            throws IOException, InterruptedException {
        List<String> cli = new ArrayList<>();
        cli.add("run");
        cli.add("-m");
        cli.add("127.0.0.1:" + distribution.restPort());
        cli.add("-c");
        cli.add(mainClass);
        cli.add(jar.toString());
        cli.addAll(args);
        return command(timeout, cli);
    }

    /** Any CLI command ({@code list}, {@code cancel <id>}, ...). */
    public ChildJvm.Result command(Duration timeout, List<String> cliArguments)
            throws IOException, InterruptedException {
        String name = "flink-cli-" + RUNS.incrementAndGet();
        ChildJvm.Builder builder =
                ChildJvm.builder(name, CLI_FRONTEND)
                        .classpath(distribution.processClasspath())
                        .jvmArguments(distribution.jvmFlags(name))
                        .arguments(cliArguments)
                        .outputFile(distribution.logDir().resolve(name + ".out"));
        return distribution.environment(builder).build().run(timeout);
    }
}
