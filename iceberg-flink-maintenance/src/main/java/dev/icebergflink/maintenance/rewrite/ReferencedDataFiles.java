package dev.icebergflink.maintenance.rewrite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.ContentFileUtil;

/**
 * Tells which single data file a position-delete file refers to, if it refers to only one.
 *
 * <p>Deletion vectors and v3 position deletes name their data file; a v2 position-delete file says
 * so only through its {@code file_path} column bounds, which scan tasks may carry without stats.
 * For those this class reads the snapshot's delete manifests once (only when needed) to get the
 * delete files with their bounds.
 */
final class ReferencedDataFiles {

    private final Table table;
    private final Snapshot snapshot;
    private Map<String, DeleteFile> withStats;

    ReferencedDataFiles(Table table, Snapshot snapshot) {
        this.table = table;
        this.snapshot = snapshot;
    }

    /** The data file {@code delete} refers to, or null when it may refer to several. */
    String of(DeleteFile delete) {
        if (delete.content() != FileContent.POSITION_DELETES) {
            return null;
        }
        String referenced = ContentFileUtil.referencedDataFileLocation(delete);
        if (referenced != null || ContentFileUtil.isDV(delete)) {
            return referenced;
        }
        DeleteFile full = deleteFilesWithStats().get(delete.location());
        return full == null ? null : ContentFileUtil.referencedDataFileLocation(full);
    }

    private Map<String, DeleteFile> deleteFilesWithStats() {
        if (withStats == null) {
            Map<String, DeleteFile> files = new HashMap<>();
            for (ManifestFile manifest : snapshot.deleteManifests(table.io())) {
                try (ManifestReader<DeleteFile> reader =
                        ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
                    for (DeleteFile file : reader) {
                        if (file.content() == FileContent.POSITION_DELETES) {
                            files.put(file.location(), file.copy());
                        }
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(
                            "Cannot read delete manifest " + manifest.path(), e);
                }
            }
            withStats = files;
        }
        return withStats;
    }
}
