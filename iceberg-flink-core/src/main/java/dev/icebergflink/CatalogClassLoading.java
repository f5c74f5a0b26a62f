package dev.icebergflink;

import dev.icebergflink.util.ContextClassLoaders;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;

/**
 * Builds a catalog through {@link CatalogUtil#loadCatalog} with the right class loader.
 *
 * <p>Iceberg finds catalog (and FileIO) classes through the thread's context class loader. When the
 * connector arrives as a user jar (SQL client {@code -j}, {@code ADD JAR}), that loader may not see
 * the connector's classes, so Iceberg reports its own catalog classes as missing. This class picks
 * the connector's own class loader when it knows the implementation class (so the catalog links
 * against the same Iceberg classes as we do), else the context class loader (a custom catalog in
 * the job's jar), and sets it as context class loader while the catalog is built.
 */
final class CatalogClassLoading {

    private CatalogClassLoading() {}

    static Catalog load(
            String name,
            String type,
            String implementation,
            Map<String, String> properties,
            Configuration conf) {
        ClassLoader loader = classLoaderFor(name, implementation);
        try {
            // A fresh copy: catalogs may change the configuration they are given.
            return ContextClassLoaders.callWith(
                    loader,
                    () ->
                            CatalogUtil.loadCatalog(
                                    implementation, name, properties, new Configuration(conf)));
        } catch (RuntimeException | LinkageError e) {
            String missing = missingClass(e);
            if (missing == null) {
                throw e;
            }
            throw new IllegalStateException(
                    String.format(
                            "Cannot load %s catalog '%s' (%s): class %s is missing at run time.%s",
                            type,
                            name,
                            implementation,
                            missing,
                            "hive".equals(type)
                                    ? " A Hive catalog needs the Hive metastore client jars"
                                            + " (hive-metastore 2.3.x) and Hadoop on the class path."
                                    : " Add the jar that contains it to the job or to Flink's"
                                            + " lib/ directory."),
                    e);
        }
    }

    /**
     * The class named by a {@link NoClassDefFoundError} in the cause chain, or in the message
     * Iceberg builds when its reflective constructor lookup fails; {@code null} when there is none.
     */
    private static String missingClass(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof NoClassDefFoundError) {
                return t.getMessage() == null ? "?" : t.getMessage().replace('/', '.');
            }
            String message = t.getMessage();
            String marker = NoClassDefFoundError.class.getName() + ": ";
            int at = message == null ? -1 : message.indexOf(marker);
            if (at >= 0) {
                String rest = message.substring(at + marker.length());
                int end = 0;
                while (end < rest.length()
                        && (Character.isJavaIdentifierPart(rest.charAt(end))
                                || rest.charAt(end) == '/'
                                || rest.charAt(end) == '.')) {
                    end++;
                }
                return rest.substring(0, end).replace('/', '.');
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }

    private static ClassLoader classLoaderFor(String name, String implementation) {
        ClassLoader own = CatalogClassLoading.class.getClassLoader();
        if (canLoad(own, implementation)) {
            return own;
        }
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (context != null && canLoad(context, implementation)) {
            return context;
        }
        throw new IllegalArgumentException(
                String.format(
                        "Cannot find the catalog implementation class '%s' for catalog '%s' in the"
                                + " connector's class loader nor in the thread context class"
                                + " loader: check the class name and add the jar that contains"
                                + " it to the job or to Flink's lib/ directory",
                        implementation, name));
    }

    private static boolean canLoad(ClassLoader loader, String className) {
        try {
            Class.forName(className, false, loader);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        } catch (LinkageError e) {
            // The class exists but something it needs does not: report that when building it.
            return true;
        }
    }
}
