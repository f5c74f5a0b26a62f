package dev.icebergflink.sink.dynamic;

import java.io.Serializable;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Creates a table that a {@link DynamicRecord} names and the catalog does not have yet, from the
 * record's schema and partition spec.
 *
 * <p>It exists so that a job can choose what a new table gets beyond schema and spec: a location,
 * table properties (format version, write format, upsert settings), a sort order. {@link #DEFAULT}
 * creates the table with the catalog's defaults.
 */
@PublicEvolving
@FunctionalInterface
public interface TableCreator extends Serializable {

    /** Creates the table with the catalog's defaults. */
    TableCreator DEFAULT = Catalog::createTable;

    /**
     * Creates the table. When another writer creates it at the same time the catalog refuses with
     * {@link org.apache.iceberg.exceptions.AlreadyExistsException}, and the sink loads that table.
     */
    Table createTable(
            Catalog catalog, TableIdentifier identifier, Schema schema, PartitionSpec spec);
}
