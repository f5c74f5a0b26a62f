package dev.icebergflink.table.staging;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SerializableTable;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.LocationProvider;

/**
 * The metadata of a table that no catalog holds yet (or that a replace will change): a serializable
 * copy of the table of an uncommitted create or replace transaction, which the sink's writers and
 * aggregation use as their table.
 *
 * <p>It exists because the sink loads its table through a loader in every operator, and the table
 * of an atomic {@code CREATE TABLE ... AS SELECT} cannot be loaded from the catalog while the job
 * runs. Two things differ from Iceberg's plain copy: {@link #refresh()} does nothing (there is
 * nothing to refresh from), {@link #schemas()} are kept instead of loaded from a metadata file, and
 * the table property {@code flink.manifests.location} points at the staging directory, so that the
 * sink's temporary manifests go there and never next to the metadata of a table that does not exist
 * (or of the table a replace keeps).
 */
@Internal
final class StagedTableCopy extends SerializableTable {

    private static final long serialVersionUID = 1L;

    /** The table property of the sink's temporary manifest directory. */
    static final String MANIFESTS_LOCATION = "flink.manifests.location";

    private final Map<String, String> properties;
    private final Map<Integer, Schema> schemas;

    private final LocationProvider locations;

    StagedTableCopy(Table table, String stagingLocation, String stagingId) {
        super(table);
        this.locations = new StagedLocationProvider(table.locationProvider(), stagingId);
        Map<String, String> withStaging = new HashMap<>(table.properties());
        withStaging.put(MANIFESTS_LOCATION, stagingLocation);
        this.properties = Map.copyOf(withStaging);
        this.schemas = Map.copyOf(table.schemas());
    }

    /** Kept here: Iceberg's copy would load them from a metadata file, which does not exist yet. */
    @Override
    public Map<Integer, Schema> schemas() {
        return schemas;
    }

    @Override
    public Map<String, String> properties() {
        return properties;
    }

    @Override
    public LocationProvider locationProvider() {
        return locations;
    }

    @Override
    public void refresh() {
        // the staged metadata does not change while the job runs
    }
}
