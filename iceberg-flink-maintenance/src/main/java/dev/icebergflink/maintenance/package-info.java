/** Table maintenance as Flink batch jobs, starting from {@code Actions.forTable(table)}. */
package dev.icebergflink.maintenance;
