package dev.icebergflink.benchmarks.e2e;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code PREFIX key=value key=value ...} lines that benchmark children print and the suites
 * parse back ({@link ResultLine}, the planning comparison's lines).
 *
 * <p>It exists so that every kind of line is split and checked the same way, with errors that name
 * the kind of line, the key and the line itself.
 */
public final class KeyValueLine {

    private KeyValueLine() {}

    /**
     * The pairs of {@code line} in their order.
     *
     * @param prefix what every line of this kind starts with
     * @param kind the kind of line, for errors (e.g. "result line")
     * @throws IllegalArgumentException when the line lacks the prefix or holds a pair without '='
     */
    public static Map<String, String> pairs(String prefix, String kind, String line) {
        if (!line.startsWith(prefix)) {
            throw new IllegalArgumentException(
                    "Not a " + kind + " (it must start with '" + prefix + "'): " + line);
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (String pair : line.substring(prefix.length()).trim().split("\\s+")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(
                        "Malformed pair '" + pair + "' (expected key=value) in: " + line);
            }
            values.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return values;
    }

    /**
     * The value of {@code key} among {@code values} parsed from {@code line}.
     *
     * @throws IllegalArgumentException naming the kind of line, the key and the line when the key
     *     is missing
     */
    public static String required(
            Map<String, String> values, String key, String kind, String line) {
        String value = values.get(key);
        if (value == null) {
            String capitalized = Character.toUpperCase(kind.charAt(0)) + kind.substring(1);
            throw new IllegalArgumentException(capitalized + " has no '" + key + "': " + line);
        }
        return value;
    }
}
