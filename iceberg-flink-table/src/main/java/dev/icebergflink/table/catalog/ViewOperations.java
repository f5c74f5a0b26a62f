package dev.icebergflink.table.catalog;

import dev.icebergflink.FlinkSchemaUtil;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogView;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogView;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.catalog.ViewCatalog;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.view.SQLViewRepresentation;
import org.apache.iceberg.view.View;
import org.apache.iceberg.view.ViewBuilder;

/**
 * The view operations of a {@link FlinkCatalog}: Flink views stored as Iceberg views, in Iceberg
 * catalogs that store views (REST, JDBC, Hive, ...).
 *
 * <p>It exists so that a view created in Flink is a view of the catalog that every engine lists,
 * versioned like any Iceberg view, instead of living only in one Flink session. How a Flink view
 * maps to an Iceberg view:
 *
 * <ul>
 *   <li>the query is stored as a SQL representation of dialect {@value #DIALECT}, in the expanded
 *       form Flink produces (every table name fully qualified), with the Flink catalog and the
 *       database as the view's default catalog and namespace; the query as the user wrote it is the
 *       view property {@value #ORIGINAL_QUERY}, so {@code SHOW CREATE VIEW} shows it;
 *   <li>the view's columns are its Iceberg schema; the comment is the property {@code comment}; the
 *       view's options are its other properties;
 *   <li>a view that has no {@value #DIALECT} representation (one created by another engine) is
 *       listed, but reading it fails naming the dialects it has, since Flink cannot run another
 *       engine's SQL reliably.
 * </ul>
 *
 * In catalogs that do not store views (the Hadoop catalog, REST servers without the view
 * endpoints), views list as empty and creating one fails saying where views can be kept instead.
 */
final class ViewOperations {

    /** The SQL dialect of the queries Flink stores. */
    static final String DIALECT = "flink";

    /** The view property with the query as the user wrote it. */
    static final String ORIGINAL_QUERY = "flink.original-query";

    private final CatalogConnection connection;
    private final DatabaseOperations databases;

    ViewOperations(CatalogConnection connection, DatabaseOperations databases) {
        this.connection = connection;
        this.databases = databases;
    }

    /** Whether the Iceberg catalog stores views. */
    boolean supported() {
        return connection.viewsOrNull() != null;
    }

    /** The views of a database; empty where the catalog stores none. */
    List<String> listViews(String databaseName) throws DatabaseNotExistException, CatalogException {
        databases.requireDatabase(databaseName);
        try {
            return connection.viewsIn(connection.databases().namespace(databaseName)).stream()
                    .map(TableIdentifier::name)
                    .collect(Collectors.toList());
        } catch (NoSuchNamespaceException e) {
            throw new DatabaseNotExistException(connection.name(), databaseName, e);
        } catch (RuntimeException e) {
            throw connection.catalogError("list the views of database '" + databaseName + "'", e);
        }
    }

    boolean viewExists(ObjectPath path) {
        ViewCatalog views = connection.viewsOrNull();
        if (views == null) {
            return false;
        }
        try {
            return views.viewExists(connection.databases().identifier(path));
        } catch (UnsupportedOperationException e) {
            return false;
        } catch (RuntimeException e) {
            throw connection.catalogError("check view " + path.getFullName(), e);
        }
    }

    /** The Flink form of the view at {@code path}, or empty when there is none. */
    Optional<CatalogView> getView(ObjectPath path) {
        ViewCatalog views = connection.viewsOrNull();
        if (views == null) {
            return Optional.empty();
        }
        View view;
        try {
            view = views.loadView(connection.databases().identifier(path));
        } catch (NoSuchViewException | UnsupportedOperationException e) {
            return Optional.empty();
        } catch (RuntimeException e) {
            throw connection.catalogError("load view " + path.getFullName(), e);
        }
        SQLViewRepresentation sql = view.sqlFor(DIALECT);
        if (sql == null || !DIALECT.equalsIgnoreCase(sql.dialect())) {
            throw new CatalogException(
                    String.format(
                            "View %s has no Flink SQL: its dialects are %s. Flink reads views"
                                    + " whose query was stored in dialect '%s' (views created in"
                                    + " Flink); recreate the view in Flink, or query its tables.",
                            connection.qualifiedName(path), dialects(view), DIALECT));
        }
        Map<String, String> options = new LinkedHashMap<>(view.properties());
        String comment = options.remove(TableDefinitions.COMMENT);
        String original = options.remove(ORIGINAL_QUERY);
        ResolvedSchema schema = FlinkSchemaUtil.toResolvedSchema(view.schema());
        Schema.Builder unresolved = Schema.newBuilder();
        for (Column column : schema.getColumns()) {
            unresolved.column(column.getName(), column.getDataType());
            column.getComment().ifPresent(unresolved::withComment);
        }
        return Optional.of(
                CatalogView.of(
                        unresolved.build(),
                        comment,
                        original == null ? sql.sql() : original,
                        sql.sql(),
                        options));
    }

    /** {@code CREATE VIEW}. */
    void createView(ObjectPath path, CatalogBaseTable table, boolean ignoreIfExists)
            throws TableAlreadyExistException, DatabaseNotExistException {
        ViewCatalog views = requireViews(path, "create");
        databases.requireDatabase(path.getDatabaseName());
        try {
            builder(views, path, resolved(path, table)).create();
        } catch (AlreadyExistsException e) {
            if (!ignoreIfExists) {
                throw new TableAlreadyExistException(
                        connection.name(), path, orReplaceHint(path, e));
            }
        } catch (NoSuchNamespaceException e) {
            throw new DatabaseNotExistException(connection.name(), path.getDatabaseName(), e);
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            throw new ValidationException(
                    String.format(
                            "Cannot create view %s: %s",
                            connection.qualifiedName(path), e.getMessage()),
                    e);
        } catch (RuntimeException e) {
            throw connection.catalogError("create view " + path.getFullName(), e);
        }
    }

