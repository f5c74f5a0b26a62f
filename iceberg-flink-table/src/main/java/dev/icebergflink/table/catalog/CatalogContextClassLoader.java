package dev.icebergflink.table.catalog;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import org.apache.iceberg.catalog.Catalog.TableBuilder;

/**
 * Runs every call of an Iceberg catalog interface with the catalog's own class loader as the
 * thread's context class loader.
 *
 * <p>Why it exists: Iceberg finds classes by name through the context class loader not only when it
 * builds a catalog but also later, lazily, e.g. {@code S3FileIO} loads its HTTP client
 * configuration class when it first touches S3 (during {@code createTable} or {@code loadTable}).
 * When the connector and {@code iceberg-aws} come with the SQL client's {@code -j} or {@code ADD
 * JAR}, Flink runs catalog operations with a context class loader that does not see them, and the
 * call fails with {@code Cannot create org.apache.iceberg.aws.ApacheHttpClientConfigurations}.
 */
final class CatalogContextClassLoader {

    private CatalogContextClassLoader() {}

    /**
     * A proxy of {@code target} as {@code type} whose calls run with {@code loader} as context
     * class loader (the previous one is restored afterwards), and so are the {@link TableBuilder}s
     * it returns; exceptions pass through unchanged.
     */
    static <T> T wrap(T target, Class<T> type, ClassLoader loader) {
        Object proxy =
                Proxy.newProxyInstance(
                        type.getClassLoader(),
                        new Class<?>[] {type},
                        (self, method, args) -> {
                            Thread thread = Thread.currentThread();
                            ClassLoader previous = thread.getContextClassLoader();
                            thread.setContextClassLoader(loader);
                            try {
                                Object result = method.invoke(target, args);
                                // Table builders do their work (metadata writes) in create().
                                return result != null
                                                && method.getReturnType() == TableBuilder.class
                                        ? wrap((TableBuilder) result, TableBuilder.class, loader)
                                        : result;
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            } finally {
                                thread.setContextClassLoader(previous);
                            }
                        });
        return type.cast(proxy);
    }
}
