package dev.icebergflink.table.storage;

import dev.icebergflink.testing.servers.S3ProxyServerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A warehouse in a bucket of an {@link S3ProxyServerExtension}, used through Iceberg's S3FileIO and
 * listed as the plain files under the s3proxy basedir.
 */
final class S3Warehouse implements WarehouseStorage {

    static final String BUCKET = "warehouse-bucket";

    private final S3ProxyServerExtension s3;

    S3Warehouse(S3ProxyServerExtension s3) {
        this.s3 = s3;
    }

    /** Creates the bucket (once per server) and returns the catalog options for it. */
    static Map<String, String> prepare(S3ProxyServerExtension s3) {
        if (!Files.isDirectory(s3.basedir().resolve(BUCKET))) {
            s3.createBucket(BUCKET);
        }
        return s3.icebergProperties(BUCKET);
    }

    @Override
    public String warehouse() {
        return "s3://" + BUCKET + "/warehouse";
    }

    @Override
    public Map<String, String> catalogOptions() {
        Map<String, String> options = prepare(s3);
        options.remove("warehouse");
        return options;
    }

    @Override
    public String scheme() {
        return "s3";
    }

    @Override
    public List<String> files(String location) throws IOException {
        String prefix = "s3://";
        if (!location.startsWith(prefix)) {
            throw new IllegalArgumentException("Not an s3:// location: " + location);
        }
        Path root = s3.basedir();
        Path dir = root.resolve(location.substring(prefix.length()));
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            return paths.filter(Files::isRegularFile)
                    .map(path -> prefix + root.relativize(path).toString().replace('\\', '/'))
                    .collect(Collectors.toList());
        }
    }
}
