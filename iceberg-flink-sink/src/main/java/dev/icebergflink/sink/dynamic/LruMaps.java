package dev.icebergflink.sink.dynamic;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/** Maps that forget their least recently used entry beyond a maximum size (the sink's caches). */
@Internal
final class LruMaps {

    private LruMaps() {}

    /** An empty map of at most {@code maxSize} entries, in access order. */
    static <K, V> LinkedHashMap<K, V> bounded(int maxSize) {
        return new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > maxSize;
            }
        };
    }
}
