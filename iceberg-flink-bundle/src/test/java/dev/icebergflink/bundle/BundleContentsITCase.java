package dev.icebergflink.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Checks what the shaded jar holds: the connector, Iceberg and the file formats; no Flink, Hadoop
 * or logging classes; every third-party library either relocated under {@code
 * dev/icebergflink/shaded/} or on the short list of packages that stay put; and merged service
 * files that list every factory our modules register.
 *
 * <p>It is an {@code ITCase} because it needs the jar that {@code package} builds.
 */
class BundleContentsITCase {

    private static final String SHADED = "dev/icebergflink/shaded/";

    /**
     * The packages the bundle carries without relocation, and why: our own code; Iceberg, Parquet
     * and ORC, which are what the jar is for and which Hadoop configuration and users name by
     * class; Avro, whose types our GenericRecord API shares with flink-avro; snappy-java and
     * zstd-jni, whose JNI code is bound to their package names.
     */
    private static final List<String> UNRELOCATED_ROOTS =
            List.of(
                    "dev/icebergflink/",
                    "org/apache/iceberg/",
                    "org/apache/parquet/",
                    "org/apache/orc/",
                    "org/apache/avro/",
                    "org/xerial/snappy/",
                    "com/github/luben/zstd/");

    /**
     * Relocated packages, each with a class that must be found at its relocated place (a content
     * check that the library is really inside, not just absent).
     */
    private static final Map<String, String> RELOCATED =
            Map.ofEntries(
                    Map.entry(
                            "com/fasterxml/jackson/",
                            "com/fasterxml/jackson/databind/ObjectMapper"),
                    Map.entry(
                            "com/github/benmanes/caffeine/",
                            "com/github/benmanes/caffeine/cache/Caffeine"),
                    Map.entry("org/roaringbitmap/", "org/roaringbitmap/RoaringBitmap"),
                    Map.entry(
                            "org/apache/hc/",
                            "org/apache/hc/client5/http/impl/classic/HttpClients"),
                    Map.entry("io/airlift/", "io/airlift/compress/Compressor"),
                    Map.entry("org/threeten/", "org/threeten/extra/YearQuarter"),
                    Map.entry("org/apache/commons/lang3/", "org/apache/commons/lang3/StringUtils"),
                    Map.entry(
                            "org/apache/commons/compress/",
                            "org/apache/commons/compress/compressors/CompressorStreamFactory"),
                    Map.entry("org/apache/commons/io/", "org/apache/commons/io/IOUtils"),
                    Map.entry("org/apache/commons/codec/", "org/apache/commons/codec/binary/Hex"),
                    Map.entry("org/apache/commons/pool/", "org/apache/commons/pool/ObjectPool"),
                    Map.entry("org/locationtech/jts/", "org/locationtech/jts/geom/Geometry"),
                    Map.entry(
                            "org/apache/flink/formats/parquet/",
                            "org/apache/flink/formats/parquet/vector/reader/LongColumnReader"),
                    Map.entry(
                            "shaded/parquet/",
                            "shaded/parquet/com/fasterxml/jackson/databind/ObjectMapper"));

    private static final List<String> FORBIDDEN =
            List.of(
                    "org/apache/flink/",
                    "org/apache/hadoop/",
                    "org/slf4j/",
                    "org/apache/log4j/",
                    "org/apache/logging/",
                    "ch/qos/");

    private static List<String> entries;
    private static List<String> classes;

    @BeforeAll
    static void readJar() {
        entries = BundleJar.entries();
        classes = BundleJar.classEntries();
    }

    @Test
    void jarIsNamedAfterTheModuleAndVersion() {
        assertThat(BundleJar.path().getFileName().toString())
                .matches("iceberg-flink-bundle-[0-9][^/]*\\.jar")
                .doesNotStartWith("original-");
    }

    @Test
    void holdsTheConnectorIcebergAndTheFileFormats() {
        List<String> expected =
                List.of(
                        // our modules
                        "dev/icebergflink/FlinkSchemaUtil",
                        "dev/icebergflink/CatalogLoader",
                        "dev/icebergflink/source/IcebergSource",
                        "dev/icebergflink/sink/IcebergSink",
                        "dev/icebergflink/table/catalog/FlinkCatalogFactory",
                        "dev/icebergflink/maintenance/package-info",
                        // Iceberg: api, core, common, bundled guava, data, parquet, orc,
                        // hive-metastore
                        "org/apache/iceberg/Schema",
                        "org/apache/iceberg/hadoop/HadoopCatalog",
                        "org/apache/iceberg/rest/RESTCatalog",
                        "org/apache/iceberg/common/DynConstructors",
                        "org/apache/iceberg/relocated/com/google/common/collect/ImmutableList",
                        "org/apache/iceberg/data/GenericRecord",
                        "org/apache/iceberg/parquet/Parquet",
                        "org/apache/iceberg/orc/ORC",
                        "org/apache/iceberg/hive/HiveCatalog",
                        // file formats and codecs
                        "org/apache/parquet/hadoop/ParquetFileWriter",
                        "org/apache/parquet/avro/AvroParquetWriter",
                        "org/apache/orc/OrcFile",
                        "org/apache/orc/storage/ql/exec/vector/VectorizedRowBatch",
                        "org/apache/avro/Schema",
                        "org/xerial/snappy/Snappy",
                        "com/github/luben/zstd/Zstd");
        assertThat(entries)
                .containsAll(expected.stream().map(name -> name + ".class").toList())
                // the JNI libraries of the codecs, for the platform the tests run on at least
                .contains("org/xerial/snappy/native/Linux/x86_64/libsnappyjava.so")
                .anyMatch(name -> name.matches("linux/amd64/libzstd-jni-.*\\.so"));
    }

