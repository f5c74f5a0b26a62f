package dev.icebergflink.table.options;

import java.util.List;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.ValidationException;

/**
 * Rejects the metadata synchronisation options of Alibaba Cloud's managed Flink connector for
 * Iceberg ({@code hive_sync.*}, {@code dlf.catalog.*}).
 *
 * <p>That connector copies a table's metadata into a Hive Metastore or Data Lake Formation after it
 * writes. This connector has no such step: a table lives in the Iceberg catalog that holds it, and
 * a Hive catalog ({@code 'catalog-type'='hive'}) or DLF catalog ({@code 'catalog-impl'}) registers
 * it there on every commit. Stored as table properties or passed to the catalog, the options would
 * be kept and never read, so statements that carry them fail and say what to use instead. DLF's own
 * catalog properties ({@code dlf.catalog-id}, {@code dlf.endpoint}, {@code dlf.region-id}) are not
 * affected.
 */
@Internal
public final class MetadataSyncOptions {

    /** The key prefixes of the synchronisation options. */
    public static final List<String> PREFIXES = List.of("hive_sync.", "dlf.catalog.");

    private MetadataSyncOptions() {}

    /**
     * Fails when {@code keys} hold a synchronisation option.
     *
     * @param what the statement and table, e.g. {@code "Cannot create 'cat.db.t'"}
     * @throws ValidationException naming the options and what to use instead
     */
    public static void reject(String what, Iterable<String> keys) {
        TreeSet<String> found = new TreeSet<>();
        for (String key : keys) {
            if (PREFIXES.stream().anyMatch(key::startsWith)) {
                found.add(key);
            }
        }
        if (!found.isEmpty()) {
            throw new ValidationException(
                    String.format(
                            "%s: option%s '%s' synchronise%s table metadata to Hive or DLF in"
                                    + " Alibaba Cloud's managed Iceberg connector. This connector"
                                    + " has no synchronisation step: the Iceberg catalog that holds"
                                    + " the table registers every commit. To see the table in a"
                                    + " Hive Metastore or DLF, use a Hive catalog"
                                    + " ('catalog-type'='hive', 'uri'='thrift://...') or the DLF"
                                    + " catalog ('catalog-impl'='org.apache.iceberg.aliyun.dlf"
                                    + ".DlfCatalog'), and remove the option%s.",
                            what,
                            found.size() == 1 ? "" : "s",
                            String.join("', '", found),
                            found.size() == 1 ? "s" : "",
                            found.size() == 1 ? "" : "s"));
        }
    }
}
