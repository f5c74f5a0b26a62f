package org.apache.flink.python.util;

import org.apache.commons.cli.CommandLine;
import org.apache.flink.configuration.Configuration;

/**
 * A stand-in for flink-python's class of this name, for the end-to-end tests' SQL client only.
 *
 * <p>Why it exists: Flink's SQL client parses its command line through this class reflectively and
 * fails at start without it, and {@code flink-python} is not published at every patch version we
 * test (and weighs over 40 MB). A real distribution ships {@code flink-python} in {@code opt/}. Our tests use no
 * Python, so the stand-in reports no Python dependencies.
 */
public final class PythonDependencyUtils {

    private PythonDependencyUtils() {}

    /** Returns an empty configuration: no Python files, archives or requirements. */
    public static Configuration parsePythonDependencyConfiguration(CommandLine commandLine) {
        return new Configuration();
    }
}
