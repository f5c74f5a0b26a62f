package dev.icebergflink;

import java.io.Closeable;
import java.io.Serializable;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A serializable way to reach one Iceberg {@link Table} from wherever a Flink operator runs.
 *
 * <p>It exists because a {@link Table} (and the catalog behind it) cannot be shipped inside a job
 * graph: the source enumerator, the readers, the writers and the committer each carry a {@code
 * TableLoader} and load the table in their own JVM.
 *
 * <p>Life cycle: {@link #loadTable()} opens the loader on demand, so calling {@link #open()} first
 * is allowed but not required. {@code open()} and {@link #close()} may be called repeatedly and in
 * any order: closing a closed loader does nothing, and loading after {@code close()} opens it
 * again. Closing releases what the loader opened (for a catalog-based loader, the catalog when it
 * is {@link Closeable}); tables loaded before stay usable as far as their FileIO allows. Use {@link
 * #clone()} to give another operator or subtask its own, unopened loader. A loader is meant for one
 * owner; its methods are nevertheless safe to call from several threads.
 *
 * <p>{@code toString()} shows the table's location or its catalog and identifier, never secrets.
 */
@PublicEvolving
public interface TableLoader extends Closeable, Serializable {

    /** Opens the loader (builds its catalog or file system access); a no-op when already open. */
    void open();

    /** Whether {@link #open()} (or {@link #loadTable()}) ran since creation or the last close. */
    boolean isOpen();

    /**
     * Loads the current state of the table, opening the loader first when needed. Each call reads
     * the table's metadata again.
     *
     * @throws org.apache.iceberg.exceptions.NoSuchTableException if the table does not exist
     */
    Table loadTable();

    /** A fresh, unopened loader for the same table; this loader stays as it is. */
    TableLoader clone();

    /**
     * A loader of the path-based Hadoop table at {@code location} (a directory holding {@code
     * metadata/}), with a default Hadoop {@link Configuration}.
     */
    static TableLoader fromHadoopTable(String location) {
        return fromHadoopTable(location, new Configuration());
    }

    /**
     * A loader of the path-based Hadoop table at {@code location} (a directory holding {@code
     * metadata/}) that reads it with the given Hadoop configuration.
     */
    static TableLoader fromHadoopTable(String location, Configuration hadoopConf) {
        return new HadoopTableLoader(location, hadoopConf);
    }

    /**
     * A loader of the table {@code identifier} in the catalog that {@code catalogLoader} builds.
     */
    static TableLoader fromCatalog(CatalogLoader catalogLoader, TableIdentifier identifier) {
        return new CatalogTableLoader(catalogLoader, identifier);
    }
}
