package dev.icebergflink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Golden serialized bytes under {@code src/test/resources/golden/<name>-v<version>.bin}.
 *
 * <p>A golden file is written once: run the test with {@code -Dgolden.regenerate=true} (from the
 * module directory) only when a NEW serializer version is introduced; older files stay as they are
 * so every released version stays readable. Without the property the bytes are compared.
 */
public final class GoldenFiles {

    public static final String REGENERATE_PROPERTY = "golden.regenerate";

    private GoldenFiles() {}

    public static Path path(String name, int version) {
        return Paths.get("src", "test", "resources", "golden", name + "-v" + version + ".bin");
    }

    /** Asserts that {@code actual} equals the golden bytes (writing them when regenerating). */
    public static byte[] assertGolden(String name, int version, byte[] actual) throws IOException {
        Path path = path(name, version);
        if (Boolean.getBoolean(REGENERATE_PROPERTY)) {
            Files.createDirectories(path.getParent());
            Files.write(path, actual);
        }
        assertThat(path)
                .as("golden file %s (regenerate with -D%s=true)", path, REGENERATE_PROPERTY)
                .exists();
        byte[] golden = Files.readAllBytes(path);
        assertThat(actual)
                .as(
                        "serialized form of %s changed without a new version; add a version and"
                                + " keep reading %s",
                        name, path)
                .isEqualTo(golden);
        return golden;
    }
}