    /**
     * Flink parses {@code CREATE OR REPLACE VIEW} but drops the {@code OR REPLACE} (FLINK-17067, in
     * 1.20 and 2.x alike): the catalog gets the same {@code createTable} call as for {@code CREATE
     * VIEW}, so it cannot replace the view. The error of an existing name says what replaces it.
     */
    private ValidationException orReplaceHint(ObjectPath path, AlreadyExistsException cause) {
        return new ValidationException(
                String.format(
                        "%s already exists. Flink ignores OR REPLACE in CREATE OR REPLACE VIEW;"
                                + " to change a view's query use ALTER VIEW %s AS SELECT ..., which"
                                + " adds a version to the Iceberg view and keeps its history",
                        connection.qualifiedName(path), path.getObjectName()),
                cause);
    }

    /** {@code ALTER VIEW ... AS} and {@code ALTER VIEW ... SET}: a new version of the view. */
    void replaceView(ObjectPath path, CatalogBaseTable table, boolean ignoreIfNotExists)
            throws TableNotExistException {
        ViewCatalog views = requireViews(path, "alter");
        try {
            builder(views, path, resolved(path, table)).replace();
        } catch (NoSuchViewException e) {
            if (!ignoreIfNotExists) {
                throw new TableNotExistException(connection.name(), path, e);
            }
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            throw new ValidationException(
                    String.format(
                            "Cannot alter view %s: %s",
                            connection.qualifiedName(path), e.getMessage()),
                    e);
        } catch (RuntimeException e) {
            throw connection.catalogError("alter view " + path.getFullName(), e);
        }
    }

    /** Drops the view at {@code path}; whether there was one. */
    boolean dropView(ObjectPath path) {
        ViewCatalog views = connection.viewsOrNull();
        if (views == null) {
            return false;
        }
        try {
            return views.dropView(connection.databases().identifier(path));
        } catch (NoSuchViewException | UnsupportedOperationException e) {
            return false;
        } catch (RuntimeException e) {
            throw connection.catalogError("drop view " + path.getFullName(), e);
        }
    }

    /** Renames the view at {@code path} within its database. */
    void renameView(ObjectPath path, String newName) throws TableAlreadyExistException {
        ViewCatalog views = requireViews(path, "rename");
        TableIdentifier from = connection.databases().identifier(path);
        try {
            views.renameView(from, TableIdentifier.of(from.namespace(), newName));
        } catch (AlreadyExistsException e) {
            throw new TableAlreadyExistException(
                    connection.name(), new ObjectPath(path.getDatabaseName(), newName), e);
        } catch (RuntimeException e) {
            throw connection.catalogError("rename view " + path.getFullName(), e);
        }
    }

    private ViewBuilder builder(ViewCatalog views, ObjectPath path, ResolvedCatalogView view) {
        Map<String, String> properties = new HashMap<>(view.getOptions());
        for (String reserved : List.of(TableDefinitions.COMMENT, ORIGINAL_QUERY)) {
            if (properties.containsKey(reserved)) {
                throw new ValidationException(
                        String.format(
                                "Cannot store view %s: option '%s' is reserved (it holds the"
                                        + " view's %s)",
                                connection.qualifiedName(path),
                                reserved,
                                reserved.equals(ORIGINAL_QUERY) ? "query" : "comment"));
            }
        }
        if (view.getComment() != null && !view.getComment().isEmpty()) {
            properties.put(TableDefinitions.COMMENT, view.getComment());
        }
        properties.put(ORIGINAL_QUERY, view.getOriginalQuery());
        org.apache.iceberg.Schema schema;
        try {
            schema = FlinkSchemaUtil.convert(view.getResolvedSchema());
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    String.format(
                            "Cannot store view %s: %s",
                            connection.qualifiedName(path), e.getMessage()),
                    e);
        }
        return views.buildView(connection.databases().identifier(path))
                .withSchema(schema)
                .withQuery(DIALECT, view.getExpandedQuery())
                .withDefaultCatalog(connection.name())
                .withDefaultNamespace(connection.databases().namespace(path.getDatabaseName()))
                .withProperties(properties);
    }

    private ResolvedCatalogView resolved(ObjectPath path, CatalogBaseTable table) {
        if (table instanceof ResolvedCatalogView view) {
            return view;
        }
        throw new ValidationException(
                String.format(
                        "Cannot store view %s: the view definition must be resolved by Flink first"
                                + " (got %s)",
                        connection.qualifiedName(path), table.getClass().getName()));
    }

    private ViewCatalog requireViews(ObjectPath path, String action) {
        ViewCatalog views = connection.viewsOrNull();
        if (views == null) {
            throw new ValidationException(
                    String.format(
                            "Cannot %s view %s: the Iceberg catalog of '%s' (%s) does not store"
                                    + " views. Keep views in a catalog that does (REST, JDBC,"
                                    + " Hive), or create a TEMPORARY VIEW.",
                            action,
                            connection.qualifiedName(path),
                            connection.name(),
                            connection.loader().implementation()));
        }
        return views;
    }

    private static List<String> dialects(View view) {
        return view.currentVersion().representations().stream()
                .filter(SQLViewRepresentation.class::isInstance)
                .map(representation -> ((SQLViewRepresentation) representation).dialect())
                .collect(Collectors.toList());
    }
}
