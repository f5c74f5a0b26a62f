package dev.icebergflink.table.storage;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The storage side of a catalog x warehouse combination: where the warehouse is, which catalog
 * options reach it, and which files really are there, read from the store itself (not through
 * Iceberg) so that the tests see what a user's storage holds.
 */
interface WarehouseStorage {

    /** The warehouse location, e.g. {@code hdfs://127.0.0.1:<port>/warehouse}. */
    String warehouse();

    /** Catalog options the storage needs (e.g. S3FileIO properties); empty for HDFS. */
    Map<String, String> catalogOptions();

    /** The URI scheme of every file in the warehouse, e.g. {@code hdfs}. */
    String scheme();

    /** The full locations of the files (not directories) under {@code location}, recursively. */
    List<String> files(String location) throws IOException;
}
