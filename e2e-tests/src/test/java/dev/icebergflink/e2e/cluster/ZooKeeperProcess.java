package dev.icebergflink.e2e.cluster;

import dev.icebergflink.testing.servers.FreePorts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A single ZooKeeper server on {@code 127.0.0.1} as its own process, started the way Flink's {@code
 * bin/zookeeper.sh} starts one: {@code FlinkZooKeeperQuorumPeer} (from {@code flink-runtime}, with
 * the ZooKeeper that {@code flink-shaded-zookeeper-3} carries) on the cluster's own class path.
 *
 * <p>Why it exists: Flink's JobManager high availability needs ZooKeeper (or Kubernetes, which the
 * test machines have not), and only with it does a killed JobManager come back with its jobs.
 * Nothing but the Flink distribution's jars is needed. Register it as a static extension before the
 * {@link FlinkSessionCluster} whose configuration names {@link #quorum()}; it stops after the test
 * class, or with the test JVM.
 */
public final class ZooKeeperProcess implements BeforeAllCallback, AfterAllCallback {

    private static final String QUORUM_PEER =
            "org.apache.flink.runtime.zookeeper.FlinkZooKeeperQuorumPeer";
    private static final Duration READY_DEADLINE = Duration.ofMinutes(2);

    private ChildJvm process;
    private int port;
    private Path directory;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        String stamp = DateTimeFormatter.ofPattern("HHmmss-SSS").format(java.time.LocalTime.now());
        start(
                Path.of(
                                "target",
                                "e2e",
                                context.getRequiredTestClass().getSimpleName() + "-zk-" + stamp)
                        .toAbsolutePath());
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        close();
    }

    /**
     * Starts a server with its data and output under {@code directory}; returns once it accepts
     * connections.
     */
    public synchronized void start(Path directory) throws Exception {
        if (process != null) {
            throw new IllegalStateException("ZooKeeper is already started");
        }
        Files.createDirectories(directory.resolve("data"));
        int port = FreePorts.freePort();
        Path config = directory.resolve("zoo.cfg");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "tickTime=1000",
                        "initLimit=10",
                        "syncLimit=5",
                        "dataDir=" + directory.resolve("data"),
                        "clientPort=" + port,
                        "clientPortAddress=127.0.0.1",
                        "maxClientCnxns=0",
                        ""),
                StandardCharsets.UTF_8);
        List<String> flags =
                new ArrayList<>(Arrays.asList(E2eArtifacts.flinkJvmFlags().trim().split("\\s+")));
        process =
                ChildJvm.builder("zookeeper", QUORUM_PEER)
                        .classpath(jars(E2eArtifacts.flinkParts().resolve("lib")))
                        .jvmArguments(flags)
                        .jvmArguments(
                                "-Xmx128m",
                                // No admin HTTP server (it would listen on all interfaces).
                                "-Dzookeeper.admin.enableServer=false")
                        .arguments(List.of("--zkConfigFile", config.toString(), "--peerId", "1"))
                        .outputFile(directory.resolve("zookeeper.out"))
                        .workingDirectory(directory)
                        .build()
                        .start();
        this.port = port;
        this.directory = directory;
        try {
            awaitAcceptingConnections();
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    /** {@code 127.0.0.1:<port>}, for {@code high-availability.zookeeper.quorum}. */
    public synchronized String quorum() {
        if (process == null) {
            throw new IllegalStateException("ZooKeeper is not started");
        }
        return "127.0.0.1:" + port;
    }

    /** The server's directory (data, output); other processes of the test may keep files here. */
    public synchronized Path directory() {
        if (process == null) {
            throw new IllegalStateException("ZooKeeper is not started");
        }
        return directory;
    }

    /** Stops the server this instance started; a no-op when stopped. */
    public synchronized void close() throws InterruptedException {
        if (process != null) {
            process.stop(Duration.ofSeconds(10));
            process = null;
        }
    }

    private static List<Path> jars(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList();
        }
    }

    private void awaitAcceptingConnections() throws Exception {
        Instant deadline = Instant.now().plus(READY_DEADLINE);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "ZooKeeper exited during start\n"
                                + ChildJvm.tail(process.outputFile(), 40));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return;
            } catch (IOException notYet) {
                Thread.sleep(200); // polling interval; readiness is decided by the connection
            }
        }
        throw new IllegalStateException(
                "ZooKeeper did not accept connections on "
                        + quorum()
                        + " within "
                        + READY_DEADLINE
                        + "\n"
                        + ChildJvm.tail(process.outputFile(), 40));
    }
}
