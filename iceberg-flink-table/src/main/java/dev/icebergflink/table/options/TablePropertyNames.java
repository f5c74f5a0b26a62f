package dev.icebergflink.table.options;

import dev.icebergflink.options.ConnectorOption;
import dev.icebergflink.sink.FlinkWriteOptions;
import dev.icebergflink.sink.committer.IcebergCommitter;
import dev.icebergflink.source.FlinkReadOptions;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.ValidationException;
import org.apache.iceberg.TableProperties;

/**
 * Tells a misspelt Iceberg table property ({@code write.upsert.enabeld}, {@code format-verison})
 * from a custom one, so that {@code CREATE TABLE ... WITH} and {@code ALTER TABLE ... SET} reject
 * the first instead of storing a property that nothing reads.
 *
 * <p>It exists because table properties are free-form: Iceberg stores any key, so a typo in a
 * property name silently leaves the table with its default behaviour (no upserts, format version 2,
 * ...). Custom keys must keep working, so only a key that is not known but is a small edit away
 * from a known one is rejected:
 *
 * <ul>
 *   <li>Known names are every property name constant of Iceberg's {@link TableProperties} (read
 *       from the class, so they follow the Iceberg version on the class path; constants named
 *       {@code *_DEFAULT} hold default values, not names), the table properties this connector
 *       reads ({@code flink.max-continuous-empty-commits}, {@code flink.manifests.location}), the
 *       read and write option keys (which SQL also takes from table options), and {@code location},
 *       {@code partitioning}, {@code comment}, {@code current-snapshot-id} and {@code
 *       cherry-pick-snapshot-id}. Constants ending in a dot ({@code
 *       write.metadata.metrics.column.}) are prefixes: any key starting with one is known.
 *   <li>A key is a misspelling when its optimal-string-alignment distance (Levenshtein plus
 *       transposition of two adjacent characters), ignoring case, to the nearest known name is at
 *       most 1 for names of 6 to 11 characters and at most 2 for longer ones; keys near only names
 *       shorter than 6 characters are never rejected. The distance is measured against the known
 *       name, so short custom keys ({@code owner}, {@code team}) never trip it. A key that differs
 *       from a known one in case only is a misspelling too: Iceberg reads property names
 *       case-sensitively. The closest pair of real Iceberg names ({@code commit.retry.min-wait-ms}
 *       and {@code ...max-wait-ms}) are two edits apart, and both are known.
 * </ul>
 */
@Internal
public final class TablePropertyNames {

    /** The table property of the sink's manifest location (read by its committer). */
    private static final String MANIFESTS_LOCATION = "flink.manifests.location";

    private static final Set<String> NAMES;
    private static final List<String> PREFIXES;

    static {
        Set<String> names = new TreeSet<>();
        List<String> prefixes = new ArrayList<>();
        for (String name : icebergNames()) {
            if (name.endsWith(".")) {
                prefixes.add(name);
            } else {
                names.add(name);
            }
        }
        names.add(IcebergCommitter.MAX_CONTINUOUS_EMPTY_COMMITS);
        names.add(MANIFESTS_LOCATION);
        names.add("location");
        names.add(PartitionTerms.KEY);
        names.add("comment");
        names.add("current-snapshot-id");
        names.add("cherry-pick-snapshot-id");
        addKeys(names, FlinkWriteOptions.all());
        addKeys(names, FlinkReadOptions.ALL);
        NAMES = Collections.unmodifiableSet(names);
        PREFIXES = List.copyOf(prefixes);
    }

    private TablePropertyNames() {}

    /** Whether {@code key} is a known name or starts with a known prefix. */
    public static boolean isKnown(String key) {
        return NAMES.contains(key) || PREFIXES.stream().anyMatch(key::startsWith);
    }

