package dev.icebergflink.sink;

import static dev.icebergflink.sink.SinkTestTables.TYPE_INFO;
import static dev.icebergflink.sink.SinkTestTables.row;
import static dev.icebergflink.sink.SinkTestTables.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.TableLoader;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.util.TestStreamEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.PartitionSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Without {@code upsert-spill-directory}, a batch upsert spills its keys into the TaskManager's
 * temporary directories (Flink's {@code io.tmp.dirs}), not into the JVM's {@code java.io.tmpdir}:
 * the MiniCluster's TaskManager gets a directory of its own, which is watched while the job runs
 * (spill files live only while the writer resolves its keys, so their creation is what shows).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class UpsertSpillDirectoryITCase {

    @TempDir Path warehouse;
    @TempDir Path tmTmp;

    @Test
    void keysSpillIntoTheTaskManagersTemporaryDirectory() throws Exception {
        // a MiniCluster of our own: MiniClusterExtension would set io.tmp.dirs itself
        Configuration clusterConf = new Configuration().set(CoreOptions.TMP_DIRS, tmTmp.toString());
        try (MiniCluster cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(clusterConf)
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(2)
                                .withRandomPorts()
                                .build())) {
            cluster.start();
            TestStreamEnvironment.setAsContext(cluster, 1);
            try {
                runSpillingUpsert();
            } finally {
                TestStreamEnvironment.unsetAsContext();
            }
        }
    }

    private void runSpillingUpsert() throws Exception {
        TableLoader loader = new SinkTestTables(warehouse).create(PartitionSpec.unpartitioned(), 2);
        List<RowData> changes = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int version = 0; version < 10; version++) {
            for (long id = 0; id < 300; id++) {
                changes.add(row(RowKind.INSERT, id, "v" + version, "p"));
            }
        }
        for (long id = 0; id < 300; id++) {
            expected.add(id + ":v9:p");
        }
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        conf.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.fromData(changes, TYPE_INFO)
                .sinkTo(
                        IcebergSink.forRowData()
                                .tableLoader(loader)
                                .upsert(true)
                                .equalityFieldColumns(List.of("id"))
                                .set("upsert-key-memory", "1kb")
                                .build());

        Set<String> created = new TreeSet<>();
        try (WatchService watch = FileSystems.getDefault().newWatchService()) {
            tmTmp.register(watch, StandardWatchEventKinds.ENTRY_CREATE);
            env.execute();
            // the events arrive asynchronously: collect them until a spill file shows, or 10 s
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (created.stream().noneMatch(UpsertSpillDirectoryITCase::isSpillFile)
                    && System.nanoTime() < deadline) {
                WatchKey key = watch.poll(100, TimeUnit.MILLISECONDS);
                if (key != null) {
                    for (WatchEvent<?> event : key.pollEvents()) {
                        if (event.context() instanceof Path name) {
                            created.add(name.toString());
                        }
                    }
                    key.reset();
                }
            }
        }

        assertThat(rows(loader)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(created)
                .as("files created in the TaskManager's io.tmp.dirs while the job ran")
                .anyMatch(UpsertSpillDirectoryITCase::isSpillFile);
        // and the spill files are gone
        try (Stream<Path> files = Files.list(tmTmp)) {
            assertThat(files.map(path -> path.getFileName().toString()))
                    .noneMatch(UpsertSpillDirectoryITCase::isSpillFile);
        }
    }

    private static boolean isSpillFile(String name) {
        return name.startsWith("iceberg-upsert-keys-");
    }
}
