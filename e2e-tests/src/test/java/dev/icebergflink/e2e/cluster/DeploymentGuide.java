package dev.icebergflink.e2e.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tested blocks of {@code docs/deployment.md}: a fenced code block right after a line {@code
 * <!-- e2e: NAME -->}, by name, with the guide's own placeholders replaced.
 *
 * <p>Why it exists: the SQL and configuration users copy from the guide must be what the end-to-end
 * tests run. Tests take their scripts from here, and may replace only the placeholders the guide
 * declares in its {@code placeholders} block, so a change to the guide is a change to the tests.
 */
public final class DeploymentGuide {

    private static final Pattern JAR_NAME =
            Pattern.compile("(?:^|\\s|/)([\\w.-]+\\.jar)(?=\\s|$)", Pattern.MULTILINE);

    /** The name of the block that declares the placeholders, one per line, first word. */
    public static final String PLACEHOLDERS = "placeholders";

    private static final Pattern BLOCK =
            Pattern.compile(
                    "^<!-- e2e: ([A-Za-z0-9._-]+) -->\\R```[A-Za-z]*\\R(.*?)^```",
                    Pattern.MULTILINE | Pattern.DOTALL);

    private final Map<String, String> blocks;
    private final Set<String> placeholders;

    private DeploymentGuide(Map<String, String> blocks) {
        this.blocks = blocks;
        this.placeholders = new TreeSet<>();
        String declared = blocks.get(PLACEHOLDERS);
        if (declared == null) {
            throw new IllegalStateException(
                    "docs/deployment.md has no '<!-- e2e: placeholders -->' block");
        }
        for (String line : declared.split("\\R")) {
            if (!line.isBlank()) {
                placeholders.add(line.strip().split("\\s+")[0]);
            }
        }
    }

    /** Reads {@code docs/deployment.md} of this repository. */
    public static DeploymentGuide load() {
        String dir = System.getProperty("e2e.docs.dir");
        Path docs = dir == null || dir.isBlank() ? Path.of("..", "docs") : Path.of(dir);
        return parse(docs.resolve("deployment.md"));
    }

    /** Reads a guide from {@code file}. */
    public static DeploymentGuide parse(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the deployment guide " + file, e);
        }
        Map<String, String> blocks = new LinkedHashMap<>();
        Matcher matcher = BLOCK.matcher(text);
        while (matcher.find()) {
            if (blocks.put(matcher.group(1), matcher.group(2)) != null) {
                throw new IllegalStateException(
                        file + " marks two blocks as '" + matcher.group(1) + "'");
            }
        }
        return new DeploymentGuide(blocks);
    }

    /** The names of all marked blocks, in document order. */
    public Set<String> blockNames() {
        return blocks.keySet();
    }

    /** The placeholders the guide declares. */
    public Set<String> placeholders() {
        return placeholders;
    }

    /**
     * The block {@code name} with each declared placeholder in {@code values} replaced everywhere.
     *
     * @throws IllegalArgumentException for an unknown block, or a key the guide does not declare
     */
    public String block(String name, Map<String, String> values) {
        String block = blocks.get(name);
        if (block == null) {
            throw new IllegalArgumentException(
                    "docs/deployment.md has no block '<!-- e2e: "
                            + name
                            + " -->'; marked blocks are "
                            + blocks.keySet());
        }
        for (Map.Entry<String, String> value : values.entrySet()) {
            if (!placeholders.contains(value.getKey())) {
                throw new IllegalArgumentException(
                        "'"
                                + value.getKey()
                                + "' is not a placeholder of docs/deployment.md; declared are "
                                + placeholders);
            }
            block = block.replace(value.getKey(), value.getValue());
        }
        return block;
    }

    /** The block {@code name} as written. */
    public String block(String name) {
        return block(name, Map.of());
    }

    /**
     * The jars a shell block names (by file name, e.g. in {@code cp .../x.jar $FLINK_HOME/lib/}),
     * resolved in {@code dir}; each must exist there, so the guide can only name jars the build
     * provides under those names.
     */
    public List<Path> jarsNamedIn(String name, Path dir) {
        String command = block(name);
        Matcher matcher = JAR_NAME.matcher(command);
        List<Path> jars = new ArrayList<>();
        while (matcher.find()) {
            Path jar = dir.resolve(matcher.group(1));
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException(
                        "Block '" + name + "' names " + jar.getFileName() + ", not in " + dir);
            }
            jars.add(jar);
        }
        return jars;
    }

    /** The {@code key: value} lines of a YAML block with flat keys, as a map. */
    public Map<String, String> flatYaml(String name, Map<String, String> values) {
        Map<String, String> entries = new LinkedHashMap<>();
        for (String line : block(name, values).split("\\R")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            int colon = trimmed.indexOf(": ");
            if (colon < 0) {
                throw new IllegalStateException(
                        "Block '" + name + "' has a line that is not 'key: value': " + line);
            }
            entries.put(trimmed.substring(0, colon), trimmed.substring(colon + 2).strip());
        }
        return entries;
    }
}
