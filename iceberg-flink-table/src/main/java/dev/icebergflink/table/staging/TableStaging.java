package dev.icebergflink.table.staging;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.TableLoader;
import java.util.UUID;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.StagedTable;
import org.apache.flink.table.connector.sink.abilities.SupportsStaging.StagingPurpose;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.util.LocationUtil;

/**
 * The staging of one atomic {@code CREATE TABLE ... AS SELECT} or {@code [CREATE OR] REPLACE TABLE
 * ... AS SELECT}, planned on the client: the new table's definition, the metadata the writers write
 * for ({@link #table()}, from an uncommitted create or replace transaction), and a staging
 * directory of its own, named by a new id.
 *
 * <p>It exists because Flink plans such a statement's sink from the new table's definition before
 * any table is created or replaced: the sink writes data files for the staged metadata, and the
 * {@link StagedTable} of {@link #stage} creates or replaces the table with those files when the job
 * has finished.
 */
@Internal
public final class TableStaging {

    /** The prefix of the staging directory's name, in the table's metadata directory. */
    static final String STAGING_PREFIX = "flink-staging-";

    private final CatalogLoader catalogLoader;
    private final TableCreation creation;
    private final String tableName;
    private final boolean exists;
    private final String stagingId;
    private final String stagingLocation;
    private final Table table;

    private TableStaging(
            CatalogLoader catalogLoader,
            TableCreation creation,
            String tableName,
            boolean exists,
            String stagingId,
            String stagingLocation,
            Table table) {
        this.catalogLoader = catalogLoader;
        this.creation = creation;
        this.tableName = tableName;
        this.exists = exists;
        this.stagingId = stagingId;
        this.stagingLocation = stagingLocation;
        this.table = table;
    }

    /**
     * Plans the staging of {@code creation} in the open {@code catalog}: starts the transaction
     * that a create (table missing) or a create-or-replace (table present) would commit, and keeps
     * a copy of its table; nothing is written.
     *
     * @param catalogLoader the loader of the same catalog, for the JobManager
     * @param tableName the table's name in messages
     * @throws ValidationException when Iceberg refuses the definition
     */
    public static TableStaging plan(
            Catalog catalog,
            CatalogLoader catalogLoader,
            TableCreation creation,
            String tableName) {
        boolean exists = catalog.tableExists(creation.identifier());
        Transaction transaction;
        try {
            transaction =
                    creation.start(
                            catalog,
                            exists
                                    ? StagingPurpose.CREATE_OR_REPLACE_TABLE_AS
                                    : StagingPurpose.CREATE_TABLE_AS);
        } catch (IllegalArgumentException
                | UnsupportedOperationException
                | org.apache.iceberg.exceptions.ValidationException e) {
            throw new ValidationException(
                    String.format("Cannot create table %s: %s", tableName, e.getMessage()), e);
        }
        Table staged = transaction.table();
        String stagingId = UUID.randomUUID().toString();
        String stagingLocation = stagingLocation(staged, STAGING_PREFIX + stagingId);
        return new TableStaging(
                catalogLoader,
                creation,
                tableName,
                exists,
                stagingId,
                stagingLocation,
                new StagedTableCopy(staged, stagingLocation, stagingId));
    }

    private static String stagingLocation(Table staged, String name) {
        if (staged instanceof HasTableOperations ops) {
            return ops.operations().metadataFileLocation(name);
        }
        return staged.location() + "/metadata/" + name;
    }

    /** Where the table's data files go: {@code write.data.path}, else {@code <location>/data}. */
    private static String dataLocation(Table table) {
        String path = table.properties().get(TableProperties.WRITE_DATA_LOCATION);
        return LocationUtil.stripTrailingSlash(
                path != null && !path.isBlank() ? path : table.location() + "/data");
    }

    /** The metadata the writers write for (the new schema, spec, location, properties). */
    public Table table() {
        return table;
    }

    /** A loader that hands out {@link #table()}, for the sink's operators. */
    public TableLoader loader() {
        return new StagedTableLoader(table);
    }

    /** The directory where the sink records its checkpoints and temporary manifests. */
    public String stagingLocation() {
        return stagingLocation;
    }

    /**
     * The {@link StagedTable} of the statement.
     *
     * @throws ValidationException for {@code CREATE TABLE ... AS} of a table that exists
     */
    public StagedTable stage(StagingPurpose purpose) {
        if (purpose == StagingPurpose.CREATE_TABLE_AS && exists) {
            throw IcebergStagedTable.alreadyExists(tableName);
        }
        return new IcebergStagedTable(
                catalogLoader,
                creation,
                purpose,
                tableName,
                exists,
                stagingId,
                stagingLocation,
                table.schema(),
                table.spec(),
                table.io(),
                dataLocation(table));
    }
}
