package dev.icebergflink.table.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.icebergflink.CatalogLoader;
import dev.icebergflink.table.options.CatalogSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.factories.FactoryUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Option validation of {@code CREATE CATALOG ... WITH ('type'='iceberg', ...)}. */
class FlinkCatalogFactoryTest {

    @TempDir Path warehouse;

    @Test
    void isDiscoveredByItsIdentifierAndBuildsTheLoader() {
        Map<String, String> options = hadoopOptions();
        options.put("io-impl", "org.apache.iceberg.hadoop.HadoopFileIO");
        options.put("my-additional-catalog-config", "my-value");
        options.put("property-version", "1");
        options.put("cache.expiration-interval-ms", "-1");

        Catalog catalog = create(options);

        assertThat(catalog).isInstanceOf(FlinkCatalog.class);
        CatalogLoader loader = ((FlinkCatalog) catalog).catalogLoader();
        assertThat(loader.type()).isEqualTo("hadoop");
        assertThat(loader.name()).isEqualTo("c");
        assertThat(loader.properties())
                .containsEntry("warehouse", warehouse.toUri().toString())
                .containsEntry("io-impl", "org.apache.iceberg.hadoop.HadoopFileIO")
                .containsEntry("my-additional-catalog-config", "my-value")
                .doesNotContainKeys(
                        "type",
                        "catalog-type",
                        "property-version",
                        "cache-enabled",
                        "cache.expiration-interval-ms");
        assertThat(catalog.getDefaultDatabase()).isEqualTo("default");
    }

    @Test
    void theDefaultCatalogTypeIsHive() {
        FlinkCatalog catalog = (FlinkCatalog) create(new HashMap<>(Map.of("type", "iceberg")));
        assertThat(catalog.catalogLoader().type()).isEqualTo("hive");
    }

    @Test
    void customCatalogImplementationsGetEveryPassThroughProperty() {
        Map<String, String> options = new HashMap<>();
        options.put("type", "iceberg");
        options.put("catalog-impl", "org.apache.iceberg.jdbc.JdbcCatalog");
        options.put("uri", "jdbc:sqlite::memory:");
        options.put("jdbc.schema-version", "V1");
        options.put("warehouse", warehouse.toUri().toString());

        CatalogLoader loader = ((FlinkCatalog) create(options)).catalogLoader();

        assertThat(loader.type()).isEqualTo("custom");
        assertThat(loader.implementation()).isEqualTo("org.apache.iceberg.jdbc.JdbcCatalog");
        assertThat(loader.properties())
                .containsEntry("jdbc.schema-version", "V1")
                .containsEntry("uri", "jdbc:sqlite::memory:");
    }

    @Test
    void unknownKeysWithAReservedPrefixAreErrorsListingTheValidKeys() {
        Map<String, String> options = hadoopOptions();
        options.put("catalog-tpye", "hadoop");
        options.put("cache-expiration", "10");

        assertValidation(options)
                .contains("unknown options 'cache-expiration'")
                .contains("'catalog-tpye' (did you mean 'catalog-type'?)")
                .contains(
                        "type, base-namespace, cache-enabled, cache.case-sensitive,"
                                + " cache.expiration-interval-ms, catalog-impl, catalog-type,"
                                + " clients, credential-secret, default-database, hadoop-conf-dir,"
                                + " hive-conf-dir,"
                                + " property-version, uri, warehouse");
    }

    @Test
    void misspellingsOfTheCatalogsOwnKeysAreErrors() {
        Map<String, String> options = hadoopOptions();
        options.put("default-databse", "sales");
        assertValidation(options).contains("'default-databse' (did you mean 'default-database'?)");
    }

    @Test
    void catalogTypeAndCatalogImplTogetherAreAnError() {
        Map<String, String> options = hadoopOptions();
        options.put("catalog-impl", "org.apache.iceberg.jdbc.JdbcCatalog");
        assertValidation(options)
                .contains("set either 'catalog-type'")
                .contains("or 'catalog-impl'")
                .contains("not both");
    }

