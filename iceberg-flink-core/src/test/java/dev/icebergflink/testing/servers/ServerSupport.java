package dev.icebergflink.testing.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Small helpers the server fixtures share: waiting for a condition with a deadline, reading the
 * tail of a server log, and deleting a fixture's directory.
 */
final class ServerSupport {

    /** How often a readiness condition is polled. */
    private static final long POLL_MILLIS = 100;

    private ServerSupport() {}

    /**
     * Polls {@code condition} until it returns true, failing after {@code timeout} with a message
     * naming {@code what} and the text of {@code diagnostics} (e.g. a server log tail). An
     * exception from the condition counts as "not yet"; the last one is attached as the cause.
     */
    static void await(
            String what,
            Duration timeout,
            Callable<Boolean> condition,
            Supplier<String> diagnostics)
            throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (true) {
            try {
                if (Boolean.TRUE.equals(condition.call())) {
                    return;
                }
            } catch (Exception e) {
                last = e;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IOException(
                        "Timed out after "
                                + timeout.toSeconds()
                                + " s waiting for "
                                + what
                                + diagnostics.get(),
                        last);
            }
            try {
                TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("Interrupted while waiting for " + what, e);
            }
        }
    }

    /** The last {@code lines} lines of a log file as a block for an error message ("" if none). */
    static String tail(Path log, int lines) {
        if (log == null || !Files.isRegularFile(log)) {
            return "";
        }
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            List<String> last = all.subList(Math.max(0, all.size() - lines), all.size());
            return "\n--- last "
                    + last.size()
                    + " lines of "
                    + log
                    + " ---\n"
                    + String.join("\n", last)
                    + "\n--- end of "
                    + log.getFileName()
                    + " ---";
        } catch (IOException | UncheckedIOException e) {
            return "\n(cannot read " + log + ": " + e + ")";
        }
    }

    /** Deletes a directory tree; a no-op for null or a missing path. */
    static void deleteRecursively(Path root) throws IOException {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(path);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** Stops a child process: politely first, forcibly after {@code grace}. */
    static void stop(Process process, Duration grace) throws InterruptedException {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();
        if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}
