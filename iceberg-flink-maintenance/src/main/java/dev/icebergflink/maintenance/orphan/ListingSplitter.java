package dev.icebergflink.maintenance.orphan;

import dev.icebergflink.maintenance.cleanup.FileLocations;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * Splits the listing of a location into parts that mappers list side by side, looking at
 * directories only near the top: the location and the directories right below it are read here
 * (names only), and each directory found below those becomes one part, listed in full by one
 * mapper. With the usual layout the parts are the partition directories of the data folder, plus
 * the metadata folder.
 *
 * <p>The planner's own work stays small: a directory with more than {@value #MAX_ENTRIES} entries
 * (a flat folder of data files) is not looked into but listed in full by one mapper, and the
 * metadata folder, flat by Iceberg's layout, is never looked into.
 */
@Internal
final class ListingSplitter {

    /** How many levels below the location the splitter looks into. */
    static final int MAX_DEPTH = 2;

    /** The most entries of one directory the splitter reads before giving it to a mapper whole. */
    static final int MAX_ENTRIES = 1000;

    /**
     * One part of the listing.
     *
     * @param directory the directory to list
     * @param deep true for everything below it, false for the directory's own files only
     */
    record Part(String directory, boolean deep) {}

    private final HadoopListing listing;
    private final String root;
    private final String metadataKey;

    /**
     * @param listing the listing that knows directories
     * @param root the location searched for orphans
     * @param metadataLocation the table's metadata folder
     */
    ListingSplitter(HadoopListing listing, String root, String metadataLocation) {
        this.listing = listing;
        this.root = root;
        this.metadataKey = FileLocations.key(metadataLocation);
    }

    /** The parts, which together list every file below the root exactly once. */
    List<Part> split() throws IOException {
        List<Part> parts = new ArrayList<>();
        List<String> level = List.of(root);
        for (int depth = 0; depth < MAX_DEPTH && !level.isEmpty(); depth++) {
            List<String> below = new ArrayList<>();
            for (String directory : level) {
                if (depth > 0 && FileLocations.key(directory).equals(metadataKey)) {
                    parts.add(new Part(directory, true));
                    continue;
                }
                List<HadoopListing.Entry> entries = listing.children(directory, MAX_ENTRIES);
                if (entries == null) {
                    parts.add(new Part(directory, true));
                    continue;
                }
                boolean files = false;
                for (HadoopListing.Entry entry : entries) {
                    String child = child(directory, entry.name());
                    if (FileLocations.isHidden(root, child)) {
                        continue;
                    }
                    if (entry.directory()) {
                        below.add(child);
                    } else {
                        files = true;
                    }
                }
                if (files) {
                    parts.add(new Part(directory, false));
                }
            }
            level = below;
        }
        for (String directory : level) {
            parts.add(new Part(directory, true));
        }
        return parts;
    }

    private static String child(String directory, String name) {
        return directory.endsWith("/") ? directory + name : directory + "/" + name;
    }
}
