package dev.icebergflink.table.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Catalog calls see the catalog's class loader as context class loader, and only during the call.
 */
class CatalogContextClassLoaderTest {

    @Test
    void callsRunWithTheGivenLoaderWhichIsRestoredAfterwards() throws Exception {
        try (URLClassLoader catalogLoader = new URLClassLoader(new URL[0], null)) {
            Supplier<ClassLoader> seen = () -> Thread.currentThread().getContextClassLoader();
            @SuppressWarnings("unchecked")
            Supplier<ClassLoader> wrapped =
                    CatalogContextClassLoader.wrap(seen, Supplier.class, catalogLoader);
            ClassLoader before = Thread.currentThread().getContextClassLoader();

            assertThat(wrapped.get()).isSameAs(catalogLoader);
            assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(before);
        }
    }

    @Test
    void exceptionsPassThroughUnwrappedAndTheLoaderIsRestored() {
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        Runnable failing =
                () -> {
                    throw new IllegalStateException("table db.t is locked");
                };
        Runnable wrapped =
                CatalogContextClassLoader.wrap(
                        failing, Runnable.class, new URLClassLoader(new URL[0], null));

        assertThatThrownBy(wrapped::run)
                .isExactlyInstanceOf(IllegalStateException.class)
                .hasMessage("table db.t is locked");
        assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(before);
    }
}
