package dev.icebergflink.sink;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.util.SortOrderUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything one sink will do, decided once before the job is built: the resolved write options,
 * the input row type, the equality fields, the {@link WriteModes writer, commit and de-duplication
 * modes}, the static overwrite filter, the distribution and the operator uid suffix.
 *
 * <p>It exists so that options are resolved and rules are checked in exactly one place, whatever
 * the front end: {@link IcebergSink.Builder#resolve()} makes one from its setters, options and the
 * Flink configuration; the SQL sink makes one from the options it resolved while planning. {@link
 * SinkAssembly} then turns it into the sink. Instances are immutable; they are build-time objects
 * and hold the loaded table.
 */
@Internal
public final class SinkPlan {

    private static final Logger LOG = LoggerFactory.getLogger(SinkPlan.class);

    /**
     * What the caller asks of the sink beyond its options.
     *
     * @param inputSchema the Flink schema of the input when it differs from the table's, or null
     * @param equalityFieldColumns the equality field columns, or null/empty for the table's
     *     identifier fields
     * @param insertOnly whether the input is declared insert-only
     * @param staticPartition the static partition to overwrite (identity column -> value), or null
     * @param snapshotProperties extra snapshot-summary properties of every commit
     */
    public record Request(
            ResolvedSchema inputSchema,
            List<String> equalityFieldColumns,
            boolean insertOnly,
            Map<String, String> staticPartition,
            Map<String, String> snapshotProperties) {
        public Request {
            equalityFieldColumns =
                    equalityFieldColumns == null ? List.of() : List.copyOf(equalityFieldColumns);
            staticPartition =
                    staticPartition == null
                            ? null
                            : Collections.unmodifiableMap(new LinkedHashMap<>(staticPartition));
            snapshotProperties =
                    Collections.unmodifiableMap(
                            new LinkedHashMap<>(
                                    snapshotProperties == null ? Map.of() : snapshotProperties));
        }
    }

    private final Table table;
    private final FlinkWriteConf conf;
    private final RowType inputType;
    private final List<Integer> equalityFieldIds;
    private final WriteModes modes;
    private final Expression staticOverwriteFilter;
    private final SortOrder rangeOrder;
    private final String uidSuffix;
    private final Map<String, String> snapshotProperties;

    private SinkPlan(
            Table table,
            FlinkWriteConf conf,
            RowType inputType,
            List<Integer> equalityFieldIds,
            WriteModes modes,
            Expression staticOverwriteFilter,
            Map<String, String> snapshotProperties) {
        this.table = table;
        this.conf = conf;
        this.inputType = inputType;
        this.equalityFieldIds = List.copyOf(equalityFieldIds);
        this.modes = modes;
        this.staticOverwriteFilter = staticOverwriteFilter;
        this.rangeOrder =
                conf.distributionMode() == DistributionMode.RANGE ? rangeOrder(table) : null;
        this.uidSuffix = conf.uidSuffix().isEmpty() ? table.name() : conf.uidSuffix();
        this.snapshotProperties = snapshotProperties;
    }

    /**
     * Checks the request against the options and the table and decides the modes.
     *
     * @param table the loaded table
     * @param conf the resolved write options (a static partition implies overwrite)
     * @param request what the caller asks beyond the options
     * @throws IllegalArgumentException naming the option, column or value at fault ({@link
     *     WriteRuleViolation} for the rules of {@link WriteModeRules})
     */
    public static SinkPlan resolve(Table table, FlinkWriteConf conf, Request request) {
        boolean staticPartition = request.staticPartition() != null;
        WriteModeRules.checkModes(
                conf.overwrite(),
                conf.upsert(),
                conf.upsertUniqueKeys(),
                request.insertOnly(),
                staticPartition);
        RowType inputType = SinkValidation.inputType(table.schema(), request.inputSchema());
        int formatVersion = TableUtil.formatVersion(table);
        List<String> columns = request.equalityFieldColumns();
        List<Integer> equalityIds = SinkValidation.equalityFieldIds(table.schema(), columns);
        if (conf.upsert()) {
            WriteModeRules.checkUpsert(formatVersion, table.schema(), table.spec(), equalityIds);
        } else if (!columns.isEmpty()
                && !table.schema().identifierFieldIds().isEmpty()
                && !table.schema().identifierFieldIds().containsAll(equalityIds)) {
            LOG.info(
                    "Equality field columns {} differ from the identifier fields of table {};"
                            + " using the equality field columns",
                    columns,
                    table.name());
        }
        Expression filter =
                staticPartition
                        ? SinkValidation.staticPartitionFilter(
                                table.schema(), table.spec(), request.staticPartition())
                        : null;
        WriteModes modes =
                WriteModes.decide(
                        conf.overwrite(),
                        staticPartition,
                        request.insertOnly(),
                        conf.upsert(),
                        conf.upsertUniqueKeys(),
                        formatVersion,
                        !equalityIds.isEmpty());
        return new SinkPlan(
                table, conf, inputType, equalityIds, modes, filter, request.snapshotProperties());
    }

    /**
     * The keys of range distribution: the table's sort order, else its partition fields as a sort
     * order (unsorted when the table has neither; the distribution then rejects 'range').
     */
    static SortOrder rangeOrder(Table table) {
        if (table.sortOrder().isSorted()) {
            return table.sortOrder();
        }
        return SortOrderUtil.buildSortOrder(table.schema(), table.spec(), SortOrder.unsorted());
    }

    /** The loaded table. */
    public Table table() {
        return table;
    }

    /** The resolved write options. */
    public FlinkWriteConf writeConf() {
        return conf;
    }

    /** The Flink row type of the input. */
    public RowType inputType() {
        return inputType;
    }

    /** The field ids of the equality fields (empty for none). */
    public List<Integer> equalityFieldIds() {
        return equalityFieldIds;
    }

    /**
     * The equality fields the writers delete by: none when they only append, else {@link
     * #equalityFieldIds()}.
     */
    public List<Integer> deleteKeyIds() {
        return modes.writer().appendsOnly() ? List.of() : equalityFieldIds;
    }

    /** The writer, commit and de-duplication modes. */
    public WriteModes modes() {
        return modes;
    }

    /** The row filter of a static partition overwrite, if one was asked for. */
    public Optional<Expression> staticOverwriteFilter() {
        return Optional.ofNullable(staticOverwriteFilter);
    }

    /** How rows reach the writers. */
    public DistributionMode distributionMode() {
        return conf.distributionMode();
    }

    /** The sort order of range distribution (RANGE only, else null). */
    public SortOrder rangeOrder() {
        return rangeOrder;
    }

    /** The suffix of every operator uid: {@code uid-suffix}, else the table name. */
    public String uidSuffix() {
        return uidSuffix;
    }

    /** Whether the sink's own operators get uids ({@code uid-suffix} was set). */
    public boolean operatorUids() {
        return !conf.uidSuffix().isEmpty();
    }

    /** The extra snapshot-summary properties of every commit. */
    public Map<String, String> snapshotProperties() {
        return snapshotProperties;
    }

    @Override
    public String toString() {
        return "SinkPlan{table="
                + table.name()
                + ", writer="
                + modes.writer()
                + ", commit="
                + modes.commit()
                + ", dedup="
                + modes.dedup()
                + ", equalityFields="
                + Arrays.toString(
                        equalityFieldIds.stream().map(table.schema()::findColumnName).toArray())
                + ", "
                + conf
                + "}";
    }
}
