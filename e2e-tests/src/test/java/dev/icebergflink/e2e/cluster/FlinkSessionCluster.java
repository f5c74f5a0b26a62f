package dev.icebergflink.e2e.cluster;

import dev.icebergflink.e2e.cluster.FlinkDistribution.BundlePlacement;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * A real Flink session cluster (of the Flink line the build targets) for one test class: a
 * JobManager ({@code StandaloneSessionClusterEntrypoint}) and a TaskManager ({@code
 * TaskManagerRunner}) as separate JVMs on {@code 127.0.0.1}, started from a {@link
 * FlinkDistribution}.
 *
 * <p>Why it exists: the bundle jar must be proven where users run it, beyond one JVM. Register it
 * as a static field ({@code @RegisterExtension static final FlinkSessionCluster CLUSTER =
 * FlinkSessionCluster.withBundle(BundlePlacement.LIB);}). It is ready when the REST API reports the
 * TaskManager; {@link #close()} stops exactly the two processes it started; a failing test gets the
 * last lines of every process log on standard error. The distribution and logs stay under {@code
 * target/e2e/} for inspection.
 */
public final class FlinkSessionCluster
        implements BeforeAllCallback, AfterAllCallback, TestExecutionExceptionHandler {

    private static final String JOB_MANAGER =
            "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    private static final String TASK_MANAGER =
            "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
    private static final String BASH_JAVA_UTILS =
            "org.apache.flink.runtime.util.bash.BashJavaUtils";
    private static final String RESULT_PREFIX = "BASH_JAVA_UTILS_EXEC_RESULT:";
    private static final Duration READY_DEADLINE = Duration.ofMinutes(3);
    private static final Pattern JOB_STATE = Pattern.compile("\"state\"\\s*:\\s*\"([A-Z_]+)\"");
    private static final Pattern TASK_MANAGERS = Pattern.compile("\"taskmanagers\"\\s*:\\s*(\\d+)");

    private final BundlePlacement placement;
    private final Map<String, String> extraConfig = new LinkedHashMap<>();
    private final List<Supplier<Map<String, String>>> lateConfig = new ArrayList<>();
    private Supplier<Path> hadoopConfDir = () -> null;
    private Supplier<List<Path>> libJars = List::of;
    private FlinkDistribution distribution;
    private ChildJvm jobManager;
    private ChildJvm taskManager;
    private final Map<String, List<List<String>>> resourceParams = new LinkedHashMap<>();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private FlinkSessionCluster(BundlePlacement placement) {
        this.placement = placement;
    }

    /** A cluster whose distribution deploys the bundle jar as given. */
    public static FlinkSessionCluster withBundle(BundlePlacement placement) {
        return new FlinkSessionCluster(placement);
    }

    /** Adds a {@code config.yaml} entry for every process. */
    public FlinkSessionCluster config(String key, String value) {
        extraConfig.put(key, value);
        return this;
    }

    /**
     * Adds {@code config.yaml} entries computed at start (e.g. from a server another extension
     * started first); later entries win.
     */
    public FlinkSessionCluster config(Supplier<Map<String, String>> entries) {
        lateConfig.add(entries);
        return this;
    }

    /**
     * Gives every process this {@code HADOOP_CONF_DIR}, asked for at start (another extension, e.g.
     * HDFS, may create it first).
     */
    public FlinkSessionCluster hadoopConfDir(Supplier<Path> directory) {
        this.hadoopConfDir = directory;
        return this;
    }

    /** Puts these jars into {@code lib/} of every process, asked for at start. */
    public FlinkSessionCluster libJars(Supplier<List<Path>> jars) {
        this.libJars = jars;
        return this;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        String stamp = DateTimeFormatter.ofPattern("HHmmss-SSS").format(java.time.LocalTime.now());
        Path home =
                Path.of(
                                "target",
                                "e2e",
                                context.getRequiredTestClass().getSimpleName() + "-" + stamp)
                        .toAbsolutePath();
        start(home);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        close();
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable throwable)
            throws Throwable {
        System.err.println("Test failed: " + throwable + "\n" + logTails(80));
        throw throwable;
    }

    /** Lays out the distribution under {@code home} and starts both processes; waits for ready. */
    public synchronized void start(Path home) throws Exception {
        if (distribution != null) {
            throw new IllegalStateException(
                    "The cluster is already started in " + distribution.home());
        }
        Map<String, String> config = new LinkedHashMap<>(extraConfig);
        lateConfig.forEach(entries -> config.putAll(entries.get()));
        distribution =
                FlinkDistribution.create(
                        home, placement, config, hadoopConfDir.get(), libJars.get());
        try {
            jobManager = startProcess("jobmanager", JOB_MANAGER, "GET_JM_RESOURCE_PARAMS");
            taskManager = startProcess("taskmanager", TASK_MANAGER, "GET_TM_RESOURCE_PARAMS");
            awaitReady();
        } catch (Exception | Error e) {
            String tails = logTails(60);
            close();
            throw new IllegalStateException("The Flink session cluster did not start\n" + tails, e);
        }
    }

    /** Stops the TaskManager and the JobManager this instance started; a no-op when stopped. */
    public synchronized void close() throws InterruptedException {
        try {
            if (taskManager != null) {
                taskManager.stop(Duration.ofSeconds(30));
            }
        } finally {
            taskManager = null;
            if (jobManager != null) {
                jobManager.stop(Duration.ofSeconds(30));
            }
            jobManager = null;
        }
    }

    /**
     * Kills the JobManager process with SIGKILL (no orderly shutdown). With high availability
     * configured ({@link #config}), {@link #restartJobManager()} brings up a new one that recovers
     * the running jobs.
     *
     * @return the pid of the killed process
     */
    public synchronized long killJobManager() throws InterruptedException {
        long pid = jobManager.pid();
        jobManager.kill(Duration.ofSeconds(30));
        return pid;
    }

    /**
     * Starts a new JobManager process on the same configuration (ports, HA store) after {@link
     * #killJobManager()}, and waits until its REST API answers.
     */
    public synchronized void restartJobManager() throws Exception {
        if (jobManager != null && jobManager.isAlive()) {
            throw new IllegalStateException("The JobManager is still running");
        }
        jobManager = startProcess("jobmanager", JOB_MANAGER, "GET_JM_RESOURCE_PARAMS");
        Instant deadline = Instant.now().plus(READY_DEADLINE);
        IOException last = null;
        while (Instant.now().isBefore(deadline)) {
            if (!jobManager.isAlive()) {
                throw new IllegalStateException("The new JobManager exited\n" + logTails(60));
            }
            try {
                restGet("/overview");
                return;
            } catch (IOException notYet) {
                last = notYet;
            }
            Thread.sleep(500); // polling interval; readiness is decided by the REST answer
        }
        throw new IllegalStateException(
                "The new JobManager's REST API did not answer within " + READY_DEADLINE, last);
    }

    /**
     * Kills the TaskManager process with SIGKILL (its tasks, their buffers and its local state are
     * lost at once).
     *
     * @return the pid of the killed process
     */
    public synchronized long killTaskManager() throws InterruptedException {
        long pid = taskManager.pid();
        taskManager.kill(Duration.ofSeconds(30));
        return pid;
    }

    /** Starts a new TaskManager process after {@link #killTaskManager()}; it registers itself. */
    public synchronized void startTaskManager() throws Exception {
        if (taskManager != null && taskManager.isAlive()) {
            throw new IllegalStateException("The TaskManager is still running");
        }
        taskManager = startProcess("taskmanager", TASK_MANAGER, "GET_TM_RESOURCE_PARAMS");
    }

    /** The distribution the cluster runs from (for the CLI and SQL client). */
    public FlinkDistribution distribution() {
        if (distribution == null) {
            throw new IllegalStateException("The Flink session cluster is not started");
        }
        return distribution;
    }

    /** The REST port of the JobManager on {@code 127.0.0.1}. */
    public int restPort() {
        return distribution().restPort();
    }

    /** {@code GET <rest>/<path>} as a string; fails on a non-200 answer. */
    public String restGet(String path) throws IOException, InterruptedException {
        HttpRequest request =
                HttpRequest.newBuilder(URI.create(distribution().restUrl() + path))
                        .timeout(Duration.ofSeconds(20))
                        .GET()
                        .build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(
                    "GET " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    /** {@code POST <rest>/<path>} with a JSON body; returns the answer of a 200 or 202. */
    public String restPost(String path, String json) throws IOException, InterruptedException {
        HttpRequest request =
                HttpRequest.newBuilder(URI.create(distribution().restUrl() + path))
                        .timeout(Duration.ofSeconds(20))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json))
                        .build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200 && response.statusCode() != 202) {
            throw new IOException(
                    "POST " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    /** Cancels a job through the REST API ({@code PATCH /jobs/<id>?mode=cancel}). */
    public void cancelJob(String jobId) throws IOException, InterruptedException {
        HttpRequest request =
                HttpRequest.newBuilder(
                                URI.create(
                                        distribution().restUrl()
                                                + "/jobs/"
                                                + jobId
                                                + "?mode=cancel"))
                        .timeout(Duration.ofSeconds(20))
                        .method("PATCH", HttpRequest.BodyPublishers.noBody())
                        .build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 202) {
            throw new IOException(
                    "Cancelling job "
                            + jobId
                            + " answered "
                            + response.statusCode()
                            + ": "
                            + response.body());
        }
    }

    /** The state of a job ({@code RUNNING}, {@code CANCELED}, ...) from {@code GET /jobs/<id>}. */
    public String jobState(String jobId) throws IOException, InterruptedException {
        Matcher matcher = JOB_STATE.matcher(restGet("/jobs/" + jobId));
        if (!matcher.find()) {
            throw new IOException("No state in the answer for job " + jobId);
        }
        return matcher.group(1);
    }

    /** The last {@code lines} lines of every log and output file of the distribution. */
    public String logTails(int lines) {
        if (distribution == null) {
            return "[no distribution]";
        }
        StringBuilder tails = new StringBuilder();
        try (var files = Files.list(distribution.logDir())) {
            files.sorted().forEach(f -> tails.append(ChildJvm.tail(f, lines)).append('\n'));
        } catch (IOException e) {
            tails.append("[cannot list ").append(distribution.logDir()).append(": ").append(e);
        }
        return tails.toString();
    }

    private ChildJvm startProcess(String name, String mainClass, String resourceCommand)
            throws Exception {
        List<List<String>> params = resourceParams.get(name);
        if (params == null) {
            params = resourceParams(name, resourceCommand);
            resourceParams.put(name, params);
        }
        List<String> jvmArgs = new ArrayList<>(params.get(0));
        jvmArgs.addAll(distribution.jvmFlags(name));
        List<String> args =
                new ArrayList<>(List.of("--configDir", distribution.confDir().toString()));
        args.addAll(params.get(1));
        ChildJvm.Builder builder =
                ChildJvm.builder(name, mainClass)
                        .classpath(distribution.processClasspath())
                        .jvmArguments(jvmArgs)
                        .arguments(args)
                        .outputFile(distribution.logDir().resolve(name + ".out"));
        return distribution.environment(builder).build().start();
    }

    /** Line 1: JVM memory flags; line 2: {@code -D} dynamic options. */
    private List<List<String>> resourceParams(String name, String command) throws Exception {
        ChildJvm utils =
                distribution
                        .environment(
                                ChildJvm.builder(name + "-resources", BASH_JAVA_UTILS)
                                        .classpath(distribution.processClasspath())
                                        .jvmArguments(distribution.jvmFlags(name + "-resources"))
                                        .arguments(
                                                List.of(
                                                        command,
                                                        "--configDir",
                                                        distribution.confDir().toString()))
                                        .outputFile(
                                                distribution
                                                        .logDir()
                                                        .resolve(name + "-resources.out")))
                        .build();
        ChildJvm.Result result = utils.run(Duration.ofMinutes(2));
        List<List<String>> lines = new ArrayList<>();
        for (String line : result.output().split("\n")) {
            if (line.startsWith(RESULT_PREFIX)) {
                String value = line.substring(RESULT_PREFIX.length()).trim();
                lines.add(
                        value.isEmpty()
                                ? List.of()
                                : new ArrayList<>(Arrays.asList(value.split("\\s+"))));
            }
        }
        if (!result.succeeded() || lines.size() < 2) {
            throw new IllegalStateException(
                    "BashJavaUtils "
                            + command
                            + " failed (exit "
                            + result.exitCode()
                            + "):\n"
                            + result.output());
        }
        return lines;
    }

    private void awaitReady() throws Exception {
        Instant deadline = Instant.now().plus(READY_DEADLINE);
        String last = "";
        while (Instant.now().isBefore(deadline)) {
            for (ChildJvm process : List.of(jobManager, taskManager)) {
                if (!process.isAlive()) {
                    throw new IllegalStateException(
                            "A cluster process exited during start: " + process.command());
                }
            }
            try {
                last = restGet("/overview");
                Matcher matcher = TASK_MANAGERS.matcher(last);
                if (matcher.find() && Integer.parseInt(matcher.group(1)) >= 1) {
                    return;
                }
            } catch (IOException notYet) {
                last = notYet.toString();
            }
            Thread.sleep(500); // polling interval; readiness is decided by the REST answer
        }
        throw new IllegalStateException(
                "No TaskManager registered within " + READY_DEADLINE + "; last /overview: " + last);
    }
}
