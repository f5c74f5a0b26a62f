/**
 * End-to-end throughput benchmarks and JMH micro-benchmarks that measure the connector against
 * Iceberg's own generic readers and writers.
 */
package dev.icebergflink.benchmarks;
