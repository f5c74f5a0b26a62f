package dev.icebergflink.table.catalog;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.table.options.CatalogHadoopConf;
import dev.icebergflink.table.options.CatalogLoaders;
import dev.icebergflink.table.options.CatalogSettings;
import dev.icebergflink.table.options.FlinkCatalogOptions;
import dev.icebergflink.table.options.QueryPaths;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.hadoop.conf.Configuration;

/**
 * Creates the Iceberg catalog of {@code CREATE CATALOG c WITH ('type'='iceberg', ...)} (also from a
 * SQL client {@code -i init.sql} file or a catalog store).
 *
 * <p>It validates the options (see {@link FlinkCatalogOptions} for the keys and the pass-through
 * rule), builds the Hadoop configuration (see {@link CatalogHadoopConf}), turns the options into a
 * {@link CatalogLoader} and returns a {@link FlinkCatalog} over it. Errors are {@link
 * ValidationException}s that name the option and never show secret values.
 *
 * <p>Subclass it and override {@link #createCatalogLoader} to build catalogs some other way; the
 * subclass is registered under its own {@link #factoryIdentifier()} in {@code
 * META-INF/services/org.apache.flink.table.factories.Factory}.
 */
@PublicEvolving
public class FlinkCatalogFactory implements CatalogFactory {

    /** The factory identifier: {@code 'type'='iceberg'}. */
    public static final String IDENTIFIER = "iceberg";

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return new LinkedHashSet<>(FlinkCatalogOptions.ALL);
    }

    @Override
    public Catalog createCatalog(Context context) {
        QueryPaths.checkCatalogOptions(
                context.getName(), context.getOptions(), context.getConfiguration());
        CatalogSettings settings = CatalogSettings.parse(context.getName(), context.getOptions());
        Configuration hadoopConf = CatalogHadoopConf.build(settings, context.getConfiguration());
        CatalogLoader loader = createCatalogLoader(settings, hadoopConf);
        return new FlinkCatalog(settings, loader, QueryPaths.allowed(context.getConfiguration()));
    }

    /**
     * The loader of the Iceberg catalog behind a Flink catalog: Hive, Hadoop, REST or the custom
     * {@code catalog-impl}, with the pass-through properties.
     *
     * @throws ValidationException when a required property ({@code warehouse} for Hadoop, {@code
     *     uri} for REST) is missing or malformed
     */
    protected CatalogLoader createCatalogLoader(
            CatalogSettings settings, Configuration hadoopConf) {
        return CatalogLoaders.of(settings, hadoopConf);
    }
}
