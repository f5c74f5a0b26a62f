/**
 * The resolved read configuration of an Iceberg source: {@link
 * dev.icebergflink.source.config.ScanContext}, the immutable plan that the Java builder and the SQL
 * source resolve once from builder setters, explicit options, the Flink configuration and table
 * properties, and {@link dev.icebergflink.source.config.ReadMode}, the decision of bounded or
 * unbounded read and which enumerator plans it.
 *
 * <p>This package sits below planning, enumerators and readers, which read their settings from the
 * plan: it imports none of them, only the option catalogue ({@code FlinkReadOptions}) and the
 * starting strategies of the public API.
 */
package dev.icebergflink.source.config;
