/**
 * The FLIP-27 Iceberg source: split planning, enumerators, split assigners, splits and their
 * serializers, and split readers. Users start from {@code IcebergSource.forRowData()}.
 */
package dev.icebergflink.source;
