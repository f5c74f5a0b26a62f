package dev.icebergflink;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.jdbc.JdbcCatalog;

/**
 * A {@link JdbcCatalog} that counts, per catalog name, how many instances were initialized and
 * closed, so tests can see what a {@link TableLoader} opens and closes. Loaded by class name
 * through {@link CatalogLoader#custom}.
 */
public class TestingTrackingCatalog extends JdbcCatalog {

    private static final Map<String, AtomicInteger> INITIALIZED = new ConcurrentHashMap<>();
    private static final Map<String, AtomicInteger> CLOSED = new ConcurrentHashMap<>();

    private String trackedName;

    @Override
    public void initialize(String name, Map<String, String> properties) {
        super.initialize(name, properties);
        trackedName = name;
        INITIALIZED.computeIfAbsent(name, ignored -> new AtomicInteger()).incrementAndGet();
    }

    @Override
    public void close() {
        super.close();
        CLOSED.computeIfAbsent(trackedName, ignored -> new AtomicInteger()).incrementAndGet();
    }

    static int initialized(String name) {
        return INITIALIZED.getOrDefault(name, new AtomicInteger()).get();
    }

    static int closed(String name) {
        return CLOSED.getOrDefault(name, new AtomicInteger()).get();
    }
}
