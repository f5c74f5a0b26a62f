package dev.icebergflink.benchmarks.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one workload in a fresh JVM ({@link WorkloadMain}) with this JVM's class path, a fixed heap,
 * the parallel collector and the {@code --add-opens}/{@code --add-exports} flags Flink needs
 * (inherited from this JVM, which gets them from the root pom's {@code flink.jvm.flags}), and
 * returns the result line it printed. Its stderr goes to a log file per workload and run.
 */
final class ChildJvm {

    private final SuiteOptions options;
    private final Path warehouse;
    private final Path logs;

    ChildJvm(SuiteOptions options, Path warehouse, Path logs) {
        this.options = options;
        this.warehouse = warehouse;
        this.logs = logs;
    }

    /**
     * Runs the workload and returns its result line.
     *
     * @throws BenchmarkFailure when the child fails, gives a wrong answer or prints no result
     */
    ResultLine run(Workload workload, int run) throws IOException, InterruptedException {
        return run(workload.id(), run, command(workload, run));
    }

    /**
     * Runs the workload through Apache Iceberg's own Flink connector in a child JVM of the
     * reference's class path ({@link ReferenceClasspath}) and returns its result line, whose
     * workload is {@link Workload#connectorReferenceId()}.
     *
     * @throws BenchmarkFailure when the child fails, gives a wrong answer or prints no result
     */
    ResultLine runReference(Workload workload, int run) throws IOException, InterruptedException {
        return run(
                workload.connectorReferenceId(),
                run,
                command(
                        workload.connectorReferenceId(),
                        workload,
                        run,
                        ReferenceClasspath.resolve(),
                        ReferenceClasspath.MAIN));
    }

    private ResultLine run(String id, int run, List<String> command)
            throws IOException, InterruptedException {
        Files.createDirectories(logs);
        Path log = logs.resolve(id + "-r" + run + ".log");
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.redirectError(log.toFile());
        Process process = builder.start();
        ResultLine result = null;
        List<String> other = new ArrayList<>();
        try (BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (ResultLine.isResultLine(line)) {
                    result = ResultLine.parse(line);
                } else {
                    other.add(line);
                }
            }
        }
        int exit = process.waitFor();
        if (!other.isEmpty()) {
            Files.write(
                    log,
                    other,
                    StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.APPEND,
                    java.nio.file.StandardOpenOption.CREATE);
        }
        if (exit != 0 || result == null) {
            throw new BenchmarkFailure(
                    String.format(
                            "Workload %s (run %d) failed with exit code %d%s; its log %s ends"
                                    + " with:%n%s",
                            id,
                            run,
                            exit,
                            result == null ? " and printed no result line" : "",
                            log,
                            tail(log, 30)));
        }
        return result;
    }

    List<String> command(Workload workload, int run) {
        return command(
                workload.id(),
                workload,
                run,
                System.getProperty("java.class.path"),
                WorkloadMain.class.getName());
    }

    /**
     * The command of a child: the same JVM flags, heap, collector and arguments for ours and the
     * reference's, with the class path and main class of the side it runs; {@code id} names its JFR
     * recording.
     */
    List<String> command(
            String id, Workload workload, int run, String classPath, String mainClass) {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + options.heap());
        command.add("-XX:+UseParallelGC");
        command.addAll(moduleFlags());
        command.add("-Dlog4j2.configurationFile=benchmarks-log4j2.properties");
        command.add("-Djava.io.tmpdir=" + warehouse.getParent().resolve("tmp"));
        if (options.jfrDir() != null) {
            command.add(
                    "-XX:StartFlightRecording=settings=profile,filename="
                            + options.jfrDir().resolve(id + "-r" + run + ".jfr"));
        }
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.addAll(
                List.of(
                        "--workload", workload.id(),
                        "--run", String.valueOf(run),
                        "--rows", String.valueOf(options.rows()),
                        "--warmup-rows", String.valueOf(options.warmupRows()),
                        "--seed", String.valueOf(options.seed()),
                        "--warehouse", warehouse.toString()));
        return command;
    }

    /**
     * The flags Flink needs on Java 17 when this JVM was started without any (a plain {@code java
     * -cp} call); the same as the root pom's {@code flink.jvm.flags}.
     */
    private static final List<String> DEFAULT_MODULE_FLAGS =
            List.of(
                    "--add-opens=java.base/java.lang=ALL-UNNAMED",
                    "--add-opens=java.base/java.net=ALL-UNNAMED",
                    "--add-opens=java.base/java.io=ALL-UNNAMED",
                    "--add-opens=java.base/java.nio=ALL-UNNAMED",
                    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
                    "--add-opens=java.base/java.text=ALL-UNNAMED",
                    "--add-opens=java.base/java.time=ALL-UNNAMED",
                    "--add-opens=java.base/java.util=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED",
                    "--add-exports=java.base/sun.net.util=ALL-UNNAMED");

    /**
     * The add-opens/add-exports flags of this JVM (in both of their spellings), or the defaults
     * when it has none.
     */
    static List<String> moduleFlags() {
        List<String> flags = new ArrayList<>();
        List<String> input = ManagementFactory.getRuntimeMXBean().getInputArguments();
        for (int i = 0; i < input.size(); i++) {
            String arg = input.get(i);
            if (arg.startsWith("--add-opens=") || arg.startsWith("--add-exports=")) {
                flags.add(arg);
            } else if ((arg.equals("--add-opens") || arg.equals("--add-exports"))
                    && i + 1 < input.size()) {
                flags.add(arg + "=" + input.get(++i));
            }
        }
        return flags.isEmpty() ? DEFAULT_MODULE_FLAGS : flags;
    }

    private static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join(
                    System.lineSeparator(),
                    all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e.getMessage() + ")";
        }
    }

    /** A workload run failed or gave a wrong answer: the suite stops with a non-zero exit. */
    static final class BenchmarkFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BenchmarkFailure(String message) {
            super(message);
        }
    }
}
