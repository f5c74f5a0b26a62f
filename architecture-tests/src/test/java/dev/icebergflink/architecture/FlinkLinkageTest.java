package dev.icebergflink.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Our jars are compiled against one Flink version and run on others (the 0.2.0-2.3 jars on Flink
 * 2.1, 2.2 and 2.3). A method, constructor or field of Flink that our main classes use but that the
 * Flink on the class path lacks would surface to users as a {@code NoSuchMethodError} in the middle
 * of a job. This test finds every such use before that: it reads the byte code of every main class
 * of every module and resolves each access to a Flink member against the Flink on the test class
 * path (the Flink line the build runs on), including inherited members.
 */
class FlinkLinkageTest {

    /** Methods every type has through {@code java.lang.Object}; interfaces do not declare them. */
    private static final Set<String> OBJECT_METHODS =
            Set.of("equals", "hashCode", "toString", "getClass");

    @Test
    void everyFlinkMemberOurClassesUseExistsOnThisFlink() {
        JavaClasses ours =
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("dev.icebergflink");
        assertThat(ours.size()).as("imported main classes").isGreaterThan(300);

        Set<String> missing = new TreeSet<>();
        int checked = 0;
        for (JavaClass javaClass : ours) {
            for (JavaAccess<?> access : javaClass.getAccessesFromSelf()) {
                AccessTarget target = access.getTarget();
                if (!target.getOwner().getPackageName().startsWith("org.apache.flink")
                        || OBJECT_METHODS.contains(target.getName())) {
                    continue;
                }
                checked++;
                if (target.resolveMember().isEmpty()) {
                    missing.add(
                            target.getFullName() + " used by " + access.getSourceCodeLocation());
                }
            }
        }
        assertThat(checked).as("accesses to Flink members checked").isGreaterThan(1000);
        assertThat(missing)
                .as(
                        "Flink members our classes use that Flink %s on the class path lacks",
                        System.getProperty("test.flink.version"))
                .isEmpty();
    }
}
