package dev.icebergflink.sink.dynamic;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** A Hadoop catalog over a fresh local warehouse for each test, closed and deleted after it. */
final class HadoopWarehouse implements BeforeEachCallback, AfterEachCallback {

    private Path directory;
    private HadoopCatalog catalog;

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        directory = Files.createTempDirectory("dynamic-sink-warehouse");
        catalog = new HadoopCatalog(new Configuration(), directory.toUri().toString());
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        catalog.close();
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    HadoopCatalog catalog() {
        return catalog;
    }
}
