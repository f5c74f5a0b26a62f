package dev.icebergflink.bundle;

import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.shaded.asm9.org.objectweb.asm.ClassReader;
import org.apache.flink.shaded.asm9.org.objectweb.asm.ClassWriter;
import org.apache.flink.shaded.asm9.org.objectweb.asm.commons.ClassRemapper;
import org.apache.flink.shaded.asm9.org.objectweb.asm.commons.Remapper;

/**
 * The internal names ({@code a/b/C}) of every type a class file refers to, collected by letting ASM
 * remap the class with a remapper that only records what it is asked to map. Uses the ASM that
 * Flink ships (flink-shaded-asm-9), which is on the test class path anyway.
 */
final class ClassReferences {

    private ClassReferences() {}

    /** The types {@code classFile} names in its structure and code, sorted. */
    static Set<String> of(byte[] classFile) {
        Set<String> names = new TreeSet<>();
        Remapper recorder =
                new Remapper() {
                    @Override
                    public String map(String internalName) {
                        names.add(internalName);
                        return internalName;
                    }
                };
        // A writer as the target, so the remapper also walks fields, methods and their code.
        ClassWriter sink = new ClassWriter(0);
        new ClassReader(classFile).accept(new ClassRemapper(sink, recorder), 0);
        return names;
    }
}
