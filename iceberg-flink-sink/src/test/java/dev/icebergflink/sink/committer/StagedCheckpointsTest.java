package dev.icebergflink.sink.committer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.icebergflink.sink.StagedWrites;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The record {@link CommitMode#STAGE} keeps of its checkpoints, and {@link StagedWrites} reading it
 * back: committed in one snapshot, or discarded with every file.
 */
class StagedCheckpointsTest {

    private static final CommitOwner OWNER =
            new CommitOwner(
                    "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1",
                    "0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f",
                    "5c5c5c5c-0000-4000-8000-5c5c5c5c5c5c");

    @TempDir Path dir;

    private Table table;
    private String staging;

    @BeforeEach
    void createTable() {
        table = SinkTestTables.create(dir, SinkTestTables.BY_DATA, 2);
        staging = dir.resolve("staging").toUri().toString();
    }

    private IcebergCommittable checkpoint(long id, boolean endOfInput, DataFile... files) {
        List<org.apache.iceberg.ManifestFile> manifests =
                new TemporaryManifests()
                        .writeDataManifests(table, "flink-test-" + id, List.of(files));
        return new IcebergCommittable(
                OWNER, id, endOfInput, manifests, List.of(), List.of(), List.of());
    }

    @Test
    void recordsEachCheckpointOnceAndReadsThemInOrder() {
        IcebergCommittable second =
                checkpoint(2, true, SinkTestTables.dataFile(table, "b", "b", 3));
        IcebergCommittable first =
                checkpoint(1, false, SinkTestTables.dataFile(table, "a", "a", 2));
        StagedCheckpoints.record(table.io(), staging, second);
        StagedCheckpoints.record(table.io(), staging, first);
        StagedCheckpoints.record(table.io(), staging, first); // a retry
        StagedCheckpoints.record(
                table.io(),
                staging,
                new IcebergCommittable(
                        OWNER, 3, false, List.of(), List.of(), List.of(), List.of()));

        assertThat(StagedCheckpoints.read(table.io(), staging)).containsExactly(first, second);
        assertThat(StagedCheckpoints.read(table.io(), staging + "-elsewhere")).isEmpty();
    }

    @Test
    void stagedWritesCommitEveryCheckpointInOneSnapshotAndCleanUp() throws IOException {
        StagedCheckpoints.record(
                table.io(),
                staging,
                checkpoint(1, false, SinkTestTables.dataFile(table, "a", "a", 2)));
        StagedCheckpoints.record(
                table.io(),
                staging,
                checkpoint(2, true, SinkTestTables.dataFile(table, "b", "b", 3)));

        StagedWrites writes = StagedWrites.read(table.io(), staging);
        assertThat(writes.checkpoints()).isEqualTo(2);
        Transaction transaction = table.newTransaction();
        assertThat(writes.appendTo(transaction, Map.of("flink.staging-id", "s1"))).isEqualTo(2);
        transaction.commitTransaction();
        writes.cleanUp();

        table.refresh();
        assertThat(table.snapshots()).hasSize(1);
        assertThat(table.currentSnapshot().summary()).containsEntry("flink.staging-id", "s1");
        assertThat(SinkTestTables.liveDataFiles(table, "main")).containsExactlyInAnyOrder("a", "b");
        assertThat(Files.exists(Paths.get(java.net.URI.create(staging)))).isFalse();
    }

    @Test
    void discardDeletesTheDataFilesTheManifestsAndTheRecord() throws IOException {
        Path dataFile = Paths.get(java.net.URI.create(table.location() + "/data/a.parquet"));
        Files.createDirectories(dataFile.getParent());
        Files.write(dataFile, new byte[] {1, 2, 3});
        IcebergCommittable checkpoint =
                checkpoint(1, true, SinkTestTables.dataFile(table, "a", "a", 2));
        StagedCheckpoints.record(table.io(), staging, checkpoint);

        StagedWrites.read(table.io(), staging).discard();

        assertThat(dataFile).doesNotExist();
        for (org.apache.iceberg.ManifestFile manifest : checkpoint.allManifests()) {
            assertThat(table.io().newInputFile(manifest.path()).exists()).isFalse();
        }
        Path stagingDir = Paths.get(java.net.URI.create(staging));
        if (Files.exists(stagingDir)) {
            try (Stream<Path> left = Files.walk(stagingDir)) {
                assertThat(left.filter(Files::isRegularFile)).isEmpty();
            }
        }
        assertThat(table.snapshots()).isEmpty();
    }
}
