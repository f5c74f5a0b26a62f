package dev.icebergflink.sink.committer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.OutputFile;

/**
 * Writes and reads the sink's temporary manifests: the files that carry one checkpoint's data and
 * delete files from the aggregation to the committer.
 *
 * <p>It exists so that the committer's state holds a few manifest paths instead of every file of a
 * checkpoint. Manifests go to the table property {@value #MANIFESTS_LOCATION_PROPERTY} when set,
 * else to the table's metadata directory, under unique names ({@code
 * flink-<job>-<operator>-<checkpoint>-<attempt uuid>-<n>-<kind>.avro}). They are temporary: the
 * committer adds their files to the table through Iceberg's own commit and deletes them afterwards.
 */
final class TemporaryManifests {

    /** Table property with the directory of the temporary manifests. */
    static final String MANIFESTS_LOCATION_PROPERTY = "flink.manifests.location";

    /**
     * The snapshot id written into temporary manifests. Iceberg only reads and encodes manifests
     * that have one; the files are re-added by the commit, which assigns the real snapshot id, so
     * this placeholder never reaches table metadata.
     */
    static final long PLACEHOLDER_SNAPSHOT_ID = 0L;

    private final String attempt = UUID.randomUUID().toString();
    private final AtomicInteger counter = new AtomicInteger();

    /** Writes one manifest per partition spec of {@code files}; no manifest for no files. */
    List<ManifestFile> writeDataManifests(Table table, String prefix, List<DataFile> files) {
        return write(table, prefix, "data", files, false);
    }

    /** Writes one delete manifest per partition spec of {@code files}. */
    List<ManifestFile> writeDeleteManifests(
            Table table, String prefix, String kind, List<DeleteFile> files) {
        return write(table, prefix, kind, files, true);
    }

    @SuppressWarnings("unchecked")
    private <F extends ContentFile<F>> List<ManifestFile> write(
            Table table, String prefix, String kind, List<F> files, boolean deletes) {
        Map<Integer, List<F>> bySpec = new TreeMap<>();
        for (F file : files) {
            bySpec.computeIfAbsent(file.specId(), id -> new ArrayList<>()).add(file);
        }
        int formatVersion = TableUtil.formatVersion(table);
        List<ManifestFile> manifests = new ArrayList<>(bySpec.size());
        for (Map.Entry<Integer, List<F>> entry : bySpec.entrySet()) {
            PartitionSpec spec = table.specs().get(entry.getKey());
            if (spec == null) {
                throw new IllegalStateException(
                        "Table " + table.name() + " has no partition spec " + entry.getKey());
            }
            OutputFile out =
                    table.io()
                            .newOutputFile(
                                    location(
                                            table,
                                            prefix
                                                    + "-"
                                                    + attempt
                                                    + "-"
                                                    + counter.incrementAndGet()
                                                    + "-"
                                                    + kind
                                                    + ".avro"));
            try {
                if (deletes) {
                    ManifestWriter<DeleteFile> writer =
                            ManifestFiles.writeDeleteManifest(
                                    formatVersion, spec, out, PLACEHOLDER_SNAPSHOT_ID);
                    try (writer) {
                        for (F file : entry.getValue()) {
                            writer.add((DeleteFile) file);
                        }
                    }
                    manifests.add(writer.toManifestFile());
                } else {
                    ManifestWriter<DataFile> writer =
                            ManifestFiles.write(formatVersion, spec, out, PLACEHOLDER_SNAPSHOT_ID);
                    try (writer) {
                        for (F file : entry.getValue()) {
                            writer.add((DataFile) file);
                        }
                    }
                    manifests.add(writer.toManifestFile());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "Could not write the temporary manifest " + out.location(), e);
            }
        }
        return manifests;
    }

    private static String location(Table table, String fileName) {
        String dir = table.properties().get(MANIFESTS_LOCATION_PROPERTY);
        if (dir != null && !dir.isBlank()) {
            return dir.endsWith("/") ? dir + fileName : dir + "/" + fileName;
        }
        if (table instanceof HasTableOperations) {
            return ((HasTableOperations) table).operations().metadataFileLocation(fileName);
        }
        return table.location() + "/metadata/" + fileName;
    }

    /** The data files of a temporary data manifest. */
    static List<DataFile> readDataFiles(Table table, ManifestFile manifest) {
        try (ManifestReader<DataFile> reader =
                ManifestFiles.read(manifest, table.io(), table.specs())) {
            List<DataFile> files = new ArrayList<>();
            for (DataFile file : reader) {
                files.add(file.copy());
            }
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read manifest " + manifest.path(), e);
        }
    }

    /** The delete files of a temporary delete manifest. */
    static List<DeleteFile> readDeleteFiles(Table table, ManifestFile manifest) {
        try (ManifestReader<DeleteFile> reader =
                ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
            List<DeleteFile> files = new ArrayList<>();
            for (DeleteFile file : reader) {
                files.add(file.copy());
            }
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read manifest " + manifest.path(), e);
        }
    }

    /** The paths of the committable's manifests that do not exist. */
    static List<String> missing(FileIO io, IcebergCommittable committable) {
        List<String> missing = new ArrayList<>();
        for (ManifestFile manifest : committable.allManifests()) {
            if (!io.newInputFile(manifest.path()).exists()) {
                missing.add(manifest.path());
            }
        }
        return missing;
    }

    /** Deletes manifests, ignoring ones already gone; returns the paths that failed. */
    static List<String> delete(FileIO io, List<ManifestFile> manifests) {
        List<String> failed = new ArrayList<>();
        for (ManifestFile manifest : manifests) {
            try {
                io.deleteFile(manifest.path());
            } catch (RuntimeException e) {
                failed.add(manifest.path());
            }
        }
        return failed;
    }
}
