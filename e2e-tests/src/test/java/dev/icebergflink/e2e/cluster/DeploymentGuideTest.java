package dev.icebergflink.e2e.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every tested block of docs/deployment.md is used by an ITCase, and the parser is strict. */
class DeploymentGuideTest {

    private static final Path TEST_SOURCES =
            Path.of("src", "test", "java", "dev", "icebergflink", "e2e");

    @Test
    void everyMarkedBlockIsUsedByAnEndToEndTest() throws IOException {
        DeploymentGuide guide = DeploymentGuide.load();
        String sources = itCaseSources();
        List<String> unused = new ArrayList<>();
        for (String name : guide.blockNames()) {
            if (!name.equals(DeploymentGuide.PLACEHOLDERS) && !sources.contains('"' + name + '"')) {
                unused.add(name);
            }
        }
        assertThat(guide.blockNames()).contains("init-hadoop.sql", "walkthrough.sql");
        assertThat(unused).as("marked blocks no *ITCase refers to").isEmpty();
    }

    @Test
    void readmeLinksTheGuide() throws IOException {
        assertThat(Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8))
                .contains("docs/deployment.md");
    }

    @Test
    void replacesOnlyDeclaredPlaceholders(@TempDir Path dir) throws IOException {
        Path doc = dir.resolve("guide.md");
        Files.writeString(
                doc,
                String.join(
                        "\n",
                        "# Guide",
                        "<!-- e2e: placeholders -->",
                        "```text",
                        "hdfs://namenode:8020   the NameNode",
                        "```",
                        "<!-- e2e: a.sql -->",
                        "```sql",
                        "SELECT 'hdfs://namenode:8020/w';",
                        "```",
                        "```sql",
                        "SELECT 'not marked';",
                        "```",
                        "<!-- e2e: conf.yaml -->",
                        "```yaml",
                        "a.b: 1 min",
                        "c: hdfs://namenode:8020/x",
                        "```",
                        ""));
        DeploymentGuide guide = DeploymentGuide.parse(doc);

        assertThat(guide.blockNames()).containsExactly("placeholders", "a.sql", "conf.yaml");
        assertThat(guide.block("a.sql", Map.of("hdfs://namenode:8020", "hdfs://127.0.0.1:1")))
                .isEqualTo("SELECT 'hdfs://127.0.0.1:1/w';\n");
        assertThat(guide.flatYaml("conf.yaml", Map.of("hdfs://namenode:8020", "file:")))
                .containsExactly(Map.entry("a.b", "1 min"), Map.entry("c", "file:/x"));
        assertThatThrownBy(() -> guide.block("a.sql", Map.of("SELECT", "DROP")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'SELECT' is not a placeholder");
        assertThatThrownBy(() -> guide.block("b.sql"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no block '<!-- e2e: b.sql -->'");
    }

    @Test
    void jarsNamedInAShellBlockMustBeProvided(@TempDir Path dir) throws IOException {
        Path doc = dir.resolve("guide.md");
        Files.writeString(
                doc,
                String.join(
                        "\n",
                        "<!-- e2e: placeholders -->",
                        "```text",
                        "/opt/x   where the jars are",
                        "```",
                        "<!-- e2e: lib.sh -->",
                        "```bash",
                        "cp /opt/x/a-1.0.jar b_2.jar \\",
                        "   c.jar $FLINK_HOME/lib/   # then restart",
                        "```",
                        ""));
        DeploymentGuide guide = DeploymentGuide.parse(doc);
        Path jars = Files.createDirectories(dir.resolve("jars"));
        for (String name : List.of("a-1.0.jar", "b_2.jar")) {
            Files.writeString(jars.resolve(name), "jar");
        }

        assertThatThrownBy(() -> guide.jarsNamedIn("lib.sh", jars))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("names c.jar");
        Files.writeString(jars.resolve("c.jar"), "jar");
        assertThat(guide.jarsNamedIn("lib.sh", jars))
                .containsExactly(
                        jars.resolve("a-1.0.jar"), jars.resolve("b_2.jar"), jars.resolve("c.jar"));
    }

    private static String itCaseSources() throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(TEST_SOURCES)) {
            for (Path file :
                    files.filter(f -> f.getFileName().toString().endsWith("ITCase.java"))
                            .toList()) {
                all.append(Files.readString(file, StandardCharsets.UTF_8));
            }
        }
        return all.toString();
    }
}
