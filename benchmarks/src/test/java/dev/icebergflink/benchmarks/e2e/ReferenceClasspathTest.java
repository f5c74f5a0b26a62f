package dev.icebergflink.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReferenceClasspathTest {

    @TempDir Path target;

    @Test
    void isTheLauncherClassesThenTheReferencesDependencies() throws Exception {
        Path launcher =
                target.resolve("classes")
                        .resolve(ReferenceClasspath.MAIN.replace('.', '/') + ".class");
        Files.createDirectories(launcher.getParent());
        Files.write(launcher, new byte[] {1});
        Files.writeString(
                target.resolve(ReferenceClasspath.CLASSPATH_FILE),
                "/repo/iceberg-flink-runtime-2.1-1.11.0.jar"
                        + File.pathSeparator
                        + "/repo/flink.jar\n");

        assertThat(ReferenceClasspath.resolve(target))
                .isEqualTo(
                        target.resolve("classes")
                                + File.pathSeparator
                                + "/repo/iceberg-flink-runtime-2.1-1.11.0.jar"
                                + File.pathSeparator
                                + "/repo/flink.jar");
    }

    @Test
    void saysHowToBuildItWhenItIsMissing() {
        assertThatThrownBy(() -> ReferenceClasspath.resolve(target))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("need the benchmarks-reference module built")
                .hasMessageContaining(target.resolve(ReferenceClasspath.CLASSPATH_FILE).toString())
                .hasMessageContaining("-Dbench.reference.dir=")
                .hasMessageContaining("--references none");
    }

    @Test
    void theBuildOfThisModuleHandsTheTestsTheReferencesDirectory() {
        // the pom sets it for surefire and failsafe, so the smoke run finds the launcher
        assertThat(System.getProperty(ReferenceClasspath.DIRECTORY_PROPERTY))
                .endsWith("benchmarks-reference/target");
        assertThat(ReferenceClasspath.directory()).isDirectory();
    }

    @Test
    void holdsIcebergsConnectorItsFlinkAndNoneOfOurModules() {
        List<String> jars =
                Arrays.stream(ReferenceClasspath.resolve().split(File.pathSeparator))
                        .map(entry -> Paths.get(entry).getFileName().toString())
                        .toList();
        // the release the report names
        assertThat(jars)
                .contains(
                        "iceberg-flink-runtime-2.1-" + BenchmarkReport.REFERENCE_VERSION + ".jar",
                        "flink-streaming-java-2.1.1.jar",
                        "flink-table-planner-loader-2.1.1.jar");
        // never next to our connector, Iceberg's unshaded jars or another Flink
        assertThat(jars)
                .noneMatch(jar -> jar.startsWith("iceberg-flink-core"))
                .noneMatch(jar -> jar.startsWith("iceberg-flink-sink"))
                .noneMatch(jar -> jar.startsWith("iceberg-flink-source"))
                .noneMatch(jar -> jar.startsWith("iceberg-core-"))
                .noneMatch(jar -> jar.matches("flink-.*-(1\\.20|2\\.[023])\\.\\d+\\.jar"));
    }
}