    /**
     * The known name that {@code key} is a misspelling of, or empty for known keys and for custom
     * keys that are not near any known name.
     */
    public static Optional<String> misspellingOf(String key) {
        if (isKnown(key)) {
            return Optional.empty();
        }
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String name : NAMES) {
            int allowed = allowedEdits(name);
            if (allowed < 0 || Math.abs(name.length() - key.length()) > allowed) {
                continue;
            }
            int distance = distance(key, name, allowed);
            if (distance <= allowed && distance < bestDistance) {
                best = name;
                bestDistance = distance;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * Fails on the first misspelt key of {@code keys}.
     *
     * @param what the statement and table, e.g. {@code "Cannot create 'cat.db.t'"}
     * @throws ValidationException naming the key and the property it is probably meant to be
     */
    public static void check(String what, Iterable<String> keys) {
        List<String> problems = new ArrayList<>();
        for (String key : keys) {
            misspellingOf(key)
                    .ifPresent(
                            name ->
                                    problems.add(
                                            String.format("'%s' (did you mean '%s'?)", key, name)));
        }
        if (!problems.isEmpty()) {
            throw new ValidationException(
                    String.format(
                            "%s: table propert%s %s %s like a misspelt Iceberg table property,"
                                    + " which Iceberg would store but never read. Use the"
                                    + " suggested name; a custom property must not be within"
                                    + " one or two edits of an Iceberg property name.",
                            what,
                            problems.size() == 1 ? "y" : "ies",
                            String.join(", ", problems),
                            problems.size() == 1 ? "looks" : "look"));
        }
    }

    /** Convenience for {@link #check(String, Iterable)} over the keys of a property map. */
    public static void check(String what, Map<String, String> properties) {
        check(what, new TreeSet<>(properties.keySet()));
    }

    /** The edits a key may be away from {@code name} to count as its misspelling; -1 for none. */
    private static int allowedEdits(String name) {
        if (name.length() >= 12) {
            return 2;
        } else if (name.length() >= 6) {
            return 1;
        }
        return -1;
    }

    /**
     * The optimal-string-alignment distance of {@code a} and {@code b}, ignoring case; any value
     * above {@code limit} is returned as {@code limit + 1}.
     */
    static int distance(String a, String b, int limit) {
        String x = a.toLowerCase(Locale.ROOT);
        String y = b.toLowerCase(Locale.ROOT);
        int[] beforePrevious = new int[y.length() + 1];
        int[] previous = new int[y.length() + 1];
        int[] current = new int[y.length() + 1];
        for (int j = 0; j <= y.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= x.length(); i++) {
            current[0] = i;
            int rowMinimum = current[0];
            for (int j = 1; j <= y.length(); j++) {
                int cost = x.charAt(i - 1) == y.charAt(j - 1) ? 0 : 1;
                int value =
                        Math.min(
                                Math.min(current[j - 1] + 1, previous[j] + 1),
                                previous[j - 1] + cost);
                if (i > 1
                        && j > 1
                        && x.charAt(i - 1) == y.charAt(j - 2)
                        && x.charAt(i - 2) == y.charAt(j - 1)) {
                    value = Math.min(value, beforePrevious[j - 2] + 1);
                }
                current[j] = value;
                rowMinimum = Math.min(rowMinimum, value);
            }
            if (rowMinimum > limit) {
                return limit + 1;
            }
            int[] recycled = beforePrevious;
            beforePrevious = previous;
            previous = current;
            current = recycled;
        }
        return Math.min(previous[y.length()], limit + 1);
    }

    /** The String constants of {@link TableProperties} that are property names or prefixes. */
    private static List<String> icebergNames() {
        List<String> names = new ArrayList<>();
        for (Field field : TableProperties.class.getFields()) {
            int modifiers = field.getModifiers();
            if (!Modifier.isStatic(modifiers)
                    || field.getType() != String.class
                    || field.getName().endsWith("_DEFAULT")) {
                continue;
            }
            try {
                names.add((String) field.get(null));
            } catch (IllegalAccessException e) {
                throw new IllegalStateException("Cannot read TableProperties." + field, e);
            }
        }
        return names;
    }

    private static void addKeys(Set<String> names, List<? extends ConnectorOption<?>> options) {
        for (ConnectorOption<?> option : options) {
            names.add(option.key());
            names.addAll(option.alternativeKeys());
            option.tableProperty().ifPresent(names::add);
        }
    }
}
