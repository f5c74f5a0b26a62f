package dev.icebergflink.data.parquet;

import org.apache.flink.annotation.Internal;
import org.apache.iceberg.Schema;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.InputFile;

/**
 * The filter pushed down to a batched Parquet read, and the file it reads, as the batch reader
 * needs them to skip pages and to filter rows before building them.
 *
 * <p>It exists because Iceberg's batched read path builds the batch reader itself, from the
 * projected schema, the file schema and the constants only: the filter given to the read builder
 * goes to Iceberg's row group filters but never to the reader. Iceberg builds the reader while the
 * read's iterator is created, on the caller's thread; so the read builder {@linkplain #open opens}
 * a scope around that call and the reader picks the pushdown up from it ({@link #current}). Outside
 * such a scope there is none and nothing is pruned.
 */
@Internal
public final class ParquetScanPushdown {

    private static final ThreadLocal<ParquetScanPushdown> CURRENT = new ThreadLocal<>();

    private final Expression filter;
    private final boolean caseSensitive;
    private final InputFile file;

    /** Whether a batch reader has taken this filter to filter its rows exactly. */
    private volatile boolean applied;

    /**
     * @param filter the filter, unbound, as given to the read builder
     * @param caseSensitive whether the filter's column names match case-sensitively
     * @param file the file read
     */
    public ParquetScanPushdown(Expression filter, boolean caseSensitive, InputFile file) {
        this.filter = filter;
        this.caseSensitive = caseSensitive;
        this.file = file;
    }

    Expression filter() {
        return filter;
    }

    boolean caseSensitive() {
        return caseSensitive;
    }

    InputFile file() {
        return file;
    }

    /**
     * {@code filter} bound to the columns of {@code projected}, with its NOTs pushed down to the
     * predicates; null when there is no filter (or it is always true) or when it needs a column the
     * projection lacks. A batched Parquet read with such a filter returns exactly the rows that
     * match it.
     */
    public static Expression bind(Schema projected, Expression filter, boolean caseSensitive) {
        if (filter == null || filter.op() == Expression.Operation.TRUE) {
            return null;
        }
        try {
            return Binder.bind(projected.asStruct(), Expressions.rewriteNot(filter), caseSensitive);
        } catch (ValidationException e) {
            // a column the read does not project: only Iceberg's row group filters can use it
            return null;
        }
    }

    /** Makes this the pushdown of the batch readers built on this thread until the scope closes. */
    public Scope open() {
        ParquetScanPushdown previous = CURRENT.get();
        CURRENT.set(this);
        return () -> {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        };
    }

    /** Notes that a batch reader returns exactly the rows that match this filter. */
    void markApplied() {
        applied = true;
    }

    /**
     * Whether a batch reader built in this pushdown's scope filters its rows exactly; the read
     * builder checks it before its caller relies on it (see {@code RowDataFileReaders}).
     */
    public boolean applied() {
        return applied;
    }

    /** The pushdown of the innermost open scope on this thread, or null. */
    static ParquetScanPushdown current() {
        return CURRENT.get();
    }

    /** An open pushdown scope; closing it restores the previous one. */
    @Internal
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }
}
