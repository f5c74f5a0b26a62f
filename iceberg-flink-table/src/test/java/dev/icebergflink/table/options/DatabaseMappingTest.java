package dev.icebergflink.table.options;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.table.catalog.ObjectPath;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

class DatabaseMappingTest {

    @Test
    void databasesAreNamespacesDirectlyUnderTheBase() {
        DatabaseMapping mapping = new DatabaseMapping(Namespace.of("lake", "prod"));

        assertThat(mapping.namespace("db")).isEqualTo(Namespace.of("lake", "prod", "db"));
        assertThat(mapping.identifier(new ObjectPath("db", "t")))
                .isEqualTo(TableIdentifier.of(Namespace.of("lake", "prod", "db"), "t"));
        assertThat(mapping.isDatabase(Namespace.of("lake", "prod", "db"))).isTrue();
        assertThat(mapping.database(Namespace.of("lake", "prod", "db"))).isEqualTo("db");
        assertThat(mapping.isDatabase(Namespace.of("lake", "test", "db"))).isFalse();
        assertThat(mapping.isDatabase(Namespace.of("lake", "prod", "db", "nested"))).isFalse();
    }

    @Test
    void withoutABaseADatabaseIsATopLevelNamespaceAndDotsStayInItsName() {
        DatabaseMapping mapping = new DatabaseMapping(Namespace.empty());

        assertThat(mapping.namespace("a.b")).isEqualTo(Namespace.of("a.b"));
        assertThat(mapping.isDatabase(Namespace.of("a.b"))).isTrue();
        assertThat(mapping.isDatabase(Namespace.of("a", "b"))).isFalse();
    }
}
