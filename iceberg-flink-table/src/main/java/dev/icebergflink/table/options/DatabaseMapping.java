package dev.icebergflink.table.options;

import java.util.Arrays;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Maps Flink databases to Iceberg namespaces under an optional base namespace: with the base {@code
 * a.b}, the database {@code db} is the namespace {@code a.b.db} and the table {@code db.t} is
 * {@code a.b.db.t}.
 *
 * <p>It exists so that the one rule lives in one place. Flink database names are single levels; a
 * name with dots is one level whose name contains dots.
 */
@Internal
public final class DatabaseMapping {

    private final Namespace base;

    /** The mapping under {@code base}, which may be empty. */
    public DatabaseMapping(Namespace base) {
        this.base = base;
    }

    /** The namespace every database lives under. */
    public Namespace base() {
        return base;
    }

    /** The namespace of a Flink database. */
    public Namespace namespace(String database) {
        String[] levels = Arrays.copyOf(base.levels(), base.length() + 1);
        levels[base.length()] = database;
        return Namespace.of(levels);
    }

    /** The Iceberg identifier of a Flink table path. */
    public TableIdentifier identifier(ObjectPath path) {
        return TableIdentifier.of(namespace(path.getDatabaseName()), path.getObjectName());
    }

    /** The database name of a namespace directly under the base. */
    public String database(Namespace namespace) {
        return namespace.level(namespace.length() - 1);
    }

    /** Whether the namespace is a direct child of the base (and so a Flink database). */
    public boolean isDatabase(Namespace namespace) {
        if (namespace.length() != base.length() + 1) {
            return false;
        }
        for (int i = 0; i < base.length(); i++) {
            if (!base.level(i).equals(namespace.level(i))) {
                return false;
            }
        }
        return true;
    }
}
