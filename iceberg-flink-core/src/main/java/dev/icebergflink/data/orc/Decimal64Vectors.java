package dev.icebergflink.data.orc;

import org.apache.orc.storage.ql.exec.vector.ColumnVector;
import org.apache.orc.storage.ql.exec.vector.Decimal64ColumnVector;
import org.apache.orc.storage.ql.exec.vector.DecimalColumnVector;
import org.apache.orc.storage.ql.exec.vector.VectorizedRowBatch;

/**
 * Makes ORC decode the compact decimal columns of a reused row batch as plain longs: it replaces
 * their {@link DecimalColumnVector}s with {@link Decimal64ColumnVector}s between batches.
 *
 * <p>It exists because Iceberg's ORC iterator creates its batch with {@code createRowBatch}, whose
 * decimal vectors hold one {@code HiveDecimalWritable} per value: decoding into those was the most
 * expensive column of a scan (about a fifth of the reader's time for one DECIMAL(10,2) column).
 * ORC's decimal reader fills a {@code Decimal64ColumnVector} from the same stream with a varint
 * read and a multiplication, and the reader writes its long straight into the row.
 *
 * <p>The replacement happens while the first batch's rows are read, so that the second and later
 * batches are decoded into the new vectors. When the file's decimal type differs from the one read
 * (precision widening), ORC converts through a reader that keeps writing into the vector it saw
 * first; the new vector then stays unfilled, which {@link #check} detects after the second batch by
 * the precision ORC sets on every vector it fills, and the original vector is put back.
 */
final class Decimal64Vectors {

    /** The precision of a replacement vector ORC has not filled (ORC sets the file's). */
    private static final short UNFILLED = 0;

    private final int[] columns;
    private final int[] precisions;
    private final int[] scales;
    private final ColumnVector[] originals;
    private final Decimal64ColumnVector[] replacements;
    private boolean checked;

    /**
     * Replacements for the top-level columns {@code columns} (indexes into the batch's columns) of
     * the given compact precisions (at most 18 digits) and scales.
     */
    Decimal64Vectors(int[] columns, int[] precisions, int[] scales) {
        this.columns = columns.clone();
        this.precisions = precisions.clone();
        this.scales = scales.clone();
        this.originals = new ColumnVector[columns.length];
        this.replacements = new Decimal64ColumnVector[columns.length];
    }

    /** Whether there is any column to replace. */
    boolean isEmpty() {
        return columns.length == 0;
    }

    /**
     * Replaces the columns' decimal vectors in {@code batch} for the next batches; the caller keeps
     * reading the current batch from the vectors it had.
     */
    void install(VectorizedRowBatch batch) {
        for (int i = 0; i < columns.length; i++) {
            ColumnVector original = batch.cols[columns[i]];
            if (original instanceof DecimalColumnVector) {
                Decimal64ColumnVector replacement =
                        new Decimal64ColumnVector(original.isNull.length, precisions[i], scales[i]);
                replacement.precision = UNFILLED;
                originals[i] = original;
                replacements[i] = replacement;
                batch.cols[columns[i]] = replacement;
            }
        }
    }

    /**
     * After the first batch decoded into the replacements: puts the original vector back where ORC
     * did not fill the replacement (it converts the file's type through the original vector). Later
     * calls do nothing.
     */
    void check(VectorizedRowBatch batch) {
        if (checked) {
            return;
        }
        checked = true;
        for (int i = 0; i < columns.length; i++) {
            Decimal64ColumnVector replacement = replacements[i];
            if (replacement != null
                    && batch.cols[columns[i]] == replacement
                    && replacement.precision == UNFILLED) {
                batch.cols[columns[i]] = originals[i];
            }
            originals[i] = null;
            replacements[i] = null;
        }
    }
}
