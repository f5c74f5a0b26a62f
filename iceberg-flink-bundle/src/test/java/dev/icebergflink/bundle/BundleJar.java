package dev.icebergflink.bundle;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The shaded jar that {@code package} built, as the packaging tests see it: its entries and the
 * text of its resources.
 *
 * <p>Failsafe passes the jar's path as the system property {@code bundle.jar}; when the test runs
 * outside Maven it looks for {@code target/iceberg-flink-bundle-*.jar} instead.
 */
final class BundleJar {

    private static final String PROPERTY = "bundle.jar";

    private BundleJar() {}

    /** The path of the bundle jar; fails with a hint when it was not built. */
    static Path path() {
        String configured = System.getProperty(PROPERTY);
        if (configured != null) {
            Path path = Paths.get(configured);
            if (!Files.isRegularFile(path)) {
                throw new IllegalStateException(
                        "The bundle jar " + path + " does not exist: run 'package' first");
            }
            return path;
        }
        try (Stream<Path> files = Files.list(Paths.get("target"))) {
            return files.filter(
                            p -> {
                                String name = p.getFileName().toString();
                                return name.startsWith("iceberg-flink-bundle-")
                                        && name.endsWith(".jar");
                            })
                    .findFirst()
                    .orElseThrow(
                            () ->
                                    new IllegalStateException(
                                            "No target/iceberg-flink-bundle-*.jar: run 'package'"
                                                    + " first or set -D"
                                                    + PROPERTY));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bundle jar as a class path URL. */
    static URL url() {
        try {
            return path().toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every entry name of the jar (directories end with {@code /}), in jar order. */
    static List<String> entries() {
        try (ZipFile zip = new ZipFile(path().toFile())) {
            List<String> names = new ArrayList<>();
            for (ZipEntry entry : Collections.list(zip.entries())) {
                names.add(entry.getName());
            }
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The class entries ({@code .class} files) of the jar. */
    static List<String> classEntries() {
        return entries().stream().filter(name -> name.endsWith(".class")).toList();
    }

    /** The UTF-8 text of a resource of the jar, or {@code null} when it has none of that name. */
    static String read(String entryName) {
        try (ZipFile zip = new ZipFile(path().toFile())) {
            ZipEntry entry = zip.getEntry(entryName);
            if (entry == null) {
                return null;
            }
            try (InputStream in = zip.getInputStream(entry)) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The implementation classes a {@code META-INF/services} file lists, without comments and blank
     * lines, in file order.
     */
    static Set<String> serviceImplementations(String serviceFileText) {
        Set<String> classes = new LinkedHashSet<>();
        for (String line : serviceFileText.split("\n")) {
            int comment = line.indexOf('#');
            String name = (comment >= 0 ? line.substring(0, comment) : line).trim();
            if (!name.isEmpty()) {
                classes.add(name);
            }
        }
        return classes;
    }

    /** The jar entry of a class: {@code a.b.C$D} becomes {@code a/b/C$D.class}. */
    static String classEntry(String className) {
        return className.replace('.', '/') + ".class";
    }
}
