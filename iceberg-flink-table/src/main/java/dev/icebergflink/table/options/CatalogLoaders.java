package dev.icebergflink.table.options;

import dev.icebergflink.CatalogLoader;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.hadoop.conf.Configuration;

/**
 * Turns validated {@link CatalogSettings} into the {@link CatalogLoader} of their Iceberg catalog:
 * Hive, Hadoop, REST or the custom {@code catalog-impl}, with the pass-through properties.
 *
 * <p>It exists so that the catalogs of {@code CREATE CATALOG} and the {@code 'connector'='iceberg'}
 * tables, which name their catalog in their own options, build the same Iceberg catalog from the
 * same settings.
 */
@Internal
public final class CatalogLoaders {

    private CatalogLoaders() {}

    /**
     * The loader of the catalog {@code settings} describe, with the Hadoop configuration built as
     * for a catalog ({@link CatalogHadoopConf}) in a process configured with {@code flinkConfig}.
     *
     * @throws ValidationException when a required property is missing or malformed
     */
    public static CatalogLoader of(CatalogSettings settings, ReadableConfig flinkConfig) {
        return of(settings, CatalogHadoopConf.build(settings, flinkConfig));
    }

    /**
     * The loader of the catalog {@code settings} describe, running with {@code hadoopConf}.
     *
     * @throws ValidationException when a required property ({@code warehouse} for Hadoop, {@code
     *     uri} for REST) is missing or malformed
     */
    public static CatalogLoader of(CatalogSettings settings, Configuration hadoopConf) {
        String name = settings.catalogName();
        try {
            if (settings.catalogImpl() != null) {
                return CatalogLoader.custom(
                        name, settings.catalogProperties(), hadoopConf, settings.catalogImpl());
            }
            switch (settings.catalogType()) {
                case FlinkCatalogOptions.TYPE_HADOOP:
                    return CatalogLoader.hadoop(name, hadoopConf, settings.catalogProperties());
                case FlinkCatalogOptions.TYPE_REST:
                    return CatalogLoader.rest(name, hadoopConf, settings.catalogProperties());
                case FlinkCatalogOptions.TYPE_HIVE:
                default:
                    return CatalogLoader.hive(name, hadoopConf, settings.catalogProperties());
            }
        } catch (IllegalArgumentException e) {
            // CatalogLoader's messages name the catalog and the property and mask secrets.
            throw new ValidationException(e.getMessage(), e);
        }
    }
}
