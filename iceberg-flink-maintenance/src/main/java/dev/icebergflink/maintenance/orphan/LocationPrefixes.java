package dev.icebergflink.maintenance.orphan;

import dev.icebergflink.maintenance.cleanup.FileLocations;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * Decides whether a listed file and a referenced location with the same path are the same file,
 * judging by their schemes and authorities: equal after mapping each through the user's
 * equivalences, or missing on either side (a location without scheme or authority matches any).
 *
 * <p>It exists because one file can be spelled several ways ({@code s3a://b/k} by a Hadoop listing,
 * {@code s3://b/k} in metadata); orphan detection must not mistake such a file for an orphan, and
 * must not silently keep a file that is really another one either.
 */
@Internal
public final class LocationPrefixes implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Schemes taken as one by default: Hadoop's S3 connectors and the plain S3 scheme. */
    public static final Map<String, String> DEFAULT_EQUAL_SCHEMES = Map.of("s3a,s3n", "s3");

    private final HashMap<String, String> schemes;
    private final HashMap<String, String> authorities;

    /**
     * @param equalSchemes each key (one scheme, or several separated by commas) is taken to be the
     *     scheme it maps to
     * @param equalAuthorities each key (one authority, or several separated by commas) is taken to
     *     be the authority it maps to
     */
    public LocationPrefixes(
            Map<String, String> equalSchemes, Map<String, String> equalAuthorities) {
        this.schemes = flatten(equalSchemes, true);
        this.authorities = flatten(equalAuthorities, false);
    }

    /** Whether {@code listed} and {@code referenced}, whose paths are equal, are the same file. */
    public boolean sameFile(String listed, String referenced) {
        return same(scheme(listed), scheme(referenced))
                && same(authority(listed), authority(referenced));
    }

    private String scheme(String location) {
        String scheme = FileLocations.scheme(location);
        if (scheme == null) {
            return null;
        }
        String lower = scheme.toLowerCase(Locale.ROOT);
        return schemes.getOrDefault(lower, lower);
    }

    private String authority(String location) {
        String authority = FileLocations.authority(location);
        return authority == null ? null : authorities.getOrDefault(authority, authority);
    }

    private static boolean same(String one, String other) {
        return one == null || other == null || one.equals(other);
    }

    private static HashMap<String, String> flatten(Map<String, String> equal, boolean lowerCase) {
        HashMap<String, String> flat = new HashMap<>();
        for (Map.Entry<String, String> entry : equal.entrySet()) {
            String target = lowerCase ? lower(entry.getValue()) : entry.getValue().trim();
            for (String alias : entry.getKey().split(",")) {
                String name = lowerCase ? lower(alias) : alias.trim();
                if (!name.isEmpty()) {
                    flat.put(name, target);
                }
            }
        }
        return flat;
    }

    private static String lower(String name) {
        return name.trim().toLowerCase(Locale.ROOT);
    }
}
