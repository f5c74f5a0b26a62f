package dev.icebergflink.sink.committer;

import dev.icebergflink.TableLoader;
import java.util.function.UnaryOperator;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;

/** Table loaders whose tables run their metadata commits through operations a test chose. */
final class TestingTableLoaders {

    private TestingTableLoaders() {}

    /** A loader of {@code base}'s table with its operations wrapped by {@code wrap}. */
    static TableLoader withOperations(TableLoader base, UnaryOperator<TableOperations> wrap) {
        return new Wrapping(base, wrap);
    }

    /** Operations that run an action before each metadata commit. */
    static final class BeforeCommit extends ForwardingTableOperations {
        private final Runnable action;

        BeforeCommit(TableOperations delegate, Runnable action) {
            super(delegate);
            this.action = action;
        }

        @Override
        public void commit(TableMetadata base, TableMetadata metadata) {
            action.run();
            super.commit(base, metadata);
        }
    }

    private static final class Wrapping implements TableLoader {
        private static final long serialVersionUID = 1L;
        private final TableLoader base;
        private final transient UnaryOperator<TableOperations> wrap;

        Wrapping(TableLoader base, UnaryOperator<TableOperations> wrap) {
            this.base = base;
            this.wrap = wrap;
        }

        @Override
        public void open() {
            base.open();
        }

        @Override
        public boolean isOpen() {
            return base.isOpen();
        }

        @Override
        public Table loadTable() {
            Table table = base.loadTable();
            TableOperations ops = ((HasTableOperations) table).operations();
            return new BaseTable(wrap.apply(ops), table.name());
        }

        @Override
        public TableLoader clone() {
            return new Wrapping(base.clone(), wrap);
        }

        @Override
        public void close() throws java.io.IOException {
            base.close();
        }
    }
}
