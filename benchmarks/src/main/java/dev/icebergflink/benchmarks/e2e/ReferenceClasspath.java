package dev.icebergflink.benchmarks.e2e;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Where the class path of the reference child JVMs (Apache Iceberg's own Flink connector and the
 * Flink it is built for, plus our small launcher) comes from: the {@code benchmarks-reference}
 * module's build output, {@code target/reference-classpath.txt} (its runtime dependencies, written
 * by the maven-dependency-plugin) and {@code target/classes}. The suite's JVM gets that directory
 * from the system property {@value #DIRECTORY_PROPERTY} (the benchmarks pom sets it for the suite
 * and the tests); without it, {@code ../benchmarks-reference/target} and {@code
 * benchmarks-reference/target} relative to the working directory are tried. The reference never
 * shares a class path with our connector.
 */
final class ReferenceClasspath {

    /** The system property naming the {@code benchmarks-reference/target} directory. */
    static final String DIRECTORY_PROPERTY = "bench.reference.dir";

    /** The launcher's main class. */
    static final String MAIN = "dev.icebergflink.benchmarks.e2e.ReferenceMain";

    /**
     * The main class of the reference's side of the planning comparison ({@link
     * PlanningComparison}).
     */
    static final String PLANNING_MAIN =
            "dev.icebergflink.benchmarks.planning.ReferencePlanningMain";

    static final String CLASSPATH_FILE = "reference-classpath.txt";

    private ReferenceClasspath() {}

    /**
     * The reference child's class path.
     *
     * @throws IllegalStateException naming what is missing and the command that builds it
     */
    static String resolve() {
        return resolve(directory());
    }

    /** The reference child's class path from a {@code benchmarks-reference/target} directory. */
    static String resolve(Path directory) {
        Path file = directory.resolve(CLASSPATH_FILE);
        Path classes = directory.resolve("classes");
        if (!Files.isRegularFile(file)
                || !Files.isRegularFile(classes.resolve(MAIN.replace('.', '/') + ".class"))) {
            throw new IllegalStateException(
                    "The runs through Iceberg's connector need the benchmarks-reference module"
                            + " built: "
                            + file
                            + " or the launcher in "
                            + classes
                            + " is missing. Build it with ./mvnw -pl benchmarks -am -DskipTests"
                            + " package (the benchmarks profile does), set -D"
                            + DIRECTORY_PROPERTY
                            + "=<benchmarks-reference/target>, or run the suite with --references"
                            + " none");
        }
        try {
            String dependencies = Files.readString(file, StandardCharsets.UTF_8).trim();
            return classes + (dependencies.isEmpty() ? "" : File.pathSeparator + dependencies);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path directory() {
        String configured = System.getProperty(DIRECTORY_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return Paths.get(configured).toAbsolutePath().normalize();
        }
        for (String candidate :
                new String[] {"../benchmarks-reference/target", "benchmarks-reference/target"}) {
            Path path = Paths.get(candidate).toAbsolutePath().normalize();
            if (Files.isDirectory(path)) {
                return path;
            }
        }
        return Paths.get("../benchmarks-reference/target").toAbsolutePath().normalize();
    }
}
