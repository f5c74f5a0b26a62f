package dev.icebergflink.bundle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The {@code META-INF/services} files of the connector's own modules, read from their sources in
 * the reactor, so the packaging test checks every factory and service we register, including the
 * ones added after the test was written.
 *
 * <p>Failsafe passes the reactor root as the system property {@code bundle.reactor.root}; outside
 * Maven the parent of the working directory is used.
 */
final class ReactorServiceFiles {

    private static final String SERVICES = "src/main/resources/META-INF/services";

    private ReactorServiceFiles() {}

    /** The connector modules that hold main code (every {@code iceberg-flink-*} but the bundle). */
    static List<Path> modules() {
        Path root = Paths.get(System.getProperty("bundle.reactor.root", "..")).normalize();
        try (Stream<Path> children = Files.list(root)) {
            List<Path> modules =
                    children.filter(Files::isDirectory)
                            .filter(
                                    dir -> {
                                        String name = dir.getFileName().toString();
                                        return name.startsWith("iceberg-flink-")
                                                && !name.equals("iceberg-flink-bundle")
                                                && Files.isRegularFile(dir.resolve("pom.xml"));
                                    })
                            .sorted()
                            .toList();
            if (modules.isEmpty()) {
                throw new IllegalStateException(
                        "Found no iceberg-flink-* modules under the reactor root " + root);
            }
            return modules;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * For each service interface any module registers, the implementations all modules list, sorted
     * by service name.
     */
    static Map<String, Set<String>> byService() {
        Map<String, Set<String>> services = new TreeMap<>();
        for (Path module : modules()) {
            Path dir = module.resolve(SERVICES);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                    String text = Files.readString(file, StandardCharsets.UTF_8);
                    services.computeIfAbsent(file.getFileName().toString(), k -> new TreeSet<>())
                            .addAll(BundleJar.serviceImplementations(text));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return services;
    }
}
