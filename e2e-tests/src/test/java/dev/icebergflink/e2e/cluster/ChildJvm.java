package dev.icebergflink.e2e.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One child JVM of the end-to-end tests: a main class on an explicit class path, with its output in
 * a file, started through {@code ParentWatchdog} so that it dies with the test JVM.
 *
 * <p>Why it exists: the JobManager, TaskManager, CLI and SQL client all start the same way; this
 * class owns the command line, the environment and stopping exactly the process it started.
 */
public final class ChildJvm {

    private static final String WATCHDOG = "dev.icebergflink.e2e.launcher.ParentWatchdog";

    private final String name;
    private final List<String> command;
    private final Map<String, String> environment;
    private final Path workingDirectory;
    private final Path outputFile;
    private Process process;

    private ChildJvm(Builder builder) {
        this.name = builder.name;
        this.workingDirectory = builder.workingDirectory;
        this.outputFile = builder.outputFile;
        this.environment = Map.copyOf(builder.environment);
        List<Path> classpath = new ArrayList<>(builder.classpath);
        classpath.add(launcherJar());
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(builder.jvmArguments);
        cmd.add("-cp");
        cmd.add(
                classpath.stream()
                        .map(Path::toString)
                        .collect(Collectors.joining(System.getProperty("path.separator"))));
        cmd.add(WATCHDOG);
        cmd.add(builder.mainClass);
        cmd.addAll(builder.arguments);
        this.command = List.copyOf(cmd);
    }

    /** Starts building a child JVM that runs {@code mainClass}. */
    public static Builder builder(String name, String mainClass) {
        return new Builder(name, mainClass);
    }

    /** Starts the process; its output goes to {@link #outputFile()}. */
    public synchronized ChildJvm start() throws IOException {
        if (process != null) {
            throw new IllegalStateException(name + " is already started");
        }
        Files.createDirectories(outputFile.getParent());
        ProcessBuilder builder =
                new ProcessBuilder(command)
                        .directory(workingDirectory.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(outputFile.toFile()));
        // The pipe stays open and unwritten: ParentWatchdog halts the child when it closes.
        builder.redirectInput(ProcessBuilder.Redirect.PIPE);
        builder.environment().putAll(environment);
        process = builder.start();
        return this;
    }

    /**
     * Runs the process to its end, or kills it after {@code timeout}.
     *
     * @return the exit code and the whole output; exit code -1 if it timed out
     */
    public Result run(Duration timeout) throws IOException, InterruptedException {
        start();
        boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!exited) {
            stop(Duration.ofSeconds(10));
            return new Result(-1, output() + "\n[" + name + " timed out after " + timeout + "]");
        }
        return new Result(process.exitValue(), output());
    }

    /** Whether the process was started and has not exited. */
    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** The process id, for messages. */
    public synchronized long pid() {
        return process == null ? -1 : process.pid();
    }

    /** Stops the process (SIGTERM, then SIGKILL after {@code grace}); a no-op when not running. */
    public synchronized void stop(Duration grace) throws InterruptedException {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();
        if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Kills the process at once (SIGKILL: no shutdown hooks, nothing flushed, as when a machine or
     * container dies) and waits until it is gone; a no-op when not running.
     */
    public synchronized void kill(Duration timeout) throws InterruptedException {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroyForcibly();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException(name + " (pid " + process.pid() + ") survived SIGKILL");
        }
    }

    /** The file holding the process's standard output and error. */
    public Path outputFile() {
        return outputFile;
    }

    /** The whole output so far. */
    public String output() throws IOException {
        return Files.exists(outputFile) ? Files.readString(outputFile, StandardCharsets.UTF_8) : "";
    }

    /** The command line, for messages. */
    public List<String> command() {
        return command;
    }

    /** The last {@code lines} lines of a text file, or a note that it does not exist. */
    public static String tail(Path file, int lines) {
        try {
            if (!Files.exists(file)) {
                return "[" + file + " does not exist]";
            }
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            List<String> last = all.subList(Math.max(0, all.size() - lines), all.size());
            return "----- last "
                    + last.size()
                    + " lines of "
                    + file
                    + "\n"
                    + String.join("\n", last);
        } catch (IOException e) {
            return "[cannot read " + file + ": " + e + "]";
        }
    }

    private static Path launcherJar() {
        Path dir = E2eArtifacts.flinkParts().resolve("launcher");
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith("-launcher.jar"))
                    .findFirst()
                    .orElseThrow(
                            () ->
                                    new IllegalStateException(
                                            "No *-launcher.jar in " + dir + ": package e2e-tests"));
        } catch (IOException e) {
            throw new IllegalStateException("Cannot list " + dir + ": package e2e-tests", e);
        }
    }

    /** The exit code and output of a process that ran to its end. */
    public record Result(int exitCode, String output) {

        /** Whether the process exited with 0. */
        public boolean succeeded() {
            return exitCode == 0;
        }
    }

    /** Collects the command line of a {@link ChildJvm}. */
    public static final class Builder {
        private final String name;
        private final String mainClass;
        private final List<Path> classpath = new ArrayList<>();
        private final List<String> jvmArguments = new ArrayList<>();
        private final List<String> arguments = new ArrayList<>();
        private final Map<String, String> environment = new HashMap<>();
        private Path workingDirectory = Path.of(".");
        private Path outputFile;

        private Builder(String name, String mainClass) {
            this.name = name;
            this.mainClass = mainClass;
        }

        /** Adds class path entries (jars or directories), in order. */
        public Builder classpath(List<Path> entries) {
            classpath.addAll(entries);
            return this;
        }

        /** Adds JVM arguments (flags, {@code -D} system properties), in order. */
        public Builder jvmArguments(String... flags) {
            jvmArguments.addAll(Arrays.asList(flags));
            return this;
        }

        /** Adds JVM arguments (flags, {@code -D} system properties), in order. */
        public Builder jvmArguments(List<String> flags) {
            jvmArguments.addAll(flags);
            return this;
        }

        /** Adds program arguments, in order. */
        public Builder arguments(List<String> args) {
            arguments.addAll(args);
            return this;
        }

        /** Sets an environment variable of the child. */
        public Builder environment(String key, String value) {
            environment.put(key, value);
            return this;
        }

        /** Sets the working directory of the child. */
        public Builder workingDirectory(Path directory) {
            workingDirectory = directory;
            return this;
        }

        /** Sets the file that receives the child's standard output and error (appended). */
        public Builder outputFile(Path file) {
            outputFile = file;
            return this;
        }

        /** Builds the child; it is not started yet. */
        public ChildJvm build() {
            if (outputFile == null) {
                throw new IllegalStateException("outputFile is not set for " + name);
            }
            return new ChildJvm(this);
        }
    }
}