    @Test
    void unknownCatalogTypesPointToCatalogImpl() {
        Map<String, String> options = hadoopOptions();
        options.put("catalog-type", "jdbc");
        assertValidation(options)
                .contains("unknown 'catalog-type'='jdbc'")
                .contains("[hive, hadoop, rest]")
                .contains("'catalog-impl'='org.apache.iceberg.jdbc.JdbcCatalog'");
    }

    @Test
    void requiredPropertiesOfEachCatalogType() {
        assertValidation(Map.of("type", "iceberg", "catalog-type", "hadoop"))
                .contains("'warehouse' property is required for hadoop catalog 'c'");
        assertValidation(Map.of("type", "iceberg", "catalog-type", "rest"))
                .contains("'uri' property is required for rest catalog 'c'");
        assertValidation(Map.of("type", "iceberg", "uri", "http://metastore:9083"))
                .contains("must list thrift URIs");
    }

    @Test
    void badValuesNameTheOptionAndWhatIsExpected() {
        Map<String, String> options = hadoopOptions();
        options.put("cache-enabled", "yes");
        assertValidation(options)
                .contains("invalid value 'yes' for option 'cache-enabled': expected true or false");

        options = hadoopOptions();
        options.put("clients", "many");
        assertValidation(options).contains("invalid value 'many' for option 'clients'");

        options = hadoopOptions();
        options.put("property-version", "2");
        assertValidation(options).contains("the only property version is 1");

        options = hadoopOptions();
        options.put("base-namespace", "a..b");
        assertValidation(options).contains("'base-namespace'='a..b' has an empty level");
    }

    @Test
    void cacheSettings() {
        assertThat(settings(hadoopOptions()).cacheEnabled()).isTrue();
        assertThat(settings(hadoopOptions()).cacheExpirationMs()).isEqualTo(30_000L);

        Map<String, String> off = hadoopOptions();
        off.put("cache.expiration-interval-ms", "0");
        assertThat(settings(off).cacheEnabled()).isFalse();

        Map<String, String> disabled = hadoopOptions();
        disabled.put("cache-enabled", "false");
        assertThat(settings(disabled).cacheEnabled()).isFalse();
    }

    @Test
    void databasesLiveUnderTheBaseNamespace() {
        Map<String, String> options = hadoopOptions();
        options.put("base-namespace", "lake.prod");
        options.put("default-database", "sales");
        FlinkCatalog catalog = (FlinkCatalog) create(options);

        assertThat(catalog.getDefaultDatabase()).isEqualTo("sales");
        assertThat(
                        catalog.toIdentifier(
                                        new org.apache.flink.table.catalog.ObjectPath("db", "t"))
                                .toString())
                .isEqualTo("lake.prod.db.t");
    }

    /**
     * Flink's own wrapper around a failed catalog creation lists the options and masks only the
     * keys Flink deems sensitive; our messages and {@code toString()}s mask every secret.
     */
    @Test
    void secretsNeverAppearInToStringOrInOurErrors() {
        Map<String, String> options = new HashMap<>();
        options.put("type", "iceberg");
        options.put("catalog-type", "rest");
        options.put("uri", "http://alice:SuperSecret1@127.0.0.1:8181");
        options.put("credential", "client:SuperSecret2");
        options.put("s3.secret-access-key", "SuperSecret3");
        options.put("token", "SuperSecret4");

        FlinkCatalog catalog = (FlinkCatalog) create(options);
        assertThat(catalog.toString())
                .contains("credential")
                .contains("s3.secret-access-key")
                .doesNotContain("SuperSecret");
        assertThat(settings(options).toString()).doesNotContain("SuperSecret");

        options.put("catalog-token", "SuperSecret5");
        Throwable error = catchCreate(options);
        for (Throwable cause : causes(error)) {
            if (cause instanceof ValidationException && cause != error) {
                assertThat(cause.getMessage()).doesNotContain("SuperSecret");
            }
        }
    }

