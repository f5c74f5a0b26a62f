package dev.icebergflink.sink.distribution;

import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.sorted.state.BatchExecutionKeyedStateBackend;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * The pre-write de-duplication of keyed upsert and changelog input: within a checkpoint it keeps
 * only the net change per equality key and emits it just before the checkpoint barrier (in {@link
 * #prepareSnapshotPreBarrier}) and at the end of input.
 *
 * <p>It exists so that the writers need no map of the keys they wrote (such a map grows with every
 * key of a checkpoint and is the memory problem of upsert writers that keep one): with at most one
 * change per key per checkpoint, a writer can write the key's equality delete and its new row into
 * the same commit. The pending changes live in keyed state, so their memory is governed by the
 * state backend: with RocksDB they spill to disk. The state is empty at every checkpoint (it is
 * emitted and cleared before the barrier), so restores start empty.
 *
 * <p>What is kept per key:
 *
 * <ul>
 *   <li>{@link Mode#UPSERT}: the last INSERT, UPDATE_AFTER or DELETE row (UPDATE_BEFORE rows are
 *       dropped). The writer turns it into "delete key, insert row" or "delete key".
 *   <li>{@link Mode#CHANGELOG}: the first retraction (UPDATE_BEFORE/DELETE) that came before any
 *       insert of the key in this checkpoint, which removes the previously committed row, and the
 *       last row. Emitted: that retraction as a DELETE, then the last row if it is an insert.
 *       Retractions of rows inserted within the checkpoint cancel out here.
 * </ul>
 *
 * <p>BATCH jobs use it only with {@code range} distribution or when submitted in AUTOMATIC
 * execution (otherwise the writers resolve repeated keys themselves). In BATCH execution the input
 * arrives sorted by key (and, within a key, by input position: the {@link InputOrderStamper} in
 * front of the keyed exchange makes Flink's unstable sort keep one subtask's changes of a key in
 * order) and the state backend holds one key at a time; then the operator keeps the current key's
 * change in fields and emits it when the key changes and at the end of input.
 *
 * <p>The rows kept are the input objects themselves, unless object reuse is enabled (then they are
 * copied): with object reuse disabled, Flink never reuses an object it has handed to an operator.
 */
@Internal
public final class ChangelogDeduplicator extends AbstractStreamOperator<RowData>
        implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    /** How changes of one key combine. */
    public enum Mode {
        UPSERT,
        CHANGELOG
    }

    private final RowType rowType;
    private final Mode mode;

    private transient RowDataSerializer serializer;
    private transient ValueStateDescriptor<RowData> lastDescriptor;
    private transient ValueState<RowData> last;
    private transient ValueState<RowData> firstRetraction;
    private transient boolean pending;
    private transient boolean batch;
    private transient boolean copyInput;
    private transient Object batchKey;
    private transient RowData batchLast;
    private transient RowData batchFirstRetraction;

    public ChangelogDeduplicator(RowType rowType, Mode mode) {
        this.rowType = Objects.requireNonNull(rowType, "rowType");
        this.mode = Objects.requireNonNull(mode, "mode");
    }

    @Override
    public void open() throws Exception {
        super.open();
        serializer = new RowDataSerializer(rowType);
        KeyedStateBackend<Object> backend = getKeyedStateBackend();
        if (backend == null) {
            throw new IllegalStateException(
                    "The Iceberg sink's de-duplication must run on a keyed stream");
        }
        batch = backend instanceof BatchExecutionKeyedStateBackend;
        copyInput = getExecutionConfig().isObjectReuseEnabled();
        if (batch) {
            // the current key's change lives in fields; keyed states would only be cleared by
            // the backend at every key change
            return;
        }
        lastDescriptor = new ValueStateDescriptor<>("iceberg-last-change", serializer);
        last = getRuntimeContext().getState(lastDescriptor);
        firstRetraction =
                getRuntimeContext()
                        .getState(
                                new ValueStateDescriptor<>(
                                        "iceberg-first-retraction", serializer.duplicate()));
    }

    @Override
    public void processElement(StreamRecord<RowData> element) throws Exception {
        RowData row = element.getValue();
        RowKind kind = row.getRowKind();
        if (mode == Mode.UPSERT && kind == RowKind.UPDATE_BEFORE) {
            return;
        }
        if (batch) {
            processBatch(row, kind);
            return;
        }
        RowData held = hold(row);
        if (mode == Mode.CHANGELOG && isRetraction(kind) && last.value() == null) {
            firstRetraction.update(held);
        }
        last.update(held);
        pending = true;
    }

    private void processBatch(RowData row, RowKind kind) {
        Object key = getCurrentKey();
        if (batchKey != null && !batchKey.equals(key)) {
            emit(batchFirstRetraction, batchLast);
            batchFirstRetraction = null;
            batchLast = null;
        }
        batchKey = key;
        RowData held = hold(row);
        if (mode == Mode.CHANGELOG && isRetraction(kind) && batchLast == null) {
            batchFirstRetraction = held;
        }
        batchLast = held;
    }

    /**
     * The row to keep: the input row itself unless object reuse is enabled. With object reuse
     * disabled (Flink's default) the runtime hands every operator new input objects and never
     * changes them afterwards, so keeping the reference is safe and saves a deep copy per row; with
     * object reuse enabled the runtime may refill the object, so it is copied.
     */
    private RowData hold(RowData row) {
        return copyInput ? serializer.copy(row) : row;
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        flushPending();
    }

    @Override
    public void endInput() throws Exception {
        if (batch) {
            if (batchLast != null) {
                emit(batchFirstRetraction, batchLast);
            }
            batchKey = null;
            batchLast = null;
            batchFirstRetraction = null;
        } else {
            flushPending();
        }
    }

    private void flushPending() throws Exception {
        if (!pending || batch) {
            return;
        }
        getKeyedStateBackend()
                .applyToAllKeys(
                        VoidNamespace.INSTANCE,
                        VoidNamespaceSerializer.INSTANCE,
                        lastDescriptor,
                        (key, state) -> {
                            // the backend has made `key` current, so both states read its values
                            emit(firstRetraction.value(), state.value());
                            firstRetraction.clear();
                            state.clear();
                        });
        pending = false;
    }

    private void emit(RowData retraction, RowData lastRow) {
        if (mode == Mode.CHANGELOG) {
            if (retraction != null) {
                retraction.setRowKind(RowKind.DELETE);
                output.collect(new StreamRecord<>(retraction));
            }
            if (lastRow != null && !isRetraction(lastRow.getRowKind())) {
                output.collect(new StreamRecord<>(lastRow));
            }
        } else if (lastRow != null) {
            output.collect(new StreamRecord<>(lastRow));
        }
    }

    private static boolean isRetraction(RowKind kind) {
        return kind == RowKind.UPDATE_BEFORE || kind == RowKind.DELETE;
    }
}
