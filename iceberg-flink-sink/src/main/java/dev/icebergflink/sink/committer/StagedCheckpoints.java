package dev.icebergflink.sink.committer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;

/**
 * The record that {@link CommitMode#STAGE} keeps of the checkpoints it did not commit: one file per
 * checkpoint holding its {@link IcebergCommittable} (its temporary manifests, in the versioned form
 * of {@link IcebergCommittableSerializer} inside Flink's version envelope), and an index file
 * {@value #INDEX} naming them, one name a line.
 *
 * <p>It exists so that whoever commits later (on Flink's JobManager, after the job finished) finds
 * exactly the files the job's checkpoints produced without listing a directory, which not every
 * {@link FileIO} can. Only the committer subtask that receives the committables (the aggregation
 * sends them all to one) writes here, so the index is rewritten whole after each checkpoint; a
 * checkpoint recorded twice (a retry, a failover) keeps one entry.
 */
@Internal
public final class StagedCheckpoints {

    /** The name of the index file in the staging location. */
    static final String INDEX = "checkpoints.txt";

    private static final Comparator<IcebergCommittable> ORDER =
            Comparator.comparingLong(IcebergCommittable::checkpointId)
                    .thenComparing(IcebergCommittable::endOfInput);

    private StagedCheckpoints() {}

    /**
     * Records {@code committable} under {@code location}; a committable without files is skipped.
     */
    public static void record(FileIO io, String location, IcebergCommittable committable) {
        if (committable.isEmpty()) {
            return;
        }
        String name =
                String.format(
                        Locale.ROOT,
                        "checkpoint-%020d%s.committable",
                        committable.checkpointId(),
                        committable.endOfInput() ? "-end" : "");
        byte[] bytes;
        try {
            bytes =
                    SimpleVersionedSerialization.writeVersionAndSerialize(
                            new IcebergCommittableSerializer(), committable);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot serialize " + committable, e);
        }
        write(io, path(location, name), bytes);
        Set<String> names = new LinkedHashSet<>(names(io, location));
        if (names.add(name)) {
            write(
                    io,
                    path(location, INDEX),
                    (String.join("\n", names) + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The committables recorded under {@code location}, in checkpoint order; empty for none. */
    public static List<IcebergCommittable> read(FileIO io, String location) {
        List<IcebergCommittable> committables = new ArrayList<>();
        for (String name : names(io, location)) {
            byte[] bytes = readAll(io.newInputFile(path(location, name)));
            try {
                committables.add(
                        SimpleVersionedSerialization.readVersionAndDeSerialize(
                                new IcebergCommittableSerializer(), bytes));
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "Cannot read the staged checkpoint " + path(location, name), e);
            }
        }
        committables.sort(ORDER);
        return committables;
    }

    /**
     * Deletes the record files under {@code location} (not the manifests they name); returns the
     * paths that could not be deleted.
     */
    public static List<String> deleteRecords(FileIO io, String location) {
        List<String> paths = new ArrayList<>();
        for (String name : names(io, location)) {
            paths.add(path(location, name));
        }
        paths.add(path(location, INDEX));
        List<String> failed = new ArrayList<>();
        for (String path : paths) {
            try {
                io.deleteFile(path);
            } catch (RuntimeException e) {
                failed.add(path);
            }
        }
        return failed;
    }

    /** Deletes manifests (ignoring ones already gone); returns the paths that failed. */
    public static List<String> deleteManifests(FileIO io, IcebergCommittable committable) {
        return TemporaryManifests.delete(io, committable.allManifests());
    }

    /** The data files of the committable's data manifests, read with {@code table}'s specs. */
    public static List<DataFile> dataFiles(Table table, IcebergCommittable committable) {
        List<DataFile> files = new ArrayList<>();
        for (ManifestFile manifest : committable.dataManifests()) {
            files.addAll(TemporaryManifests.readDataFiles(table, manifest));
        }
        return files;
    }

    /** The delete files of the committable's delete manifests, read with {@code table}'s specs. */
    public static List<DeleteFile> deleteFiles(Table table, IcebergCommittable committable) {
        List<DeleteFile> files = new ArrayList<>();
        for (ManifestFile manifest : committable.deleteManifests()) {
            files.addAll(TemporaryManifests.readDeleteFiles(table, manifest));
        }
        return files;
    }

    /**
     * The paths of the data and delete files the committable adds (read without the table, whose
     * specs the manifests carry themselves).
     */
    public static List<String> contentFilePaths(FileIO io, IcebergCommittable committable) {
        List<String> paths = new ArrayList<>();
        try {
            for (ManifestFile manifest : committable.dataManifests()) {
                try (CloseableIterable<String> files =
                        ManifestFiles.readPaths(manifest, io, null)) {
                    files.forEach(paths::add);
                }
            }
            for (ManifestFile manifest : committable.deleteManifests()) {
                try (ManifestReader<DeleteFile> reader =
                        ManifestFiles.readDeleteManifest(manifest, io, null)) {
                    for (DeleteFile file : reader) {
                        paths.add(file.location());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the manifests of " + committable, e);
        }
        return paths;
    }

    private static List<String> names(FileIO io, String location) {
        InputFile index = io.newInputFile(path(location, INDEX));
        if (!index.exists()) {
            return List.of();
        }
        String text = new String(readAll(index), StandardCharsets.UTF_8);
        List<String> names = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                names.add(line.strip());
            }
        }
        return names;
    }

    private static String path(String location, String name) {
        return location.endsWith("/") ? location + name : location + "/" + name;
    }

    private static void write(FileIO io, String path, byte[] bytes) {
        try (OutputStream out = io.newOutputFile(path).createOrOverwrite()) {
            out.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + path, e);
        }
    }

    private static byte[] readAll(InputFile file) {
        try (InputStream in = file.newStream()) {
            ByteArrayOutputStream buffer = new ByteArrayOutputStream();
            in.transferTo(buffer);
            return buffer.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file.location(), e);
        }
    }
}
