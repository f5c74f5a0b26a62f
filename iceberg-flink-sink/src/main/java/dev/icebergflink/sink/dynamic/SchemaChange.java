package dev.icebergflink.sink.dynamic;

import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.types.Type;

/**
 * One change to a table's schema that lets it take records of a newer input schema without
 * rewriting data: a new optional column, a widened type, a required column made optional, or a
 * column the input no longer has dropped. Columns are named by their dotted path.
 */
@Internal
public abstract class SchemaChange {

    private final String path;

    private SchemaChange(String path) {
        this.path = Objects.requireNonNull(path, "path");
    }

    /** The dotted path of the column the change is about. */
    public String path() {
        return path;
    }

    /** Adds the change to a pending schema update. */
    abstract void applyTo(UpdateSchema update);

    /** A new optional column {@code name} under {@code parent} ({@code null}: top level). */
    static SchemaChange addColumn(String parent, String name, Type type, String doc) {
        return new AddColumn(parent, name, type, doc);
    }

    /** Column {@code path} widened to {@code type} (int to long, float to double, decimals). */
    static SchemaChange widen(String path, Type.PrimitiveType type) {
        return new Widen(path, type);
    }

    /** Required column {@code path} made optional. */
    static SchemaChange makeOptional(String path) {
        return new MakeOptional(path);
    }

    /** Column {@code path} dropped. */
    static SchemaChange drop(String path) {
        return new Drop(path);
    }

    @Override
    public boolean equals(Object other) {
        return other != null
                && other.getClass() == getClass()
                && toString().equals(other.toString());
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }

    private static final class AddColumn extends SchemaChange {
        private final String parent;
        private final String name;
        private final Type type;
        private final String doc;

        AddColumn(String parent, String name, Type type, String doc) {
            super(parent == null ? name : parent + "." + name);
            this.parent = parent;
            this.name = name;
            this.type = type;
            this.doc = doc;
        }

        @Override
        void applyTo(UpdateSchema update) {
            update.addColumn(parent, name, type, doc);
        }

        @Override
        public String toString() {
            return "add optional column " + path() + " " + type;
        }
    }

    private static final class Widen extends SchemaChange {
        private final Type.PrimitiveType type;

        Widen(String path, Type.PrimitiveType type) {
            super(path);
            this.type = type;
        }

        @Override
        void applyTo(UpdateSchema update) {
            update.updateColumn(path(), type);
        }

        @Override
        public String toString() {
            return "widen column " + path() + " to " + type;
        }
    }

    private static final class MakeOptional extends SchemaChange {
        MakeOptional(String path) {
            super(path);
        }

        @Override
        void applyTo(UpdateSchema update) {
            update.makeColumnOptional(path());
        }

        @Override
        public String toString() {
            return "make column " + path() + " optional";
        }
    }

    private static final class Drop extends SchemaChange {
        Drop(String path) {
            super(path);
        }

        @Override
        void applyTo(UpdateSchema update) {
            update.deleteColumn(path());
        }

        @Override
        public String toString() {
            return "drop column " + path();
        }
    }
}
