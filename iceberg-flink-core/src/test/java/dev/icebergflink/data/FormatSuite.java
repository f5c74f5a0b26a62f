package dev.icebergflink.data;

import java.nio.file.Path;
import org.apache.iceberg.FileFormat;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The base of the format-parameterized suites: a subclass names its file format, and the suite
 * writes and reads files of that format through {@link FormatTestFiles}.
 */
public abstract class FormatSuite {

    @TempDir protected Path dir;

    protected FormatTestFiles files;

    /** The file format under test. */
    protected abstract FileFormat format();

    @BeforeEach
    void createFiles() {
        files = FormatTestFiles.of(format());
    }
}
