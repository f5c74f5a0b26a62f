package dev.icebergflink.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Closeable;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Calls run with the chosen context class loader, and only during the call. */
class ContextClassLoadersTest {

    @TempDir Path dir;

    @Test
    void callsRunWithTheGivenLoaderWhichIsRestoredAfterwards() throws Exception {
        try (URLClassLoader loader = new URLClassLoader(new URL[0], getClass().getClassLoader())) {
            Supplier<ClassLoader> seen = () -> Thread.currentThread().getContextClassLoader();
            ClassLoader before = Thread.currentThread().getContextClassLoader();

            assertThat(ContextClassLoaders.callWith(loader, seen)).isSameAs(loader);
            assertThat(ContextClassLoaders.proxy(seen, loader).get()).isSameAs(loader);
            assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(before);
        }
    }

    @Test
    void exceptionsPassThroughUnwrappedAndTheLoaderIsRestored() throws Exception {
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        Runnable failing =
                () -> {
                    throw new IllegalStateException("table db.t is locked");
                };
        try (URLClassLoader loader = new URLClassLoader(new URL[0], getClass().getClassLoader())) {
            Runnable wrapped = ContextClassLoaders.proxy(failing, loader);

            assertThatThrownBy(wrapped::run)
                    .isExactlyInstanceOf(IllegalStateException.class)
                    .hasMessage("table db.t is locked");
        }
        assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(before);
    }

    @Test
    void theCatalogViewKeepsTheCatalogsCapabilitiesAndWorks() throws Exception {
        HadoopCatalog hadoop = new HadoopCatalog(new Configuration(), dir.toUri().toString());
        Catalog catalog = ContextClassLoaders.withOwnClassLoader(hadoop);

        assertThat(catalog).isInstanceOf(SupportsNamespaces.class).isInstanceOf(Closeable.class);
        assertThat(ContextClassLoaders.withOwnClassLoader(catalog)).isSameAs(catalog);
        ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
        TableIdentifier id = TableIdentifier.of("db", "t");
        catalog.buildTable(
                        id, new Schema(Types.NestedField.required(1, "id", Types.LongType.get())))
                .create();
        assertThat(hadoop.tableExists(id)).isTrue();
        assertThat(catalog.loadTable(id).schema().findField("id")).isNotNull();
        ((Closeable) catalog).close();
    }
}
