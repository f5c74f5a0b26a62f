package dev.icebergflink.table.staging;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.connector.sink.abilities.SupportsStaging.StagingPurpose;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The Iceberg table a {@code CREATE TABLE ... AS SELECT} asks for, as the catalog's {@code CREATE
 * TABLE} translation made it (schema, partition spec, location, properties), and how to start the
 * transaction that creates or replaces it.
 *
 * <p>It exists so that the planner's client and Flink's JobManager start the same transaction from
 * the same definition: the client once to learn the metadata the writers write for, the JobManager
 * again to commit the job's files into it. It travels in the job graph, so it holds only
 * serializable Iceberg values.
 *
 * @param namespace the levels of the Iceberg table's namespace ({@link TableIdentifier} is not
 *     serializable)
 * @param name the Iceberg table's name
 * @param schema the new table's schema
 * @param spec the new table's partition spec (bound to {@code schema})
 * @param location the table location of the {@code WITH} options, or null for the catalog's
 * @param properties the new table's properties
 */
@Internal
public record TableCreation(
        List<String> namespace,
        String name,
        Schema schema,
        PartitionSpec spec,
        String location,
        Map<String, String> properties)
        implements Serializable {

    public TableCreation {
        namespace = List.copyOf(namespace);
        properties = Map.copyOf(properties);
    }

    /** The creation of the table {@code identifier}. */
    public static TableCreation of(
            TableIdentifier identifier,
            Schema schema,
            PartitionSpec spec,
            String location,
            Map<String, String> properties) {
        return new TableCreation(
                List.of(identifier.namespace().levels()),
                identifier.name(),
                schema,
                spec,
                location,
                properties);
    }

    /** The Iceberg table. */
    public TableIdentifier identifier() {
        return TableIdentifier.of(Namespace.of(namespace.toArray(String[]::new)), name);
    }

    /**
     * Starts the transaction of {@code purpose} in {@code catalog}: a create for {@code CREATE
     * TABLE ... AS} (also with {@code IF NOT EXISTS}), a replace for {@code REPLACE TABLE ... AS},
     * a create-or-replace for {@code CREATE OR REPLACE TABLE ... AS}. Nothing is written until the
     * transaction commits.
     *
     * @throws org.apache.iceberg.exceptions.AlreadyExistsException for a create of an existing
     *     table
     * @throws org.apache.iceberg.exceptions.NoSuchTableException for a replace of a missing table
     */
    public Transaction start(Catalog catalog, StagingPurpose purpose) {
        Catalog.TableBuilder builder =
                catalog.buildTable(identifier(), schema)
                        .withPartitionSpec(spec)
                        .withProperties(properties);
        if (location != null) {
            builder.withLocation(location);
        }
        return switch (purpose) {
            case CREATE_TABLE_AS, CREATE_TABLE_AS_IF_NOT_EXISTS -> builder.createTransaction();
            case REPLACE_TABLE_AS -> builder.replaceTransaction();
            case CREATE_OR_REPLACE_TABLE_AS -> builder.createOrReplaceTransaction();
        };
    }
}
