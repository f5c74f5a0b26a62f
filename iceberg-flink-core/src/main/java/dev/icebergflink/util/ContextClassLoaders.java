package dev.icebergflink.util;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.view.ViewBuilder;

/**
 * Runs Iceberg code with the right thread context class loader.
 *
 * <p>Why it exists: Iceberg finds classes by name through the thread's context class loader, not
 * only when it builds a catalog but also later and lazily: {@code S3FileIO}, for example, loads its
 * HTTP client configuration class when it first touches S3, inside {@code loadTable} or {@code
 * createTable}. When the connector (and {@code iceberg-aws}) arrive as a user jar (the SQL client's
 * {@code -j} or {@code ADD JAR}), Flink plans statements with a context class loader that does not
 * see them, and such calls fail with {@code Cannot create
 * org.apache.iceberg.aws.ApacheHttpClientConfigurations}. Running every catalog call with the
 * catalog's own class loader (which sees the connector's jars) avoids that, wherever the connector
 * was loaded from.
 */
@Internal
public final class ContextClassLoaders {

    private ContextClassLoaders() {}

    /**
     * Runs {@code action} with {@code loader} as context class loader, then restores the old one.
     */
    public static <T> T callWith(ClassLoader loader, Supplier<T> action) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return action.get();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /**
     * A view of {@code catalog} whose calls run with the catalog's own class loader as context
     * class loader, as do the table and view builders and transactions it returns (they write
     * metadata later, in {@code create()} or {@code commitTransaction()}). The view implements
     * every interface the catalog implements ({@code SupportsNamespaces}, {@code ViewCatalog},
     * {@code Closeable}, ...), so capability checks with {@code instanceof} keep working;
     * exceptions pass through unchanged.
     */
    public static Catalog withOwnClassLoader(Catalog catalog) {
        if (Proxy.isProxyClass(catalog.getClass())) {
            return catalog;
        }
        return proxy(catalog, catalog.getClass().getClassLoader());
    }

    /** {@code target} behind a proxy of all its interfaces whose calls run with {@code loader}. */
    static <T> T proxy(T target, ClassLoader loader) {
        Class<?>[] interfaces = interfacesOf(target.getClass());
        Object proxy =
                Proxy.newProxyInstance(
                        loader,
                        interfaces,
                        (self, method, args) -> {
                            Thread thread = Thread.currentThread();
                            ClassLoader previous = thread.getContextClassLoader();
                            thread.setContextClassLoader(loader);
                            try {
                                Object result = method.invoke(target, args);
                                return deferredWork(result) ? proxy(result, loader) : result;
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            } finally {
                                thread.setContextClassLoader(previous);
                            }
                        });
        @SuppressWarnings("unchecked")
        T typed = (T) proxy;
        return typed;
    }

    /** Results that do their I/O later, when the caller finishes them. */
    private static boolean deferredWork(Object result) {
        return result instanceof Catalog.TableBuilder
                || result instanceof ViewBuilder
                || result instanceof Transaction;
    }

    private static Class<?>[] interfacesOf(Class<?> type) {
        Set<Class<?>> interfaces = new LinkedHashSet<>();
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            collect(c, interfaces);
        }
        return interfaces.toArray(new Class<?>[0]);
    }

    private static void collect(Class<?> type, Set<Class<?>> into) {
        for (Class<?> implemented : type.getInterfaces()) {
            // A proxy can only implement public interfaces from several packages.
            if (Modifier.isPublic(implemented.getModifiers()) && into.add(implemented)) {
                collect(implemented, into);
            }
        }
    }
}
