package dev.icebergflink.table.staging;

import org.apache.flink.annotation.Internal;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.io.LocationProvider;

/**
 * The table's own data file locations, with the staging id in front of every file name.
 *
 * <p>It exists so that an aborted statement finds every data file its job wrote, also those that
 * never reached the committer's record (a writer that finished while another one failed): they are
 * the files under the table's data location whose name starts with the id.
 */
@Internal
final class StagedLocationProvider implements LocationProvider {

    private static final long serialVersionUID = 1L;

    private final LocationProvider delegate;
    private final String prefix;

    StagedLocationProvider(LocationProvider delegate, String stagingId) {
        this.delegate = delegate;
        this.prefix = stagingId + "-";
    }

    /** Whether {@code location} names a file written through this provider. */
    static boolean isStaged(String location, String stagingId) {
        int slash = location.lastIndexOf('/');
        return location.substring(slash + 1).startsWith(stagingId + "-");
    }

    @Override
    public String newDataLocation(String filename) {
        return delegate.newDataLocation(prefix + filename);
    }

    @Override
    public String newDataLocation(PartitionSpec spec, StructLike partitionData, String filename) {
        return delegate.newDataLocation(spec, partitionData, prefix + filename);
    }
}
