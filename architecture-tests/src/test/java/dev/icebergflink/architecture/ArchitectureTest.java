package dev.icebergflink.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rules that keep the code base layered, checked on the compiled main classes of every module.
 *
 * <pre>
 *   examples        maintenance        table          (on top: only the labelled API of the engines)
 *       \               |      \      /    \
 *        \              |       \    /      \
 *         +-----------> source          sink          (the engines: never import each other)
 *                          \            /
 *                              core                   (imports no engine)
 * </pre>
 *
 * <p>Why each rule exists is written next to it. A failing rule lists every offending dependency
 * with its source line.
 */
class ArchitectureTest {

    private static final String ROOT = "dev.icebergflink";
    private static final String SOURCE = ROOT + ".source..";
    private static final String SINK = ROOT + ".sink..";
    private static final String TABLE = ROOT + ".table..";
    private static final String MAINTENANCE = ROOT + ".maintenance..";
    private static final String EXAMPLES = ROOT + ".examples..";
    private static final String[] ABOVE_CORE = {SOURCE, SINK, TABLE, MAINTENANCE, EXAMPLES};

    /**
     * Internal classes of the engines that the modules on top may use although users may not. Each
     * entry says why; the list is meant to stay short.
     */
    private static final Set<String> ENGINE_INTERNALS_ALLOWED_ON_TOP = Set.of();

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes =
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages(ROOT);
    }

    /**
     * Core is the library every module builds on; an import of an engine would turn that around.
     */
    @Test
    void coreImportsNoEngine() {
        check(
                noClasses()
                        .that()
                        .resideInAPackage(ROOT + "..")
                        .and()
                        .resideOutsideOfPackages(ABOVE_CORE)
                        .should()
                        .dependOnClassesThat()
                        .resideInAnyPackage(ABOVE_CORE)
                        .because("core is below every other module"));
    }

    /**
     * Source and sink are released side by side; each must work without the other on the class
     * path.
     */
    @Test
    void sourceAndSinkNeverImportEachOtherNorAnythingAbove() {
        check(
                noClasses()
                        .that()
                        .resideInAPackage(SOURCE)
                        .should()
                        .dependOnClassesThat()
                        .resideInAnyPackage(SINK, TABLE, MAINTENANCE, EXAMPLES));
        check(
                noClasses()
                        .that()
                        .resideInAPackage(SINK)
                        .should()
                        .dependOnClassesThat()
                        .resideInAnyPackage(SOURCE, TABLE, MAINTENANCE, EXAMPLES));
    }

    /**
     * SQL and maintenance are independent features on top of the engines; examples are only users.
     */
    @Test
    void modulesOnTopImportNeitherEachOtherNorTheExamples() {
        check(
                noClasses()
                        .that()
                        .resideInAPackage(TABLE)
                        .should()
                        .dependOnClassesThat()
                        .resideInAnyPackage(MAINTENANCE, EXAMPLES));
        check(
                noClasses()
                        .that()
                        .resideInAPackage(MAINTENANCE)
                        .should()
                        .dependOnClassesThat()
                        .resideInAnyPackage(TABLE, EXAMPLES));
    }

    /**
     * The engines may change their internals in any release; SQL, maintenance and the examples are
     * written against what the engines promise users, so that the promise is exercised by our own
     * code and an internal change never breaks them.
     */
    @Test
    void modulesOnTopUseOnlyTheLabelledApiOfTheEngines() {
        check(
                classes()
                        .that()
                        .resideInAnyPackage(TABLE, MAINTENANCE, EXAMPLES)
                        .should(useOnlyLabelledApiOf(SOURCE, SINK)));
    }

    /** A package cycle means two packages are one layer in disguise: neither can be read alone. */
    @Test
    void noPackageCycles() {
        check(slices().assignedFrom(EACH_PACKAGE).should().beFreeOfCycles());
    }

    /**
     * Every public class says whether users may build on it ({@link PublicEvolving}) or not ({@link
     * Internal}); the examples are user code and carry no label.
     */
    @Test
    void everyPublicClassIsLabelled() {
        check(
                classes()
                        .that()
                        .resideInAPackage(ROOT + "..")
                        .and()
                        .resideOutsideOfPackage(EXAMPLES)
                        .and()
                        .arePublic()
                        .and()
                        .areTopLevelClasses()
                        .and()
                        .doNotHaveSimpleName("package-info")
                        .should()
                        .beAnnotatedWith(PublicEvolving.class)
                        .orShould()
                        .beAnnotatedWith(Internal.class));
    }

    private static void check(ArchRule rule) {
        rule.check(classes);
    }

    private static final SliceAssignment EACH_PACKAGE =
            new SliceAssignment() {
                @Override
                public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                    String pkg = javaClass.getPackageName();
                    return pkg.startsWith(ROOT)
                            ? SliceIdentifier.of(pkg)
                            : SliceIdentifier.ignore();
                }

                @Override
                public String getDescription() {
                    return "each package of " + ROOT;
                }
            };

    private static ArchCondition<JavaClass> useOnlyLabelledApiOf(String... enginePackages) {
        DescribedPredicate<JavaClass> inEngine =
                JavaClass.Predicates.resideInAnyPackage(enginePackages);
        return new ArchCondition<>(
                "use only @PublicEvolving classes of " + String.join(", ", enginePackages)) {
            @Override
            public void check(JavaClass item, ConditionEvents events) {
                item.getDirectDependenciesFromSelf().stream()
                        .filter(d -> inEngine.test(d.getTargetClass()))
                        .filter(d -> !isLabelledApi(d.getTargetClass()))
                        .forEach(
                                d ->
                                        events.add(
                                                SimpleConditionEvent.violated(
                                                        d, d.getDescription())));
            }
        };
    }

    private static boolean isLabelledApi(JavaClass target) {
        JavaClass outermost = target;
        while (outermost.getEnclosingClass().isPresent()) {
            outermost = outermost.getEnclosingClass().get();
        }
        return outermost.isAnnotatedWith(PublicEvolving.class)
                || ENGINE_INTERNALS_ALLOWED_ON_TOP.contains(target.getName());
    }
}
