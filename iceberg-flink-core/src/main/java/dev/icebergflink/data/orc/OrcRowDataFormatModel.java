package dev.icebergflink.data.orc;

import dev.icebergflink.data.row.EngineProjections;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.formats.FormatModel;
import org.apache.iceberg.orc.ORCFormatModel;

/**
 * The ORC {@link FormatModel} for Flink {@link RowData} with engine schema {@link RowType}: plugs
 * {@link OrcRowDataWriter} and {@link OrcRowDataReader} into Iceberg's File Format API, so that
 * writers and readers are obtained through {@code FormatModelRegistry} like Iceberg's own models.
 *
 * <p>The write side takes the Flink row type of the incoming rows as engine schema (null means the
 * Iceberg schema's own Flink type). The read side produces rows of the projected Iceberg schema;
 * its engine projection is not needed, since the Iceberg projection fully determines the Flink
 * values read. Registration is left to the caller ({@code FormatModelRegistry.register}).
 */
@Internal
public final class OrcRowDataFormatModel {

    private OrcRowDataFormatModel() {}

    /** A new ORC format model for {@code RowData}, ready to register. */
    public static FormatModel<RowData, RowType> create() {
        return ORCFormatModel.create(
                RowData.class,
                RowType.class,
                (icebergSchema, orcSchema, rowType) ->
                        OrcRowDataWriter.buildWriter(icebergSchema, orcSchema, rowType),
                (icebergSchema, orcSchema, engineProjection, idToConstant) -> {
                    EngineProjections.requireMatching(engineProjection, icebergSchema);
                    return OrcRowDataReader.buildReader(icebergSchema, orcSchema, idToConstant);
                });
    }
}
