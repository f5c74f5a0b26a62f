package dev.icebergflink.maintenance.orphan;

import dev.icebergflink.TableLoader;
import dev.icebergflink.maintenance.cleanup.ReachableFiles;
import dev.icebergflink.maintenance.task.TaskPlanner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.apache.iceberg.util.PropertyUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first step of streaming orphan deletion: splits the run into items for the mappers, listing
 * items (parts of the location, see {@link ListingSplitter}) and metadata items (the locations the
 * table metadata itself names, and groups of manifests whose data and delete files the mappers
 * read).
 *
 * <p>The planner reads the table metadata and its manifest lists, and the directory names near the
 * top of the location; files are listed and manifests read by the mappers. The table is loaded
 * afresh for every run and dropped after it, so nothing of a run's metadata stays in memory.
 *
 * <p>The age threshold is fixed here, once per run: a file last modified less than {@code minAge}
 * before planning is never an orphan, since it may belong to a commit still in progress.
 */
@Internal
public final class OrphanPlanning implements TaskPlanner {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(OrphanPlanning.class);

    /** Locations per metadata item. */
    static final int LOCATIONS_PER_ITEM = 1000;

    /** The most manifests one mapper reads for one item. */
    static final int MANIFESTS_PER_ITEM = 50;

    /** Manifest bytes after which an item is closed, so that large manifests spread. */
    static final long MANIFEST_BYTES_PER_ITEM = 8L << 20;

    private final TableLoader loader;
    private final String location;
    private final long minAgeMillis;
    private final boolean usePrefixListing;

    /**
     * @param loader the table
     * @param location the location searched for orphans; null for the table's location
     * @param minAgeMillis files younger than this are never orphans
     * @param usePrefixListing whether deep listings may use the FileIO's prefix listing
     */
    public OrphanPlanning(
            TableLoader loader, String location, long minAgeMillis, boolean usePrefixListing) {
        this.loader = loader;
        this.location = location;
        this.minAgeMillis = minAgeMillis;
        this.usePrefixListing = usePrefixListing;
    }

    @Override
    public void open() {
        loader.open();
    }

    @Override
    public Plan plan(long triggerTimestamp) throws Exception {
        Table table = loader.loadTable();
        if (!PropertyUtil.propertyAsBoolean(
                table.properties(),
                TableProperties.GC_ENABLED,
                TableProperties.GC_ENABLED_DEFAULT)) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot delete orphan files of table %s: its %s property is false"
                                    + " (its files may be shared with other tables)",
                            table.name(), TableProperties.GC_ENABLED));
        }
        String root = location != null ? location : table.location();
        long olderThan = System.currentTimeMillis() - minAgeMillis;
        OrphanItemSerializer serializer = new OrphanItemSerializer();
        List<byte[]> items = new ArrayList<>();

        List<ListingSplitter.Part> parts = listingParts(table, root);
        for (ListingSplitter.Part part : parts) {
            items.add(
                    serialize(
                            serializer,
                            new OrphanItem.Listing(
                                    root,
                                    part.directory(),
                                    part.deep(),
                                    olderThan,
                                    usePrefixListing)));
        }
        int listingItems = items.size();
        new MetadataItems(root, serializer, items).addAll(table);
        LOG.info(
                "Looking for orphan files of table {} under {} older than {}: {} listing items, {}"
                        + " metadata items",
                table.name(),
                root,
                olderThan,
                listingItems,
                items.size() - listingItems);
        return new Plan(new byte[0], items);
    }

    private List<ListingSplitter.Part> listingParts(Table table, String root) {
        boolean prefixes = usePrefixListing && table.io() instanceof SupportsPrefixOperations;
        try {
            return new ListingSplitter(new HadoopListing(table.io()), root, metadataFolder(table))
                    .split();
        } catch (Exception | LinkageError e) {
            if (!prefixes) {
                throw new IllegalStateException(
                        String.format(
                                "Cannot list %s: its Hadoop FileSystem fails and the FileIO %s"
                                        + " cannot list by prefix%s",
                                root,
                                table.io().getClass().getName(),
                                usePrefixListing ? "" : " (usePrefixListing is false)"),
                        e);
            }
            LOG.info(
                    "Cannot split the listing of {} by directory ({}); one mapper lists it by"
                            + " prefix",
                    root,
                    e.toString());
            return List.of(new ListingSplitter.Part(root, true));
        }
    }

    private static String metadataFolder(Table table) {
        String configured = table.properties().get(TableProperties.WRITE_METADATA_LOCATION);
        return configured != null ? configured : table.location() + "/metadata";
    }

    private static byte[] serialize(OrphanItemSerializer serializer, OrphanItem item)
            throws IOException {
        return SimpleVersionedSerialization.writeVersionAndSerialize(serializer, item);
    }

    @Override
    public void close() throws Exception {
        loader.close();
    }

    /** Cuts the metadata's locations and manifests into items as they are found. */
    private static final class MetadataItems {
        private final String root;
        private final OrphanItemSerializer serializer;
        private final List<byte[]> items;
        private final List<String> locations = new ArrayList<>();
        private final List<byte[]> manifests = new ArrayList<>();
        private long manifestBytes;

        private MetadataItems(String root, OrphanItemSerializer serializer, List<byte[]> items) {
            this.root = root;
            this.serializer = serializer;
            this.items = items;
        }

        void addAll(Table table) throws IOException {
            ReachableFiles reachable = new ReachableFiles(table);
            for (String file : reachable.metadataFiles()) {
                location(file);
            }
            for (String file : reachable.manifestLists()) {
                location(file);
            }
            for (String file : reachable.statisticsFiles()) {
                location(file);
            }
            Set<String> seen = new HashSet<>();
            for (Snapshot snapshot : table.snapshots()) {
                for (ManifestFile manifest : snapshot.allManifests(table.io())) {
                    if (seen.add(manifest.path())) {
                        location(manifest.path());
                        manifest(manifest);
                    }
                }
            }
            flushLocations();
            flushManifests();
        }

        private void location(String file) throws IOException {
            locations.add(file);
            if (locations.size() >= LOCATIONS_PER_ITEM) {
                flushLocations();
            }
        }

        private void manifest(ManifestFile manifest) throws IOException {
            manifests.add(ManifestFiles.encode(manifest));
            manifestBytes += Math.max(0L, manifest.length());
            if (manifests.size() >= MANIFESTS_PER_ITEM
                    || manifestBytes >= MANIFEST_BYTES_PER_ITEM) {
                flushManifests();
            }
        }

        private void flushLocations() throws IOException {
            if (!locations.isEmpty()) {
                items.add(
                        serialize(
                                serializer,
                                new OrphanItem.Referenced(root, new ArrayList<>(locations))));
                locations.clear();
            }
        }

        private void flushManifests() throws IOException {
            if (!manifests.isEmpty()) {
                items.add(
                        serialize(
                                serializer,
                                new OrphanItem.Manifests(root, new ArrayList<>(manifests))));
                manifests.clear();
                manifestBytes = 0;
            }
        }
    }
}
