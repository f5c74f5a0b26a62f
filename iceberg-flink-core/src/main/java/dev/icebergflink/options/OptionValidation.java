package dev.icebergflink.options;

import java.util.Collection;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;

/**
 * Finds explicit options whose keys no connector option knows: misspelt keys must fail loudly
 * instead of doing nothing (a typo that is silently ignored leaves a job running with a default the
 * user never chose).
 *
 * <p>Builders use {@link #checkKnownKeys}; the SQL layer uses {@link #unknownKeys} and {@link
 * #unknownKeysMessage} to raise its own {@code ValidationException} after removing the keys it
 * passes through to the catalog.
 */
@Internal
public final class OptionValidation {

    private OptionValidation() {}

    /**
     * Every key the given options accept: their {@link ConnectorOption#key() keys} and {@link
     * ConnectorOption#alternativeKeys() alternative keys}, sorted.
     */
    public static SortedSet<String> validKeys(Collection<? extends ConnectorOption<?>> known) {
        SortedSet<String> keys = new TreeSet<>();
        for (ConnectorOption<?> option : known) {
            keys.add(option.key());
            keys.addAll(option.alternativeKeys());
        }
        return keys;
    }

    /** The keys among {@code keys} that none of the {@code known} options accepts, sorted. */
    public static SortedSet<String> unknownKeys(
            Collection<String> keys, Collection<? extends ConnectorOption<?>> known) {
        Set<String> valid = validKeys(known);
        return keys.stream()
                .filter(key -> !valid.contains(key))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * A message naming the unknown keys, suggesting close matches, and listing the valid keys. For
     * example: {@code Unknown option 'splitsize' (did you mean 'split-size'?). Valid options are:
     * limit, split-size, streaming}.
     */
    public static String unknownKeysMessage(
            Collection<String> unknown, Collection<? extends ConnectorOption<?>> known) {
        SortedSet<String> valid = validKeys(known);
        String listed =
                new TreeSet<>(unknown)
                        .stream()
                                .map(key -> "'" + key + "'" + suggestion(key, valid))
                                .collect(Collectors.joining(", "));
        return String.format(
                "Unknown option%s %s. Valid options are: %s",
                unknown.size() == 1 ? "" : "s", listed, String.join(", ", valid));
    }

    /**
     * Fails if any key of {@code explicit} is not accepted by one of the {@code known} options.
     *
     * @throws IllegalArgumentException naming the unknown keys and listing the valid ones
     */
    public static void checkKnownKeys(
            Collection<String> explicit, Collection<? extends ConnectorOption<?>> known) {
        SortedSet<String> unknown = unknownKeys(explicit, known);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(unknownKeysMessage(unknown, known));
        }
    }

    /**
     * The valid key that {@code key} is most likely a misspelling of: at most {@code maxEdits}
     * edits away (ignoring case) and with less than half of the key changed; or {@code null}. Used
     * by the SQL layer to tell misspelt keys from keys that pass through to the catalog.
     */
    public static String likelyMisspellingOf(String key, Collection<String> valid, int maxEdits) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : valid) {
            int distance = distance(key, candidate);
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return best != null
                        && bestDistance > 0
                        && bestDistance <= maxEdits
                        && bestDistance * 2 < key.length()
                ? best
                : null;
    }

    private static String suggestion(String key, Collection<String> valid) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : valid) {
            int distance = distance(key, candidate);
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        // Close enough to be a typo: a few edits, and less than half of the key changed.
        boolean close = best != null && bestDistance <= 3 && bestDistance * 2 < key.length();
        return close ? " (did you mean '" + best + "'?)" : "";
    }

    /** Levenshtein edit distance, ignoring case. */
    private static int distance(String a, String b) {
        String x = a.toLowerCase(java.util.Locale.ROOT);
        String y = b.toLowerCase(java.util.Locale.ROOT);
        int[] previous = new int[y.length() + 1];
        int[] current = new int[y.length() + 1];
        for (int j = 0; j <= y.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= x.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= y.length(); j++) {
                int cost = x.charAt(i - 1) == y.charAt(j - 1) ? 0 : 1;
                current[j] =
                        Math.min(
                                Math.min(current[j - 1] + 1, previous[j] + 1),
                                previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[y.length()];
    }
}
