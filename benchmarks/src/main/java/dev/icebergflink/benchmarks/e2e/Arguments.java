package dev.icebergflink.benchmarks.e2e;

import java.util.LinkedHashMap;
import java.util.Map;

/** Parses {@code --name value} command-line options, the only form the benchmark mains take. */
final class Arguments {

    private Arguments() {}

    static Map<String, String> parse(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new IllegalArgumentException(
                        "Unexpected argument '" + arg + "': options look like --name value");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("Option " + arg + " needs a value");
            }
            options.put(arg.substring(2), args[++i]);
        }
        return options;
    }

    static String required(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null) {
            throw new IllegalArgumentException("Missing option --" + name);
        }
        return value;
    }
}
