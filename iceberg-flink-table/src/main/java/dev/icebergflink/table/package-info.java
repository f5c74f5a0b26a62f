/**
 * Flink SQL integration: the Iceberg catalog ({@code 'type'='iceberg'}), the {@code
 * 'connector'='iceberg'} table factory and the dynamic table source and sink with their push-downs.
 */
package dev.icebergflink.table;