    /**
     * Flink lists the options of a catalog whose creation failed, hiding only keys with words such
     * as {@code secret}, {@code password} or {@code token}: Iceberg's {@code credential} shows, the
     * same value under {@code credential-secret} does not, and still reaches Iceberg as {@code
     * credential}.
     */
    @Test
    void theCredentialUnderCredentialSecretIsHiddenByFlinkAndPassedOnAsCredential() {
        Map<String, String> options = hadoopOptions();
        options.put("credential-secret", "client:SuperSecret7");
        CatalogLoader loader = ((FlinkCatalog) create(options)).catalogLoader();
        assertThat(loader.properties())
                .containsEntry("credential", "client:SuperSecret7")
                .doesNotContainKey("credential-secret");

        options.put("cache.expiration-interval-ms", "soon");
        Throwable hidden = catchCreate(options);
        assertThat(fullText(hidden)).contains("credential-secret").doesNotContain("SuperSecret7");

        options.remove("credential-secret");
        options.put("credential", "client:SuperSecret8");
        assertThat(fullText(catchCreate(options)))
                .as("Flink's own listing shows 'credential' (why the other key exists)")
                .contains("SuperSecret8");
    }

    @Test
    void credentialAndCredentialSecretMustNotDisagree() {
        Map<String, String> options = hadoopOptions();
        options.put("credential-secret", "client:SuperSecret7");
        options.put("credential", "client:SuperSecret7");
        assertThat(((FlinkCatalog) create(options)).catalogLoader().properties())
                .containsEntry("credential", "client:SuperSecret7");

        options.put("credential", "client:OtherSecret");
        // our message names both keys and neither value (Flink's own listing around it shows
        // 'credential', which the user set here, and hides 'credential-secret')
        assertValidation(options)
                .contains("'credential-secret' and 'credential' are both set, to different values")
                .doesNotContain("SuperSecret7")
                .doesNotContain("OtherSecret");
        assertThat(fullText(catchCreate(options))).doesNotContain("SuperSecret7");
    }

    /** Every message of the chain and its stack trace text, as a user or a log would see it. */
    private static String fullText(Throwable error) {
        java.io.StringWriter text = new java.io.StringWriter();
        error.printStackTrace(new java.io.PrintWriter(text));
        return text.toString();
    }

    // ------------------------------------------------------------------ helpers

    private Map<String, String> hadoopOptions() {
        Map<String, String> options = new HashMap<>();
        options.put("type", "iceberg");
        options.put("catalog-type", "hadoop");
        options.put("warehouse", warehouse.toUri().toString());
        return options;
    }

    private static Catalog create(Map<String, String> options) {
        return FactoryUtil.createCatalog(
                "c", options, new Configuration(), FlinkCatalogFactoryTest.class.getClassLoader());
    }

    private static CatalogSettings settings(Map<String, String> options) {
        return CatalogSettings.parse("c", options);
    }

    private static Throwable catchCreate(Map<String, String> options) {
        try {
            create(options);
        } catch (Throwable t) {
            return t;
        }
        throw new AssertionError("Expected creating the catalog to fail: " + options.keySet());
    }

    /** The message of the factory's own {@link ValidationException} (Flink wraps it). */
    private static org.assertj.core.api.AbstractStringAssert<?> assertValidation(
            Map<String, String> options) {
        Throwable error = catchCreate(new HashMap<>(options));
        List<Throwable> chain = causes(error);
        Throwable ours =
                chain.stream()
                        .filter(t -> t instanceof ValidationException)
                        .reduce((first, second) -> second)
                        .orElseThrow(() -> new AssertionError("No ValidationException", error));
        assertThatThrownBy(
                        () -> {
                            throw ours;
                        })
                .isInstanceOf(ValidationException.class);
        return assertThat(ours.getMessage());
    }

    private static List<Throwable> causes(Throwable error) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = error; t != null && !chain.contains(t); t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }
}
