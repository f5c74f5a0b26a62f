package dev.icebergflink.sink.committer;

import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * {@link TableOperations} that forward every call to another instance.
 *
 * <p>It exists so that a class that changes one operation (the committer's commit check) states
 * only that one, and forwards the rest, including Iceberg's default methods, without repeating
 * them.
 */
abstract class ForwardingTableOperations implements TableOperations {

    private final TableOperations delegate;

    ForwardingTableOperations(TableOperations delegate) {
        this.delegate = delegate;
    }

    /** The operations calls are forwarded to. */
    protected final TableOperations delegate() {
        return delegate;
    }

    @Override
    public void commit(TableMetadata base, TableMetadata metadata) {
        delegate.commit(base, metadata);
    }

    @Override
    public boolean requireStrictCleanup() {
        return delegate.requireStrictCleanup();
    }

    @Override
    public TableMetadata current() {
        return delegate.current();
    }

    @Override
    public TableMetadata refresh() {
        return delegate.refresh();
    }

    @Override
    public FileIO io() {
        return delegate.io();
    }

    @Override
    public EncryptionManager encryption() {
        return delegate.encryption();
    }

    @Override
    public String metadataFileLocation(String fileName) {
        return delegate.metadataFileLocation(fileName);
    }

    @Override
    public LocationProvider locationProvider() {
        return delegate.locationProvider();
    }

    @Override
    public TableOperations temp(TableMetadata uncommittedMetadata) {
        return delegate.temp(uncommittedMetadata);
    }

    @Override
    public long newSnapshotId() {
        return delegate.newSnapshotId();
    }
}
