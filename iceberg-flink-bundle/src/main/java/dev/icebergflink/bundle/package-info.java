/**
 * The shaded bundle jar that drops into Flink's {@code lib/} or the SQL client's {@code -j}. It
 * holds no code of its own beyond packaging checks.
 */
package dev.icebergflink.bundle;
