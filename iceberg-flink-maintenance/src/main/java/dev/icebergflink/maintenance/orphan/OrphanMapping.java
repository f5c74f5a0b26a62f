package dev.icebergflink.maintenance.orphan;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.cleanup.FileLocations;
import dev.icebergflink.maintenance.task.TaskMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;

/**
 * The mappers of streaming orphan deletion: list one part of the location, sending each file old
 * enough to be an orphan, or read one part of the metadata, sending each location it refers to.
 * Every {@link FileMark} is hashed by its path ({@link FileLocations#key}), so that a listed file
 * and the references to it meet in one reducer bucket, whichever mappers found them.
 *
 * <p>Files are sent as they are listed or read, never collected: a mapper's memory does not grow
 * with the table. Hidden files (see {@link FileLocations#isHidden}) are never sent as listed, and
 * references outside the searched location are dropped, since no listed file can match them.
 */
@Internal
public final class OrphanMapping implements TaskMapper {

    private static final long serialVersionUID = 1L;

    private final TableLoader loader;

    private transient Table table;
    private transient FileListing listing;
    private transient FileMarkSerializer serializer;

    public OrphanMapping(TableLoader loader) {
        this.loader = loader;
    }

    @Override
    public void open(int subtask, int attempt) {
        loader.open();
        serializer = new FileMarkSerializer();
    }

    @Override
    public void process(byte[] bytes, Output out) throws Exception {
        OrphanItem item =
                SimpleVersionedSerialization.readVersionAndDeSerialize(
                        new OrphanItemSerializer(), bytes);
        if (table == null) {
            table = loader.loadTable();
            listing = new FileListing(table.io());
        }
        String rootKey = FileLocations.key(item.root());
        String under = rootKey.endsWith("/") ? rootKey : rootKey + "/";
        if (item instanceof OrphanItem.Listing list) {
            listing.list(
                    list,
                    (location, modified) -> {
                        if (modified < list.olderThanMillis()
                                && !FileLocations.isHidden(list.root(), location)) {
                            send(FileMark.listed(location), out);
                        }
                    });
        } else if (item instanceof OrphanItem.Referenced referenced) {
            for (String location : referenced.locations()) {
                referTo(location, under, out);
            }
        } else {
            for (byte[] encoded : ((OrphanItem.Manifests) item).manifests()) {
                readManifest(ManifestFiles.decode(encoded), under, out);
            }
        }
    }

    private void readManifest(ManifestFile manifest, String under, Output out) throws IOException {
        if (!table.specs().containsKey(manifest.partitionSpecId())) {
            table.refresh();
        }
        if (manifest.content() == ManifestContent.DATA) {
            try (CloseableIterable<String> paths =
                    ManifestFiles.readPaths(manifest, table.io(), table.specs())) {
                for (String path : paths) {
                    referTo(path, under, out);
                }
            }
        } else {
            try (ManifestReader<DeleteFile> deletes =
                    ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
                for (DeleteFile delete : deletes) {
                    referTo(delete.location(), under, out);
                }
            }
        }
    }

    private void referTo(String location, String under, Output out) {
        if (FileLocations.key(location).startsWith(under)) {
            send(FileMark.referenced(location), out);
        }
    }

    private void send(FileMark mark, Output out) {
        try {
            out.emit(
                    FileLocations.key(mark.location()).hashCode(),
                    SimpleVersionedSerialization.writeVersionAndSerialize(serializer, mark));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws Exception {
        loader.close();
    }
}
