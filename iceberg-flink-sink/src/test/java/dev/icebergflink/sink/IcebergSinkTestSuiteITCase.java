package dev.icebergflink.sink;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.flink.connector.testframe.environment.MiniClusterTestEnvironment;
import org.apache.flink.connector.testframe.external.ExternalContextFactory;
import org.apache.flink.connector.testframe.junit.annotations.TestContext;
import org.apache.flink.connector.testframe.junit.annotations.TestEnv;
import org.apache.flink.connector.testframe.junit.annotations.TestSemantics;
import org.apache.flink.connector.testframe.testsuites.SinkTestSuiteBase;
import org.apache.flink.core.execution.CheckpointingMode;
import org.junit.jupiter.api.AfterAll;

/**
 * Flink's own sink test suite (basic write, restart from savepoint, scale up and down, metrics)
 * against the Iceberg sink, on a file-system warehouse, exactly-once only.
 */
class IcebergSinkTestSuiteITCase extends SinkTestSuiteBase<String> {

    private static final Path WAREHOUSE = createWarehouse();

    @TestEnv MiniClusterTestEnvironment flink = new MiniClusterTestEnvironment();

    @TestContext
    ExternalContextFactory<IcebergSinkExternalContext> contexts =
            testName -> new IcebergSinkExternalContext(WAREHOUSE);

    @TestSemantics CheckpointingMode[] semantics = {CheckpointingMode.EXACTLY_ONCE};

    @AfterAll
    static void deleteWarehouse() throws IOException {
        try (Stream<Path> paths = Files.walk(WAREHOUSE)) {
            paths.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        }
    }

    private static Path createWarehouse() {
        try {
            Path dir = Files.createTempDirectory("iceberg-sink-suite");
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
