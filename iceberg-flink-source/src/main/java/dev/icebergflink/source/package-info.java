/**
 * The FLIP-27 Iceberg source. Users start from {@code IcebergSource.forRowData()} (or {@code
 * FlinkSource.forRowData()} for a {@code DataStream} at once).
 *
 * <p>The packages are layers without cycles; each uses only the ones listed after it:
 *
 * <pre>
 *   source        the API: builders, option catalogue, starting strategies, converter factory
 *   enumerator    creates and runs enumerators: planning rounds, assignment, limit, paging
 *   assigner      orders pending splits (uses reader for watermarks)
 *   planning      plans the splits of a table from a read plan
 *   reader        reads splits as records
 *   config        the resolved read plan and its read mode
 *   split, event  splits and their serializers; the events readers and enumerators exchange
 * </pre>
 *
 * <p>The other packages use from this one only its leaf types ({@code FlinkReadOptions}, {@code
 * StreamingStartingStrategy}, {@code ConverterFactory}), never the builders that assemble them.
 */
package dev.icebergflink.source;
