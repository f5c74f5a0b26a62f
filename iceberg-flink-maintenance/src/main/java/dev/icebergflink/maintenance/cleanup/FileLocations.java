package dev.icebergflink.maintenance.cleanup;

import java.util.regex.Pattern;
import org.apache.flink.annotation.Internal;

/**
 * Compares file locations written by different code paths: metadata may say {@code
 * file:/warehouse/t/data/a.parquet} while a listing says {@code file:///warehouse/t/data/a.parquet}
 * or {@code /warehouse/t/data/a.parquet}.
 *
 * <p>A location is compared by its path only: scheme and authority are dropped and repeated slashes
 * collapsed. Two locations that differ only in scheme or authority therefore compare equal; for
 * orphan detection this errs on the safe side (a file is kept, never wrongly deleted).
 */
@Internal
public final class FileLocations {

    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.\\-]*:");
    private static final Pattern SLASHES = Pattern.compile("/{2,}");

    private FileLocations() {}

    /** The path part of {@code location}, the key locations are compared by. */
    public static String key(String location) {
        String rest = location;
        java.util.regex.Matcher scheme = SCHEME.matcher(rest);
        if (scheme.find()) {
            rest = rest.substring(scheme.end());
            if (rest.startsWith("//")) {
                int pathStart = rest.indexOf('/', 2);
                rest = pathStart < 0 ? "/" : rest.substring(pathStart);
            }
        }
        rest = SLASHES.matcher(rest).replaceAll("/");
        if (rest.length() > 1 && rest.endsWith("/")) {
            rest = rest.substring(0, rest.length() - 1);
        }
        return rest;
    }

    /** The scheme of {@code location} ({@code s3} of {@code s3://b/k}), or null if it has none. */
    public static String scheme(String location) {
        java.util.regex.Matcher scheme = SCHEME.matcher(location);
        return scheme.find() ? location.substring(0, scheme.end() - 1) : null;
    }

    /**
     * The authority of {@code location} ({@code b} of {@code s3://b/k}), or null if it has none or
     * an empty one ({@code file:///tmp/x}).
     */
    public static String authority(String location) {
        java.util.regex.Matcher scheme = SCHEME.matcher(location);
        String rest = scheme.find() ? location.substring(scheme.end()) : location;
        if (!rest.startsWith("//")) {
            return null;
        }
        int end = rest.indexOf('/', 2);
        String authority = end < 0 ? rest.substring(2) : rest.substring(2, end);
        return authority.isEmpty() ? null : authority;
    }

    /**
     * Whether the part of {@code location} below {@code root} has a hidden name component (starting
     * with {@code .} or {@code _}, like Hadoop checksum files or {@code _SUCCESS} markers); names
     * with {@code =} (partition folders such as {@code _key=1}) are not hidden.
     */
    public static boolean isHidden(String root, String location) {
        String rootKey = key(root);
        String key = key(location);
        String relative = key.startsWith(rootKey) ? key.substring(rootKey.length()) : key;
        for (String name : relative.split("/")) {
            if (!name.isEmpty()
                    && (name.startsWith(".") || name.startsWith("_"))
                    && !name.contains("=")) {
                return true;
            }
        }
        return false;
    }
}
