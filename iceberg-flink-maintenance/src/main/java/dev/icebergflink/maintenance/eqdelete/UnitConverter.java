package dev.icebergflink.maintenance.eqdelete;

import dev.icebergflink.tasks.codec.TableMetadataLookup;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.DeleteLoader;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.encryption.EncryptingFileIO;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;

/**
 * Converts one serialized {@link ConversionUnit}: loads its equality deletes ({@link
 * EqualityKeys}), finds the rows they delete in each data file ({@link DeletedRowFinder}) and
 * writes those positions ({@link ConvertedDeletesWriter}); returns the serialized {@link
 * ConvertedDeletes}. A unit that fails removes the files it wrote before the failure is passed on.
 */
@Internal
public final class UnitConverter {

    private final Table table;
    private final int subtask;
    private final int attempt;

    /**
     * @param table the table, as of the unit's planning or newer
     * @param subtask the converting subtask (part of the new files' names)
     * @param attempt the converting attempt (part of the new files' names)
     */
    public UnitConverter(Table table, int subtask, int attempt) {
        this.table = table;
        this.subtask = subtask;
        this.attempt = attempt;
    }

    /** The serializer of units, shared by the planner and the workers. */
    public static ConversionUnitSerializer unitSerializer(Table table) {
        return new ConversionUnitSerializer(TableMetadataLookup.of(table));
    }

    /** Converts one serialized unit; returns its serialized result. */
    public byte[] convert(byte[] serializedUnit) throws Exception {
        ConversionUnit unit =
                SimpleVersionedSerialization.readVersionAndDeSerialize(
                        unitSerializer(table), serializedUnit);
        ConvertedDeletes result = convert(unit);
        return SimpleVersionedSerialization.writeVersionAndSerialize(
                new ConvertedDeletesSerializer(table.specs()), result);
    }

    /** Converts one unit. */
    public ConvertedDeletes convert(ConversionUnit unit) throws Exception {
        if (unit.dataFiles().isEmpty() || unit.equalityDeletes().isEmpty()) {
            return ConvertedDeletes.NONE;
        }
        EncryptingFileIO io = EncryptingFileIO.combine(table.io(), table.encryption());
        DeleteLoader loader = new BaseDeleteLoader(io::newInputFile);
        Schema rowSchema =
                DeletedRowFinder.rowSchema(
                        EqualityKeys.columns(unit.equalityDeletes(), table.schema()));
        EqualityKeys keys =
                EqualityKeys.load(unit.equalityDeletes(), table.schema(), rowSchema, loader);
        DeletedRowFinder finder = new DeletedRowFinder(table, rowSchema, keys, nameMapping());
        List<FileDeletes> found = new ArrayList<>();
        for (FileScanTask task : unit.dataFiles()) {
            if (DeletedRowFinder.dataSequenceNumber(task) >= keys.maxSequenceNumber()) {
                continue;
            }
            PositionDeleteIndex existing =
                    task.deletes().isEmpty()
                            ? PositionDeleteIndex.empty()
                            : loader.loadPositionDeletes(task.deletes(), task.file().location());
            FileDeletes deletes = finder.find(task, existing);
            if (deletes.positions().length > 0) {
                found.add(deletes);
            }
        }
        ConvertedDeletesWriter writer = new ConvertedDeletesWriter(table, subtask, attempt);
        try {
            return writer.write(found);
        } catch (Exception e) {
            writer.abort(e);
            throw e;
        }
    }

    private NameMapping nameMapping() {
        String json = table.properties().get(TableProperties.DEFAULT_NAME_MAPPING);
        return json == null ? null : NameMappingParser.fromJson(json);
    }
}
