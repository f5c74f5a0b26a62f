package dev.icebergflink.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The source module's packages form layers: the internal packages depend on each other without
 * cycles, and they use from the public API package only its leaf types (the option catalogue, the
 * starting strategies, the converter factory), never the builders that assemble them.
 */
class PackageLayeringTest {

    private static final String ROOT = "dev.icebergflink.source";
    private static final Set<String> API_LEAF_TYPES =
            Set.of("FlinkReadOptions", "StreamingStartingStrategy", "ConverterFactory");
    private static final Pattern REFERENCE =
            Pattern.compile("\\bdev\\.icebergflink\\.source((?:\\.[a-z]\\w*)*)\\.([A-Z]\\w*)");

    /** Package -> (referenced package -> referenced simple type names). */
    private static final Map<String, Map<String, Set<String>>> REFERENCES = new TreeMap<>();

    @BeforeAll
    static void readSources() throws IOException {
        Path sources = Path.of("src/main/java/dev/icebergflink/source");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(sources)) {
            files = walk.filter(p -> p.toString().endsWith(".java")).toList();
        }
        for (Path file : files) {
            String pkg =
                    ROOT
                            + sources.relativize(file.getParent())
                                    .toString()
                                    .replace('/', '.')
                                    .transform(s -> s.isEmpty() ? "" : "." + s);
            for (String line : Files.readAllLines(file)) {
                String code = line.strip();
                if (code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) {
                    continue; // documentation links are no dependencies
                }
                Matcher m = REFERENCE.matcher(code);
                while (m.find()) {
                    String target = ROOT + m.group(1);
                    if (!target.equals(pkg)) {
                        REFERENCES
                                .computeIfAbsent(pkg, k -> new TreeMap<>())
                                .computeIfAbsent(target, k -> new TreeSet<>())
                                .add(m.group(2));
                    }
                }
            }
        }
    }

    @Test
    void internalPackagesUseOnlyTheLeafTypesOfTheApiPackage() {
        List<String> violations = new ArrayList<>();
        REFERENCES.forEach(
                (pkg, targets) -> {
                    if (pkg.equals(ROOT)) {
                        return;
                    }
                    for (String type : targets.getOrDefault(ROOT, Set.of())) {
                        if (!API_LEAF_TYPES.contains(type)) {
                            violations.add(pkg + " -> " + ROOT + "." + type);
                        }
                    }
                });
        assertThat(violations).isEmpty();
    }

    @Test
    void internalPackagesHaveNoCycles() {
        for (String start : REFERENCES.keySet()) {
            if (start.equals(ROOT)) {
                continue;
            }
            assertThat(reachable(start))
                    .as("packages reachable from " + start)
                    .doesNotContain(start);
        }
    }

    @Test
    void configAndEventsSitBelowTheirUsers() {
        assertThat(targets(ROOT + ".config"))
                .doesNotContain(
                        ROOT + ".reader",
                        ROOT + ".enumerator",
                        ROOT + ".planning",
                        ROOT + ".assigner",
                        ROOT + ".split");
        assertThat(targets(ROOT + ".event")).doesNotContain(ROOT + ".enumerator", ROOT + ".reader");
    }

    private static Set<String> targets(String pkg) {
        return REFERENCES.getOrDefault(pkg, Map.of()).keySet();
    }

    /** The internal packages reachable from {@code start} through one reference or more. */
    private static Set<String> reachable(String start) {
        Set<String> seen = new HashSet<>();
        List<String> todo = new ArrayList<>(targets(start));
        while (!todo.isEmpty()) {
            String next = todo.remove(todo.size() - 1);
            if (next.equals(ROOT) || !seen.add(next)) {
                continue;
            }
            todo.addAll(targets(next));
        }
        return seen;
    }
}
