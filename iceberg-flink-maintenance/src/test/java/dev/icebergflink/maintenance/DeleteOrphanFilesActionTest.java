package dev.icebergflink.maintenance;

import static dev.icebergflink.maintenance.MaintenanceTables.asStrings;
import static dev.icebergflink.maintenance.MaintenanceTables.rows;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Orphan file detection on a Hadoop table whose every file is made "old" by the test. */
class DeleteOrphanFilesActionTest {

    @TempDir Path dir;

    @Test
    void dryRunListsExactlyTheOrphansAndARealRunDeletesOnlyThem() throws IOException {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        List<Record> written = MaintenanceTables.appendSmallFiles(table, 2, 3, 10, 23L);
        // A replaced file stays referenced by the older snapshots: it is not an orphan.
        org.apache.iceberg.DataFile replaced = MaintenanceTables.dataFiles(table).get(0);
        table.newDelete().deleteFile(replaced).commit();
        written =
                written.stream()
                        .filter(
                                r ->
                                        !MaintenanceTables.idsOf(table, replaced)
                                                .contains((Long) r.getField("id")))
                        .toList();
        Path root = dir.resolve("t");
        Path orphanData = Files.writeString(root.resolve("data/part=p0/orphan-1.parquet"), "x");
        Path orphanNested = Files.createDirectories(root.resolve("data/part=p9"));
        Path orphanInNew = Files.writeString(orphanNested.resolve("orphan-2.parquet"), "y");
        Path orphanMetadata = Files.writeString(root.resolve("metadata/stale-manifest.avro"), "z");
        Path hidden = Files.writeString(root.resolve("data/part=p0/.hidden.crc"), "h");

        // Everything so far is two hours old; a young orphan is written afterwards.
        FileTime old =
                FileTime.fromMillis(System.currentTimeMillis() - Duration.ofHours(2).toMillis());
        for (Path file : files(root)) {
            Files.setLastModifiedTime(file, old);
        }
        Path young = Files.writeString(root.resolve("data/part=p1/in-flight.parquet"), "w");
        long threshold = System.currentTimeMillis() - Duration.ofHours(1).toMillis();
        Set<Path> before = files(root);

        DeleteOrphanFilesActionResult dryRun =
                Actions.forTable(table)
                        .deleteOrphanFiles()
                        .olderThan(threshold)
                        .dryRun(true)
                        .execute();

        List<Path> expectedOrphans =
                new ArrayList<>(List.of(orphanData, orphanInNew, orphanMetadata));
        expectedOrphans.sort(null);
        assertThat(paths(dryRun.orphanFileLocations())).isEqualTo(expectedOrphans);
        assertThat(dryRun.dryRun()).isTrue();
        assertThat(dryRun.deletedFilesCount()).isZero();
        assertThat(files(root)).isEqualTo(before);

        DeleteOrphanFilesActionResult real =
                Actions.forTable(table).deleteOrphanFiles().olderThan(threshold).execute();

        assertThat(paths(real.orphanFileLocations())).isEqualTo(expectedOrphans);
        assertThat(real.deletedFilesCount()).isEqualTo(3);
        Set<Path> expectedAfter = new java.util.HashSet<>(before);
        expectedOrphans.forEach(expectedAfter::remove);
        assertThat(files(root)).isEqualTo(expectedAfter);
        assertThat(young).exists();
        assertThat(hidden).exists();
        assertThat(rows(table)).isEqualTo(asStrings(written));

        // Nothing is left to find.
        assertThat(
                        Actions.forTable(table)
                                .deleteOrphanFiles()
                                .olderThan(threshold)
                                .dryRun(true)
                                .execute()
                                .orphanFileLocations())
                .isEmpty();
    }

    @Test
    void theDefaultThresholdIsThreeDays() throws IOException {
        Table table = MaintenanceTables.create(dir, "t", 2, FileFormat.PARQUET);
        MaintenanceTables.appendSmallFiles(table, 1, 1, 5, 29L);
        Path root = dir.resolve("t");
        Path recent = Files.writeString(root.resolve("data/recent.parquet"), "r");
        Files.setLastModifiedTime(
                recent,
                FileTime.fromMillis(System.currentTimeMillis() - Duration.ofDays(2).toMillis()));
        Path ancient = Files.writeString(root.resolve("data/ancient.parquet"), "a");
        Files.setLastModifiedTime(
                ancient,
                FileTime.fromMillis(System.currentTimeMillis() - Duration.ofDays(4).toMillis()));

        DeleteOrphanFilesActionResult result =
                Actions.forTable(table).deleteOrphanFiles().dryRun(true).execute();

        assertThat(paths(result.orphanFileLocations())).containsExactly(ancient);
    }

    private static List<Path> paths(List<String> locations) {
        return locations.stream()
                .map(location -> Path.of(java.net.URI.create(location)))
                .sorted()
                .toList();
    }

    private static Set<Path> files(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile).collect(Collectors.toSet());
        }
    }
}
