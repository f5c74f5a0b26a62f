package dev.icebergflink.sink.committer;

import dev.icebergflink.TableLoader;
import java.io.Serializable;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;

/**
 * Where the serializers of the sink find the {@link PartitionSpec} of a file by its spec id.
 *
 * <p>It exists because Iceberg's file JSON stores partition values typed by their spec, so the spec
 * itself is looked up instead of being repeated in every serialized file.
 */
interface PartitionSpecs extends Serializable {

    /**
     * The spec with {@code specId}.
     *
     * @throws IllegalStateException if the table has no such spec
     */
    PartitionSpec spec(int specId);

    /** Every known spec by id. */
    Map<Integer, PartitionSpec> all();

    /** A lookup over a fixed map (tests, and callers that hold the table already). */
    static PartitionSpecs of(Map<Integer, PartitionSpec> specs) {
        Map<Integer, PartitionSpec> copy = Map.copyOf(specs);
        return new PartitionSpecs() {
            private static final long serialVersionUID = 1L;

            @Override
            public PartitionSpec spec(int specId) {
                PartitionSpec spec = copy.get(specId);
                if (spec == null) {
                    throw new IllegalStateException(
                            "No partition spec with id "
                                    + specId
                                    + "; known ids: "
                                    + copy.keySet());
                }
                return spec;
            }

            @Override
            public Map<Integer, PartitionSpec> all() {
                return copy;
            }
        };
    }

    /**
     * A lookup that loads the table on first use and loads it again when asked for a spec id it
     * does not know yet (the table's spec evolved while the job ran).
     */
    static PartitionSpecs fromTable(TableLoader loader) {
        return new TableSpecs(loader);
    }

    /** Lazily loading lookup; see {@link #fromTable(TableLoader)}. */
    final class TableSpecs implements PartitionSpecs {
        private static final long serialVersionUID = 1L;

        private final TableLoader loader;
        private transient Map<Integer, PartitionSpec> specs;

        private TableSpecs(TableLoader loader) {
            this.loader = loader.clone();
        }

        @Override
        public synchronized PartitionSpec spec(int specId) {
            if (specs == null || !specs.containsKey(specId)) {
                reload();
            }
            PartitionSpec spec = specs.get(specId);
            if (spec == null) {
                throw new IllegalStateException(
                        "Table "
                                + loader
                                + " has no partition spec with id "
                                + specId
                                + "; known ids: "
                                + specs.keySet());
            }
            return spec;
        }

        @Override
        public synchronized Map<Integer, PartitionSpec> all() {
            if (specs == null) {
                reload();
            }
            return specs;
        }

        private void reload() {
            Table table = loader.loadTable();
            specs = Map.copyOf(table.specs());
        }
    }
}
