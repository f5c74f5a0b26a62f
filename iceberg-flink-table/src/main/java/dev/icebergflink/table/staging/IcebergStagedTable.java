package dev.icebergflink.table.staging;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.sink.StagedWrites;
import java.io.Closeable;
import java.io.IOException;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.TableException;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.StagedTable;
import org.apache.flink.table.connector.sink.abilities.SupportsStaging.StagingPurpose;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flink's {@link StagedTable} of an atomic {@code CREATE TABLE ... AS SELECT} or {@code [CREATE OR]
 * REPLACE TABLE ... AS SELECT} on an Iceberg catalog. Flink serializes it into the job graph and
 * calls it on the JobManager: {@link #begin()} when the job is created, {@link #commit()} when it
 * has finished, {@link #abort()} when it failed or was cancelled.
 *
 * <p>The job's sink commits nothing into the catalog: it records its files under the staging
 * location. {@link #commit()} starts the create, replace or create-or-replace transaction from the
 * same definition the writers wrote for, adds every recorded file in one snapshot and commits the
 * transaction, so the table appears, or is replaced (Iceberg's replace keeps the table's history
 * and old snapshots), with its rows in one catalog commit. {@link #abort()} deletes what the job
 * recorded and leaves the catalog untouched.
 *
 * <p>{@code CREATE TABLE IF NOT EXISTS ... AS} of a table that existed when the statement was
 * planned leaves that table as it is: the job's files are deleted at the end.
 */
@Internal
final class IcebergStagedTable implements StagedTable {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(IcebergStagedTable.class);

    /** The snapshot-summary key that names the staging the snapshot committed. */
    static final String STAGING_ID_PROPERTY = "flink.staging-id";

    private final CatalogLoader catalogLoader;
    private final TableCreation creation;
    private final StagingPurpose purpose;
    private final String tableName;
    private final boolean existedWhenPlanned;
    private final String stagingId;
    private final String stagingLocation;
    private final Schema writtenSchema;
    private final PartitionSpec writtenSpec;
    private final FileIO io;
    private final String dataLocation;

    IcebergStagedTable(
            CatalogLoader catalogLoader,
            TableCreation creation,
            StagingPurpose purpose,
            String tableName,
            boolean existedWhenPlanned,
            String stagingId,
            String stagingLocation,
            Schema writtenSchema,
            PartitionSpec writtenSpec,
            FileIO io,
            String dataLocation) {
        this.catalogLoader = catalogLoader;
        this.creation = creation;
        this.purpose = purpose;
        this.tableName = tableName;
        this.existedWhenPlanned = existedWhenPlanned;
        this.stagingId = stagingId;
        this.stagingLocation = stagingLocation;
        this.writtenSchema = writtenSchema;
        this.writtenSpec = writtenSpec;
        this.io = io;
        this.dataLocation = dataLocation;
    }

    static ValidationException alreadyExists(String tableName) {
        return new ValidationException(
                String.format(
                        "Cannot create table %s with CREATE TABLE ... AS SELECT: it already exists."
                                + " Use CREATE OR REPLACE TABLE ... AS SELECT to replace it,"
                                + " CREATE TABLE IF NOT EXISTS ... AS SELECT to keep it, or INSERT"
                                + " INTO to add rows to it",
                        tableName));
    }

    /** Checks early that the statement can still commit: the table's existence fits its purpose. */
    @Override
    public void begin() {
        boolean exists = withCatalog(catalog -> catalog.tableExists(creation.identifier()));
        if (purpose == StagingPurpose.CREATE_TABLE_AS && exists) {
            throw alreadyExists(tableName);
        }
        if (purpose == StagingPurpose.REPLACE_TABLE_AS && !exists) {
            throw new ValidationException(
                    String.format(
                            "Cannot replace table %s: it does not exist. Use CREATE TABLE ... AS"
                                    + " SELECT or CREATE OR REPLACE TABLE ... AS SELECT",
                            tableName));
        }
        LOG.info("Staging {} of table {} in {}", purpose, tableName, stagingLocation);
    }

    @Override
    public void commit() {
        StagedWrites writes = StagedWrites.read(io, stagingLocation);
        if (purpose == StagingPurpose.CREATE_TABLE_AS_IF_NOT_EXISTS && existedWhenPlanned) {
            LOG.info(
                    "Table {} existed: CREATE TABLE IF NOT EXISTS ... AS leaves it as it is and"
                            + " deletes the job's files",
                    tableName);
            writes.discard();
            return;
        }
        try {
            int files =
                    withCatalog(
                            catalog -> {
                                Transaction transaction = creation.start(catalog, purpose);
                                checkWrittenLayout(transaction.table());
                                int added =
                                        writes.appendTo(
                                                transaction,
                                                Map.of(STAGING_ID_PROPERTY, stagingId));
                                transaction.commitTransaction();
                                return added;
                            });
            LOG.info(
                    "{} of table {} committed with {} files from {} checkpoints",
                    purpose,
                    tableName,
                    files,
                    writes.checkpoints());
        } catch (CommitStateUnknownException e) {
            // the files may be part of the table now: keep them
            throw new TableException(
                    String.format(
                            "The commit of %s of table %s has an unknown outcome; check the"
                                    + " table. The staged files in %s were kept",
                            purpose, tableName, stagingLocation),
                    e);
        } catch (RuntimeException e) {
            writes.discard();
            throw new TableException(
                    String.format(
                            "Cannot commit %s of table %s: %s. The table is as it was before the"
                                    + " statement; the job's files were deleted",
                            purpose, tableName, e.getMessage()),
                    e);
        }
        writes.cleanUp();
    }

    @Override
    public void abort() {
        try {
            StagedWrites.read(io, stagingLocation).discard();
            deleteUnrecordedDataFiles();
            LOG.info("{} of table {} aborted; the job's files were deleted", purpose, tableName);
        } catch (RuntimeException e) {
            LOG.warn(
                    "{} of table {} aborted, but the files under {} could not all be deleted",
                    purpose,
                    tableName,
                    stagingLocation,
                    e);
        }
    }

    /**
     * Deletes the job's data files that no checkpoint recorded (a writer that finished while
     * another one failed), found by the staging id their names start with; only where the FileIO
     * can list ({@link SupportsPrefixOperations}), else they stay as orphan files.
     */
    private void deleteUnrecordedDataFiles() {
        if (!(io instanceof SupportsPrefixOperations prefixes)) {
            return;
        }
        Iterable<FileInfo> files;
        try {
            files = prefixes.listPrefix(dataLocation);
        } catch (RuntimeException e) {
            // nothing written yet: the data directory of a new table may not exist
            LOG.debug("Cannot list {}", dataLocation, e);
            return;
        }
        for (FileInfo file : files) {
            if (StagedLocationProvider.isStaged(file.location(), stagingId)) {
                io.deleteFile(file.location());
            }
        }
    }

    /**
     * The writers wrote with the field ids and partition spec of the transaction planned on the
     * client; the transaction started now must have the same, else the files would not match it
     * (e.g. the replaced table changed in between).
     */
    private void checkWrittenLayout(Table table) {
        if (!table.schema().sameSchema(writtenSchema)
                || table.spec().specId() != writtenSpec.specId()
                || !table.spec().compatibleWith(writtenSpec)) {
            throw new IllegalStateException(
                    String.format(
                            "the table changed while the job ran: the job wrote for schema %s"
                                    + " and partition spec %s, the table now gets schema %s and"
                                    + " spec %s",
                            writtenSchema, writtenSpec, table.schema(), table.spec()));
        }
    }

    private <T> T withCatalog(java.util.function.Function<Catalog, T> action) {
        Catalog catalog = catalogLoader.loadCatalog();
        try {
            return action.apply(catalog);
        } finally {
            if (catalog instanceof Closeable closeable) {
                try {
                    closeable.close();
                } catch (IOException e) {
                    LOG.debug("Closing the catalog of {} failed", tableName, e);
                }
            }
        }
    }

    @Override
    public String toString() {
        return "IcebergStagedTable{" + purpose + " " + tableName + ", id=" + stagingId + "}";
    }
}
