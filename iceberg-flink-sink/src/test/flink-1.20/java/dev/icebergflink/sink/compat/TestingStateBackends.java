package dev.icebergflink.sink.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.contrib.streaming.state.EmbeddedRocksDBStateBackend;
import org.apache.flink.runtime.state.StateBackend;

/**
 * State backends for operator tests.
 *
 * <p>It exists because the RocksDB state backend moved: Flink 1.20 has it in {@code
 * org.apache.flink.contrib.streaming.state}, Flink 2.x in {@code org.apache.flink.state.rocksdb}.
 */
@Internal
public final class TestingStateBackends {

    private TestingStateBackends() {}

    /** An embedded RocksDB state backend. */
    public static StateBackend rocksDb() {
        return new EmbeddedRocksDBStateBackend();
    }
}
