package dev.icebergflink.table.catalog;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionImpl;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionSpecInvalidException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotPartitionedException;
import org.apache.iceberg.Table;

/**
 * The partition queries of a {@link FlinkCatalog} ({@code SHOW PARTITIONS}): the partitions of a
 * table are the identity-partition tuples of its live data files ({@link PartitionLister}).
 *
 * <p>It exists to keep the partition rules in one place: a table whose spec has no identity
 * partition on a top-level column is not partitioned for Flink, a partition spec may name only
 * partition keys, and a partition exists while data files hold it. Partitions are not created,
 * changed or dropped through the catalog: they appear with their data.
 */
final class PartitionOperations {

    private final CatalogConnection connection;

    PartitionOperations(CatalogConnection connection) {
        this.connection = connection;
    }

    List<CatalogPartitionSpec> listPartitions(ObjectPath tablePath)
            throws TableNotExistException, TableNotPartitionedException, CatalogException {
        Table table = connection.loadTable(tablePath);
        return PartitionLister.list(table, partitionKeys(tablePath, table), Map.of());
    }

    List<CatalogPartitionSpec> listPartitions(
            ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws TableNotExistException,
                    TableNotPartitionedException,
                    PartitionSpecInvalidException,
                    CatalogException {
        Table table = connection.loadTable(tablePath);
        List<String> keys = partitionKeys(tablePath, table);
        if (!keys.containsAll(partitionSpec.getPartitionSpec().keySet())) {
            throw new PartitionSpecInvalidException(
                    connection.name(), keys, tablePath, partitionSpec);
        }
        return PartitionLister.list(table, keys, partitionSpec.getPartitionSpec());
    }

    CatalogPartition getPartition(ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws PartitionNotExistException, CatalogException {
        if (!partitionExists(tablePath, partitionSpec)) {
            throw new PartitionNotExistException(connection.name(), tablePath, partitionSpec);
        }
        return new CatalogPartitionImpl(new HashMap<>(), null);
    }

    boolean partitionExists(ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws CatalogException {
        try {
            Table table = connection.loadTable(tablePath);
            List<String> keys = partitionKeys(tablePath, table);
            if (!new HashSet<>(keys).equals(partitionSpec.getPartitionSpec().keySet())) {
                return false;
            }
            return !PartitionLister.list(table, keys, partitionSpec.getPartitionSpec()).isEmpty();
        } catch (TableNotExistException | TableNotPartitionedException e) {
            return false;
        }
    }

    private List<String> partitionKeys(ObjectPath tablePath, Table table)
            throws TableNotPartitionedException {
        List<String> keys = TableDefinitions.identityPartitionKeys(table.spec(), table.schema());
        if (keys.isEmpty()) {
            throw new TableNotPartitionedException(connection.name(), tablePath);
        }
        return keys;
    }
}
