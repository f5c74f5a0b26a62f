/**
 * Lookup joins against Iceberg tables ({@code JOIN dim FOR SYSTEM_TIME AS OF probe.proc_time}).
 *
 * <p>The SQL table source hands this package its resolved read plan (projection, pushed filters),
 * its loader and its conversion to the declared types; the package answers with Flink's lookup
 * runtime: a {@code FULL} cache that owns a copy of the table indexed by the lookup key and follows
 * new snapshots ({@link dev.icebergflink.table.lookup.FullCacheLookupFunction}), or a lookup that
 * plans and reads only the files that can hold a key ({@link
 * dev.icebergflink.table.lookup.ScanLookupFunction}), with Flink's partial cache in front for
 * {@code PARTIAL}. The options are {@link dev.icebergflink.table.lookup.LookupJoinOptions}.
 */
package dev.icebergflink.table.lookup;
