package dev.icebergflink.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rules that keep the code base layered, checked on the compiled main classes of every module.
 *
 * <pre>
 *   examples                                        (user code: labelled API of the engines)
 *   table (SQL)               maintenance           (only the labelled API of the engines,
 *      |       \                   |                  plus the allow-list below)
 *   source  <-X->  sink             |                (the engines: never import each other)
 *      \          /                 |
 *              core  <---------------+               (imports no engine)
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
     * Internal classes of the engines that the modules on top may use although users may not, each
     * with the reason. They are the SQL layer's contract with the engines: SQL resolves a table's
     * options once while planning and hands the engines that resolved plan, instead of a raw option
     * map that each side would resolve again; it states the write-mode rules in SQL words by
     * translating the sink's own rule violations. Nested classes count as their outer class.
     */
    private static final Map<String, String> ENGINE_INTERNALS_ALLOWED_ON_TOP =
            Map.ofEntries(
                    Map.entry(
                            "dev.icebergflink.source.config.ScanContext",
                            "the resolved read plan SQL refines with its push-downs"),
                    Map.entry(
                            "dev.icebergflink.source.IcebergSourceAssembly",
                            "builds the source from a resolved read plan"),
                    Map.entry(
                            "dev.icebergflink.source.planning.SplitPlanner",
                            "counts a bounded read's splits for SQL's source parallelism inference"),
                    Map.entry(
                            "dev.icebergflink.source.reader.ReadMetadataColumn",
                            "the metadata the source appends to rows, which SQL offers as METADATA columns"),
                    Map.entry(
                            "dev.icebergflink.sink.SinkPlan",
                            "the resolved write plan SQL builds from what it resolved while planning"),
                    Map.entry(
                            "dev.icebergflink.sink.SinkAssembly",
                            "builds the sink from a resolved write plan"),
                    Map.entry(
                            "dev.icebergflink.sink.FlinkWriteConf",
                            "the resolved write options inside the write plan"),
                    Map.entry(
                            "dev.icebergflink.sink.WriteModeRules",
                            "the write-mode rules, stated once for builders and SQL"),
                    Map.entry(
                            "dev.icebergflink.sink.WriteRuleViolation",
                            "a broken write-mode rule, which SQL rewords in SQL terms"),
                    Map.entry(
                            "dev.icebergflink.sink.PostCommitMaintenance",
                            "the service through which the maintenance module adds maintenance after the"
                                    + " sink's commits (the sink cannot depend on the module above it)"),
                    Map.entry(
                            "dev.icebergflink.sink.StagedWrites",
                            "what a staged sink recorded, which SQL's atomic CTAS/RTAS commits in the catalog's"
                                    + " create or replace transaction when the job has finished"));

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes =
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages(ROOT);
    }

    /**
     * The rules below would pass on an empty import: make sure every module's classes are there.
     */
    @Test
    void everyModuleIsImported() {
        assertThat(classes.stream().map(JavaClass::getName))
                .contains(
                        "dev.icebergflink.TableLoader",
                        "dev.icebergflink.source.IcebergSource",
                        "dev.icebergflink.sink.IcebergSink",
                        "dev.icebergflink.table.catalog.FlinkCatalogFactory",
                        "dev.icebergflink.maintenance.Actions",
                        "dev.icebergflink.examples.QuickStart");
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

    /**
     * A package cycle means two packages are one layer in disguise: neither can be read alone. The
     * rule covers every internal package; the API package at the top of each module (see {@link
     * #internalsUseOnlyLeafTypesOfTheirApiPackage}) is its own case.
     */
    @Test
    void noCyclesBetweenInternalPackages() {
        check(slices().assignedFrom(EACH_INTERNAL_PACKAGE).should().beFreeOfCycles());
    }

    /**
     * The API package of a module holds its entry classes (builders, factories) and the values
     * users hand them: option catalogues, enums, small interfaces. Internals may read those values,
     * as Flink's own connectors do, but only values that need nothing internal themselves; so no
     * chain of dependencies leaves the API package and comes back to it, and the entry classes stay
     * the only way in.
     */
    @Test
    void internalsUseOnlyLeafTypesOfTheirApiPackage() {
        check(
                classes()
                        .that(areInternal())
                        .should(
                                new ArchCondition<>(
                                        "use only the leaf types of their module's API package") {
                                    @Override
                                    public void check(JavaClass item, ConditionEvents events) {
                                        String module = moduleOf(item.getPackageName());
                                        item.getDirectDependenciesFromSelf().stream()
                                                .filter(
                                                        d ->
                                                                isApiPackageOf(
                                                                        d.getTargetClass()
                                                                                .getPackageName(),
                                                                        module))
                                                .filter(d -> !isLeaf(d.getTargetClass(), module))
                                                .forEach(
                                                        d ->
                                                                events.add(
                                                                        SimpleConditionEvent
                                                                                .violated(
                                                                                        d,
                                                                                        d
                                                                                                .getDescription())));
                                    }
                                }));
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

    /** The root package of each module, most specific first. */
    private static final List<String> MODULES =
            List.of(
                    ROOT + ".source",
                    ROOT + ".sink",
                    ROOT + ".table",
                    ROOT + ".maintenance",
                    ROOT + ".examples",
                    ROOT);

    /**
     * The public faces of the modules: each module's root package, and maintenance's {@code api}
     * package, where the streaming maintenance API lives under the names Iceberg's connector uses.
     */
    private static final List<String> API_PACKAGES =
            List.of(
                    ROOT + ".source",
                    ROOT + ".sink",
                    ROOT + ".table",
                    ROOT + ".maintenance",
                    ROOT + ".maintenance.api",
                    ROOT + ".examples",
                    ROOT);

    /** The root package of the module a package belongs to (the longest matching prefix). */
    private static String moduleOf(String pkg) {
        return MODULES.stream()
                .filter(module -> pkg.equals(module) || pkg.startsWith(module + "."))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Not in a module: " + pkg));
    }

    /** Whether {@code pkg} is one of the API packages of {@code module}. */
    private static boolean isApiPackageOf(String pkg, String module) {
        return API_PACKAGES.contains(pkg) && moduleOf(pkg).equals(module);
    }

    private static DescribedPredicate<JavaClass> areInternal() {
        return DescribedPredicate.describe(
                "are in an internal package",
                c ->
                        c.getPackageName().startsWith(ROOT + ".")
                                && !API_PACKAGES.contains(c.getPackageName()));
    }

    /**
     * A class of an API package (with its nested classes) that needs nothing of its module's
     * internals.
     */
    private static boolean isLeaf(JavaClass apiClass, String module) {
        return dependenciesOfClassAndNested(outermost(apiClass)).stream()
                .map(d -> d.getTargetClass().getPackageName())
                .noneMatch(
                        pkg ->
                                pkg.startsWith(module + ".")
                                        && moduleOf(pkg).equals(module)
                                        && !API_PACKAGES.contains(pkg));
    }

    private static Set<Dependency> dependenciesOfClassAndNested(JavaClass c) {
        Set<Dependency> all = new HashSet<>(c.getDirectDependenciesFromSelf());
        classes.stream()
                .filter(other -> outermost(other).equals(c) && !other.equals(c))
                .forEach(nested -> all.addAll(nested.getDirectDependenciesFromSelf()));
        return all;
    }

    private static JavaClass outermost(JavaClass c) {
        JavaClass outermost = c;
        while (outermost.getEnclosingClass().isPresent()) {
            outermost = outermost.getEnclosingClass().get();
        }
        return outermost;
    }

    private static final SliceAssignment EACH_INTERNAL_PACKAGE =
            new SliceAssignment() {
                @Override
                public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                    return areInternal().test(javaClass)
                            ? SliceIdentifier.of(javaClass.getPackageName())
                            : SliceIdentifier.ignore();
                }

                @Override
                public String getDescription() {
                    return "each internal package of " + ROOT;
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
        return outermost(target).isAnnotatedWith(PublicEvolving.class)
                || ENGINE_INTERNALS_ALLOWED_ON_TOP.containsKey(outermost(target).getName());
    }
}
