package dev.icebergflink.sink.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.state.StateBackend;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;

/**
 * State backends for operator tests.
 *
 * <p>It exists because the RocksDB state backend moved: Flink 2.x has it in {@code
 * org.apache.flink.state.rocksdb}, Flink 1.20 in {@code org.apache.flink.contrib.streaming.state}.
 */
@Internal
public final class TestingStateBackends {

    private TestingStateBackends() {}

    /** An embedded RocksDB state backend. */
    public static StateBackend rocksDb() {
        return new EmbeddedRocksDBStateBackend();
    }
}
