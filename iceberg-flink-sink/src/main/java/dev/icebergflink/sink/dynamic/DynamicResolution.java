package dev.icebergflink.sink.dynamic;

import java.io.Closeable;
import java.io.IOException;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.catalog.Catalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The resolution of {@link DynamicRecord}s in one operator instance: its catalog, its table cache,
 * its {@link RecordResolver} and its {@link RecordRouting}.
 *
 * <p>It exists because two operators resolve records: the one that runs the generator (records
 * whose table takes them as it is, or every record with {@code immediateTableUpdate}) and the one,
 * keyed by table, that makes the changes the other records need.
 */
@Internal
final class DynamicResolution implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(DynamicResolution.class);

    private final Catalog catalog;
    private final RecordResolver resolver;
    private final RecordRouting routing;

    DynamicResolution(DynamicSinkSettings settings) {
        this.catalog = settings.catalogLoader().loadCatalog();
        TableMetadataCache cache =
                new TableMetadataCache(
                        catalog,
                        settings.cacheMaxSize(),
                        settings.cacheRefreshMs(),
                        System::currentTimeMillis);
        TableUpdater updater =
                new TableUpdater(
                        catalog,
                        cache,
                        settings.tableCreator(),
                        settings.caseSensitive(),
                        settings.dropUnusedColumns());
        this.resolver =
                new RecordResolver(
                        updater,
                        cache,
                        settings.inputSchemasPerTableCacheMaxSize(),
                        settings.caseSensitive());
        this.routing = new RecordRouting(settings.defaultBranch());
    }

    /** The record for the writers, changing its table first where it needs that. */
    ResolvedRecord resolve(DynamicRecord record) {
        return routing.route(record, resolver.resolve(record));
    }

    /** The record for the writers when its table takes it as it is; empty otherwise. */
    Optional<ResolvedRecord> resolveWithoutChanges(DynamicRecord record) {
        return resolver.resolveWithoutChanges(record).map(r -> routing.route(record, r));
    }

    @Override
    public void close() throws IOException {
        if (catalog instanceof Closeable closeable) {
            try {
                closeable.close();
            } catch (IOException e) {
                LOG.debug("Closing the catalog failed", e);
            }
        }
    }
}
