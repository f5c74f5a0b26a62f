package dev.icebergflink.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.testing.SavepointFixtures.Fixture;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SavepointFixturesTest {

    /**
     * One name per JVM: builds of several Flink lines run this test at the same time on one
     * machine, and the lock file of a shared name would be the other build's now and then.
     */
    private static final String NAME =
            "savepoint-fixtures-selftest-" + ProcessHandle.current().pid();

    @TempDir Path target;

    @AfterAll
    static void removeThisJvmsFixture() throws IOException {
        SavepointFixtures.deleteRecursively(SavepointFixtures.ROOT.resolve(NAME));
        Files.deleteIfExists(SavepointFixtures.ROOT.resolve(NAME + ".lock"));
    }

    @Test
    void aFixtureIsWrittenAtItsFixedDirectoryAndExportedWithoutChecksumsWithItsProperties()
            throws IOException {
        Path exported;
        try (Fixture fixture = SavepointFixtures.forGeneration(NAME)) {
            assertThat(fixture.dir()).isEqualTo(SavepointFixtures.ROOT.resolve(NAME));
            assertThat(fixture.dir()).isEmptyDirectory();
            Files.createDirectories(fixture.resolve("savepoint/savepoint-1"));
            Files.writeString(fixture.resolve("savepoint/savepoint-1/_metadata"), "state");
            Files.createDirectories(fixture.resolve("tables/t/metadata"));
            Files.writeString(fixture.resolve("tables/t/metadata/v1.metadata.json"), "{}");
            Files.writeString(fixture.resolve("tables/t/metadata/.v1.metadata.json.crc"), "x");
            exported =
                    fixture.put("savepoint", "savepoint/savepoint-1")
                            .put("rows.total", 3)
                            .export(target);
        }

        assertThat(exported).isEqualTo(target.resolve(NAME));
        assertThat(exported.resolve("savepoint/savepoint-1/_metadata")).hasContent("state");
        assertThat(exported.resolve("tables/t/metadata/v1.metadata.json")).hasContent("{}");
        assertThat(exported.resolve("tables/t/metadata/.v1.metadata.json.crc")).doesNotExist();
        assertThat(Files.readString(exported.resolve(SavepointFixtures.PROPERTIES_FILE)))
                .contains("rows.total=3\nsavepoint=savepoint/savepoint-1\n");
    }

    @Test
    void anOpenFixtureHoldsTheFileLockNextToItsDirectory() throws IOException {
        Path lockFile = SavepointFixtures.ROOT.resolve(NAME + ".lock");
        try (Fixture fixture = SavepointFixtures.forGeneration(NAME);
                FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
            // the lock is this JVM's, so the JDK reports the overlap instead of blocking
            assertThatThrownBy(channel::tryLock).isInstanceOf(OverlappingFileLockException.class);
        }
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE);
                FileLock lock = channel.tryLock()) {
            assertThat(lock).as("released on close").isNotNull();
        }
    }

    @Test
    void aMissingPropertyIsNamed() {
        try (Fixture fixture = SavepointFixtures.forGeneration(NAME)) {
            assertThatThrownBy(() -> fixture.property("rows.total"))
                    .hasMessageContaining("has no property rows.total");
        }
    }
}