    @Test
    void holdsNoFlinkHadoopHiveOrLoggingClasses() {
        List<String> offending =
                classes.stream().filter(name -> startsWithAny(name, FORBIDDEN)).toList();
        assertThat(offending)
                .as("Flink, Hadoop (including Hive) and logging classes come from the cluster")
                .isEmpty();
    }

    @Test
    void everyThirdPartyClassIsRelocatedOrOnTheUnrelocatedList() {
        List<String> outside =
                classes.stream()
                        .filter(name -> !startsWithAny(name, UNRELOCATED_ROOTS))
                        .limit(20)
                        .toList();
        assertThat(outside)
                .as(
                        "classes outside %s: relocate their package under %s in the bundle's pom",
                        UNRELOCATED_ROOTS, SHADED)
                .isEmpty();
        assertThat(entries)
                .as("no multi-release or module entries: Shade would leave them unrelocated")
                .noneMatch(name -> name.startsWith("META-INF/versions/"))
                .noneMatch(name -> name.endsWith("module-info.class"));
    }

    @Test
    void relocatedLibrariesAreInsideUnderTheShadedPrefix() {
        for (Map.Entry<String, String> relocation : RELOCATED.entrySet()) {
            String original = relocation.getKey();
            assertThat(entries)
                    .as("unrelocated %s", original)
                    .noneMatch(name -> name.startsWith(original));
            assertThat(entries).contains(relocated(relocation.getValue()) + ".class");
        }
    }

    /**
     * Relocation must rewrite references too, not only move classes: no class of the jar may refer
     * to a type of a relocated package at its original place (in its super types, fields, method
     * descriptors, signatures, annotations or class constants).
     */
    @Test
    void noClassReferencesARelocatedPackageAtItsOriginalPlace() throws IOException {
        Set<String> offending = new TreeSet<>();
        try (ZipFile zip = new ZipFile(BundleJar.path().toFile())) {
            for (ZipEntry entry : Collections.list(zip.entries())) {
                if (!entry.getName().endsWith(".class")) {
                    continue;
                }
                try (InputStream in = zip.getInputStream(entry)) {
                    for (String type : ClassReferences.of(in.readAllBytes())) {
                        if (startsWithAny(type, List.copyOf(RELOCATED.keySet()))) {
                            offending.add(entry.getName() + " -> " + type);
                        }
                    }
                }
            }
        }
        assertThat(offending).isEmpty();
    }

    @Test
    void serviceFilesListEveryFactoryOurModulesRegister() {
        Map<String, Set<String>> ours = ReactorServiceFiles.byService();
        assertThat(ours)
                .as("our modules register the catalog factory")
                .containsKey("org.apache.flink.table.factories.Factory");
        for (Map.Entry<String, Set<String>> service : ours.entrySet()) {
            String text = BundleJar.read("META-INF/services/" + service.getKey());
            assertThat(text).as("service file %s in the bundle", service.getKey()).isNotNull();
            assertThat(BundleJar.serviceImplementations(text))
                    .as("implementations of %s in the bundle", service.getKey())
                    .containsAll(service.getValue());
        }
        String factories =
                BundleJar.read("META-INF/services/org.apache.flink.table.factories.Factory");
        assertThat(BundleJar.serviceImplementations(factories))
                .contains("dev.icebergflink.table.catalog.FlinkCatalogFactory");
    }

    @Test
    void everyServiceImplementationIsInTheJar() {
        List<String> serviceFiles =
                entries.stream()
                        .filter(name -> name.startsWith("META-INF/services/"))
                        .filter(name -> !name.endsWith("/"))
                        .toList();
        assertThat(serviceFiles)
                .contains(
                        "META-INF/services/org.apache.flink.table.factories.Factory",
                        "META-INF/services/org.apache.orc.impl.KeyProvider$Factory",
                        "META-INF/services/dev.icebergflink.shaded.com.fasterxml.jackson.core.JsonFactory");
        for (String file : serviceFiles) {
            String service = file.substring("META-INF/services/".length());
            assertThat(service.replace('.', '/'))
                    .as("service %s keeps a relocated name", service)
                    .satisfies(name -> assertThat(RELOCATED.keySet()).noneMatch(name::startsWith));
            Set<String> implementations = BundleJar.serviceImplementations(BundleJar.read(file));
            assertThat(implementations).as("implementations in %s", file).isNotEmpty();
            for (String implementation : implementations) {
                assertThat(entries)
                        .as("%s lists %s", file, implementation)
                        .contains(BundleJar.classEntry(implementation));
            }
        }
    }

    @Test
    void carriesTheLicenseAndOneMergedNotice() {
        assertThat(BundleJar.read("META-INF/LICENSE"))
                .contains("Apache License", "Version 2.0, January 2004")
                .as("names every bundled component that is not under the Apache License")
                .contains(
                        "zstd-jni",
                        "BSD 2-Clause License",
                        "ThreeTen-Extra",
                        "BSD 3-Clause License",
                        "JTS Topology Suite",
                        "Eclipse Distribution License 1.0");
        assertThat(BundleJar.read("META-INF/NOTICE"))
                .contains(
                        "Iceberg connector for Apache Flink",
                        "Apache Iceberg",
                        "Apache ORC",
                        "Apache Parquet",
                        "Apache Avro",
                        "Jackson");
        assertThat(entries)
                .as("one license and one notice, not one per bundled jar")
                .doesNotContain("META-INF/LICENSE.txt", "META-INF/NOTICE.txt");
    }

    private static String relocated(String original) {
        return original.startsWith("shaded/")
                ? SHADED + original.substring("shaded/".length())
                : SHADED + original;
    }

    private static boolean startsWithAny(String name, List<String> prefixes) {
        return prefixes.stream().anyMatch(name::startsWith);
    }
}
