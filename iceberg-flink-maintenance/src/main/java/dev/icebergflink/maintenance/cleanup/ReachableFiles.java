package dev.icebergflink.maintenance.cleanup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.ReachableFileUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;

/**
 * The files a table's metadata refers to, collected from every snapshot of every branch and tag:
 * metadata JSON files (current and logged previous ones), the version hint, manifest lists,
 * manifests, data and delete files, and statistics files.
 *
 * <p>It exists because both snapshot expiration (to tell what kind of file it deleted) and orphan
 * detection (to know what must never be deleted) need this walk.
 */
@Internal
public final class ReachableFiles {

    private final Table table;
    private Map<String, ManifestFile> manifests;

    public ReachableFiles(Table table) {
        this.table = table;
    }

    /** Manifest list locations of every snapshot. */
    public Set<String> manifestLists() {
        Set<String> lists = new HashSet<>();
        for (Snapshot snapshot : table.snapshots()) {
            if (snapshot.manifestListLocation() != null) {
                lists.add(snapshot.manifestListLocation());
            }
        }
        return lists;
    }

    /** Every manifest of every snapshot, by location. */
    public Map<String, ManifestFile> manifests() {
        if (manifests == null) {
            Map<String, ManifestFile> all = new LinkedHashMap<>();
            for (Snapshot snapshot : table.snapshots()) {
                for (ManifestFile manifest : snapshot.allManifests(table.io())) {
                    all.putIfAbsent(manifest.path(), manifest);
                }
            }
            manifests = all;
        }
        return manifests;
    }

    /** Locations of the live content files of every manifest of the given kind. */
    public Set<String> contentFiles(ManifestContent content) {
        Set<String> files = new HashSet<>();
        for (ManifestFile manifest : manifests().values()) {
            if (manifest.content() != content) {
                continue;
            }
            try {
                if (content == ManifestContent.DATA) {
                    try (CloseableIterable<String> paths =
                            ManifestFiles.readPaths(manifest, table.io(), table.specs())) {
                        paths.forEach(files::add);
                    }
                } else {
                    try (ManifestReader<DeleteFile> deletes =
                            ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
                        deletes.forEach(delete -> files.add(delete.location()));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read manifest " + manifest.path(), e);
            }
        }
        return files;
    }

    /** Statistics and partition-statistics file locations. */
    public Set<String> statisticsFiles() {
        Set<String> files = new HashSet<>(ReachableFileUtil.statisticsFilesLocations(table));
        for (PartitionStatisticsFile file : table.partitionStatisticsFiles()) {
            files.add(file.path());
        }
        return files;
    }

    /** Current and previous metadata JSON files plus the version hint, if any. */
    public Set<String> metadataFiles() {
        Set<String> files = new HashSet<>(ReachableFileUtil.metadataFileLocations(table, true));
        String hint = ReachableFileUtil.versionHintLocation(table);
        if (hint != null) {
            files.add(hint);
        }
        return files;
    }

    /** Every reachable file, as {@link FileLocations#key} keys. */
    public Set<String> allKeys() {
        Set<String> keys = new HashSet<>();
        metadataFiles().forEach(location -> keys.add(FileLocations.key(location)));
        manifestLists().forEach(location -> keys.add(FileLocations.key(location)));
        manifests().keySet().forEach(location -> keys.add(FileLocations.key(location)));
        contentFiles(ManifestContent.DATA)
                .forEach(location -> keys.add(FileLocations.key(location)));
        contentFiles(ManifestContent.DELETES)
                .forEach(location -> keys.add(FileLocations.key(location)));
        statisticsFiles().forEach(location -> keys.add(FileLocations.key(location)));
        return keys;
    }
}
