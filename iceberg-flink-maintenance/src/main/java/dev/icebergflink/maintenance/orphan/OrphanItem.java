package dev.icebergflink.maintenance.orphan;

import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * One work item of orphan detection, planned on one subtask and done by one mapper: list a part of
 * the location, or read a part of the metadata. Every item knows the run's root, the location
 * searched for orphans; referenced locations outside it are dropped early.
 */
@Internal
public sealed interface OrphanItem {

    /** The location searched for orphans. */
    String root();

    /**
     * Lists one directory for files older than the run's threshold.
     *
     * @param root the location searched for orphans
     * @param directory the directory to list
     * @param deep true to list everything below the directory, false for its own files only
     * @param olderThanMillis only files last modified before this (epoch millis) are listed
     * @param prefixListing whether a deep listing may use the FileIO's prefix listing
     */
    record Listing(
            String root,
            String directory,
            boolean deep,
            long olderThanMillis,
            boolean prefixListing)
            implements OrphanItem {}

    /**
     * Locations the metadata refers to, known to the planner: metadata JSON files, manifest lists,
     * manifests, statistics files.
     */
    record Referenced(String root, List<String> locations) implements OrphanItem {}

    /**
     * Manifests to read for the data and delete files they refer to.
     *
     * @param root the location searched for orphans
     * @param manifests manifests encoded with Iceberg's {@code ManifestFiles.encode}
     */
    record Manifests(String root, List<byte[]> manifests) implements OrphanItem {}
}
