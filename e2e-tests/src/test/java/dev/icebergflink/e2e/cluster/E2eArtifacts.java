package dev.icebergflink.e2e.cluster;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the artifacts under test are: the shaded bundle, the examples jar and the Flink
 * distribution parts, as files of the same reactor build (the module's pom passes them to failsafe
 * as system properties).
 *
 * <p>Why it exists: the end-to-end tests must run what users deploy, never classes from the test
 * classpath; one place turns a missing file into an error that says how to build it.
 */
public final class E2eArtifacts {

    private E2eArtifacts() {}

    /** The shaded {@code iceberg-flink-bundle} jar. */
    public static Path bundleJar() {
        return existing("e2e.bundle.jar");
    }

    /** The plain {@code examples} jar (not shaded: the connector comes from the bundle). */
    public static Path examplesJar() {
        return existing("e2e.examples.jar");
    }

    /**
     * The Flink distribution parts: {@code lib/}, {@code hadoop/}, {@code opt/}, {@code launcher/}.
     */
    public static Path flinkParts() {
        return existing("e2e.flink.dir");
    }

    /** The repository's {@code docs/} directory. */
    public static Path docsDirectory() {
        return existing("e2e.docs.dir");
    }

    /** The JVM flags Flink needs on Java 17 (the root pom's {@code flink.jvm.flags}). */
    public static String flinkJvmFlags() {
        String flags = System.getProperty("e2e.jvm.flags");
        if (flags == null || flags.isBlank()) {
            throw new IllegalStateException(
                    "System property e2e.jvm.flags is not set: run the e2e tests through Maven"
                            + " failsafe (./mvnw verify -pl ...,e2e-tests)");
        }
        return flags;
    }

    private static Path existing(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank() || value.startsWith("${")) {
            throw new IllegalStateException(
                    "System property "
                            + property
                            + " is not set (was '"
                            + value
                            + "'): run the e2e tests through Maven failsafe in a reactor build"
                            + " that packages the bundle and examples, e.g. ./mvnw verify");
        }
        Path path = Path.of(value);
        if (!Files.exists(path)) {
            throw new IllegalStateException(
                    property + " points to " + path + ", which does not exist: package it first");
        }
        return path;
    }
}
