package dev.icebergflink.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Seeded random Iceberg schemas for property-style round trips: a random mix of every primitive
 * type, structs, lists and maps nested up to three levels deep, with random required/optional
 * fields, elements and values. Field ids are assigned in creation order starting at 1.
 */
public final class RandomSchemaGenerator {

    private static final int MAX_DEPTH = 3;

    private static final Type[] V2_PRIMITIVES = {
        Types.BooleanType.get(),
        Types.IntegerType.get(),
        Types.LongType.get(),
        Types.FloatType.get(),
        Types.DoubleType.get(),
        Types.DateType.get(),
        Types.TimeType.get(),
        Types.TimestampType.withoutZone(),
        Types.TimestampType.withZone(),
        Types.StringType.get(),
        Types.UUIDType.get(),
        Types.FixedType.ofLength(7),
        Types.BinaryType.get(),
        Types.DecimalType.of(9, 2),
        Types.DecimalType.of(18, 6),
        Types.DecimalType.of(38, 10)
    };

    private static final Type[] V3_ONLY_PRIMITIVES = {
        Types.TimestampNanoType.withoutZone(), Types.TimestampNanoType.withZone()
    };

    /** Map key types: primitives with value equality that every file format can use as a key. */
    private static final Type[] KEY_TYPES = {
        Types.StringType.get(),
        Types.IntegerType.get(),
        Types.LongType.get(),
        Types.DateType.get(),
        Types.UUIDType.get(),
        Types.DecimalType.of(9, 2)
    };

    private final Random random;
    private final Type[] primitives;
    private int nextId = 1;

    private RandomSchemaGenerator(long seed, boolean includeV3Types) {
        this.random = new Random(seed);
        List<Type> types = new ArrayList<>(List.of(V2_PRIMITIVES));
        if (includeV3Types) {
            types.addAll(List.of(V3_ONLY_PRIMITIVES));
        }
        this.primitives = types.toArray(new Type[0]);
    }

    /** A random schema of 4 to 12 top-level v2 columns. */
    public static Schema generate(long seed) {
        Random sizes = new Random(seed ^ 0x5DEECE66DL);
        return generate(seed, 4 + sizes.nextInt(9), false);
    }

    /**
     * A random schema of {@code columns} top-level columns, optionally using v3-only types
     * (timestamp_ns).
     */
    public static Schema generate(long seed, int columns, boolean includeV3Types) {
        RandomSchemaGenerator generator = new RandomSchemaGenerator(seed, includeV3Types);
        List<Types.NestedField> fields = new ArrayList<>();
        for (int i = 0; i < columns; i++) {
            fields.add(generator.field("col_" + i, 0));
        }
        return new Schema(fields);
    }

    private Types.NestedField field(String name, int depth) {
        int id = nextId++;
        return Types.NestedField.of(id, random.nextBoolean(), name, type(depth));
    }

    private Type type(int depth) {
        if (depth >= MAX_DEPTH || random.nextInt(10) < 6) {
            return primitives[random.nextInt(primitives.length)];
        }
        switch (random.nextInt(3)) {
            case 0:
                {
                    int count = 1 + random.nextInt(4);
                    List<Types.NestedField> fields = new ArrayList<>();
                    for (int i = 0; i < count; i++) {
                        fields.add(field("f_" + i, depth + 1));
                    }
                    return Types.StructType.of(fields);
                }
            case 1:
                {
                    int elementId = nextId++;
                    Type element = type(depth + 1);
                    return random.nextBoolean()
                            ? Types.ListType.ofOptional(elementId, element)
                            : Types.ListType.ofRequired(elementId, element);
                }
            default:
                {
                    int keyId = nextId++;
                    int valueId = nextId++;
                    Type key = KEY_TYPES[random.nextInt(KEY_TYPES.length)];
                    Type value = type(depth + 1);
                    return random.nextBoolean()
                            ? Types.MapType.ofOptional(keyId, valueId, key, value)
                            : Types.MapType.ofRequired(keyId, valueId, key, value);
                }
        }
    }
}
