package dev.icebergflink.table.metadata;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.iceberg.MetadataTableType;

/**
 * A Flink object name that addresses an Iceberg metadata table: {@code table$type}, written with
 * backticks in SQL ({@code SELECT * FROM `orders$snapshots`}).
 *
 * <p>It exists so that the catalog and the table factory parse such names the same way.
 *
 * @param table the name of the table whose metadata is read
 * @param type the metadata table type
 */
@Internal
public record MetadataTableName(String table, MetadataTableType type) {

    /** The separator between the table name and the metadata table type. */
    public static final char SEPARATOR = '$';

    /**
     * The metadata table an object name addresses, or empty when the name has no {@code $type}
     * suffix.
     *
     * @throws IllegalArgumentException when the suffix is no metadata table type, naming the known
     *     types
     */
    public static Optional<MetadataTableName> parse(String objectName) {
        int index = objectName.lastIndexOf(SEPARATOR);
        if (index <= 0 || index == objectName.length() - 1) {
            return Optional.empty();
        }
        String suffix = objectName.substring(index + 1);
        MetadataTableType type = MetadataTableType.from(suffix);
        if (type == null) {
            throw new IllegalArgumentException(
                    String.format(
                            "'%s' names no Iceberg metadata table: '%s' is not one of %s",
                            objectName,
                            suffix,
                            Arrays.stream(MetadataTableType.values())
                                    .map(t -> t.name().toLowerCase(Locale.ROOT))
                                    .toList()));
        }
        return Optional.of(new MetadataTableName(objectName.substring(0, index), type));
    }

    /** The object name, {@code table$type}. */
    public String objectName() {
        return table + SEPARATOR + type.name().toLowerCase(Locale.ROOT);
    }
}
