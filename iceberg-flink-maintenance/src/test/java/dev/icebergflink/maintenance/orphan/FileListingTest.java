package dev.icebergflink.maintenance.orphan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.ResolvingFileIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mappers' listing: by prefix through a FileIO that lists by prefix (Iceberg's resolving
 * FileIO), or walking directories with the Hadoop FileSystem; both see the same files, and a
 * directory that is not there has none.
 */
class FileListingTest {

    @TempDir Path dir;

    @Test
    void prefixListingAndHadoopWalkSeeTheSameFiles() throws IOException {
        Path top = dir.resolve("t");
        write(top.resolve("a.bin"));
        write(top.resolve("p=1/b.bin"));
        write(top.resolve("p=1/q=2/c.bin"));
        write(dir.resolve("t-sibling/not-below.bin"));
        String location = top.toUri().toString();

        Map<String, Long> byPrefix = list(resolvingIo(), location, true, true);
        Map<String, Long> byWalk =
                list(new HadoopFileIO(new Configuration()), location, true, true);
        Map<String, Long> withoutPrefixes = list(resolvingIo(), location, true, false);

        assertThat(byPrefix.keySet())
                .extracting(l -> l.substring(l.indexOf("/t/") + 3))
                .containsExactlyInAnyOrder("a.bin", "p=1/b.bin", "p=1/q=2/c.bin");
        assertThat(keys(byPrefix)).isEqualTo(keys(byWalk)).isEqualTo(keys(withoutPrefixes));
        assertThat(byPrefix.values()).allSatisfy(modified -> assertThat(modified).isPositive());

        assertThat(list(resolvingIo(), location, false, true).keySet())
                .singleElement()
                .satisfies(l -> assertThat(l).endsWith("/t/a.bin"));
    }

    @Test
    void aMissingDirectoryHasNoFiles() throws IOException {
        String missing = dir.resolve("nothing-here").toUri().toString();

        assertThat(list(resolvingIo(), missing, true, true)).isEmpty();
        assertThat(list(resolvingIo(), missing, true, false)).isEmpty();
        assertThat(list(resolvingIo(), missing, false, false)).isEmpty();
    }

    private static Map<String, Long> list(
            FileIO io, String directory, boolean deep, boolean prefixListing) throws IOException {
        Map<String, Long> files = new HashMap<>();
        new FileListing(io)
                .list(
                        new OrphanItem.Listing(directory, directory, deep, 0L, prefixListing),
                        files::put);
        return files;
    }

    private static java.util.Set<String> keys(Map<String, Long> files) {
        java.util.Set<String> keys = new java.util.HashSet<>();
        files.keySet()
                .forEach(l -> keys.add(dev.icebergflink.maintenance.cleanup.FileLocations.key(l)));
        return keys;
    }

    private static FileIO resolvingIo() {
        ResolvingFileIO io = new ResolvingFileIO();
        io.setConf(new Configuration());
        io.initialize(Map.of());
        return io;
    }

    private static void write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, file.getFileName().toString());
    }
}
