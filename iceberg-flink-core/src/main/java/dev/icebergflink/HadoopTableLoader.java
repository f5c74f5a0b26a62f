package dev.icebergflink;

import dev.icebergflink.util.SecretMasking;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.hadoop.SerializableConfiguration;

/**
 * {@link TableLoader} of a path-based table (no catalog) through Iceberg's {@link HadoopTables}.
 */
final class HadoopTableLoader implements TableLoader {

    private static final long serialVersionUID = 1L;

    private final String location;
    private final SerializableConfiguration hadoopConf;

    private transient HadoopTables tables;

    HadoopTableLoader(String location, Configuration hadoopConf) {
        if (location == null || location.isBlank()) {
            throw new IllegalArgumentException(
                    "A Hadoop table loader needs the table location, the directory that holds"
                            + " the table's metadata/ folder, e.g. 'hdfs://namenode:8020/warehouse/db/t'");
        }
        if (hadoopConf == null) {
            throw new IllegalArgumentException(
                    "A Hadoop table loader needs a Hadoop Configuration; use"
                            + " TableLoader.fromHadoopTable(location) for the default one");
        }
        this.location = location;
        this.hadoopConf = new SerializableConfiguration(new Configuration(hadoopConf));
    }

    private HadoopTableLoader(String location, SerializableConfiguration hadoopConf) {
        this.location = location;
        this.hadoopConf = hadoopConf;
    }

    @Override
    public synchronized void open() {
        if (tables == null) {
            tables = new HadoopTables(new Configuration(hadoopConf.get()));
        }
    }

    @Override
    public synchronized boolean isOpen() {
        return tables != null;
    }

    @Override
    public synchronized Table loadTable() {
        open();
        return tables.load(location);
    }

    @Override
    public synchronized void close() {
        // HadoopTables holds no resources of its own; forget it so that the next load reopens.
        tables = null;
    }

    @Override
    @SuppressWarnings("MethodDoesntCallSuperMethod")
    public TableLoader clone() {
        // The configuration is never modified after construction, so sharing its holder is safe.
        return new HadoopTableLoader(location, hadoopConf);
    }

    @Override
    public String toString() {
        return "HadoopTableLoader{location=" + SecretMasking.maskUri(location) + "}";
    }
}
