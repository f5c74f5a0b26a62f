package dev.icebergflink.testing;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;

/**
 * Named Iceberg schemas with explicit field ids, shared by every format's round-trip tests so they
 * all exercise the same type coverage: every primitive, deep and mixed nesting, and the v3
 * nanosecond timestamps.
 */
public final class TestSchemas {

    /** Every Iceberg v2 primitive type as an optional column, plus a few required columns. */
    public static final Schema ALL_PRIMITIVES =
            new Schema(
                    optional(1, "boolean_col", Types.BooleanType.get()),
                    optional(2, "int_col", Types.IntegerType.get()),
                    optional(3, "long_col", Types.LongType.get()),
                    optional(4, "float_col", Types.FloatType.get()),
                    optional(5, "double_col", Types.DoubleType.get()),
                    optional(6, "date_col", Types.DateType.get()),
                    optional(7, "time_col", Types.TimeType.get()),
                    optional(8, "timestamp_col", Types.TimestampType.withoutZone()),
                    optional(9, "timestamptz_col", Types.TimestampType.withZone()),
                    optional(10, "string_col", Types.StringType.get()),
                    optional(11, "uuid_col", Types.UUIDType.get()),
                    optional(12, "fixed_col", Types.FixedType.ofLength(7)),
                    optional(13, "binary_col", Types.BinaryType.get()),
                    optional(14, "decimal_9_2", Types.DecimalType.of(9, 2)),
                    optional(15, "decimal_18_6", Types.DecimalType.of(18, 6)),
                    optional(16, "decimal_38_10", Types.DecimalType.of(38, 10)),
                    required(17, "required_int", Types.IntegerType.get()),
                    required(18, "required_long", Types.LongType.get()),
                    required(19, "required_string", Types.StringType.get()),
                    required(20, "required_timestamptz", Types.TimestampType.withZone()),
                    required(21, "required_decimal", Types.DecimalType.of(38, 10)),
                    required(22, "required_binary", Types.BinaryType.get()));

    /**
     * Nested types: struct in struct, list of structs, map string to struct, list of lists, map of
     * lists, a map with struct keys, five levels of struct nesting ending in a list, and required
     * as well as optional elements/values.
     */
    public static final Schema NESTED =
            new Schema(
                    required(1, "id", Types.LongType.get()),
                    optional(
                            2,
                            "address",
                            Types.StructType.of(
                                    optional(3, "street", Types.StringType.get()),
                                    required(4, "zip", Types.IntegerType.get()),
                                    optional(
                                            5,
                                            "geo",
                                            Types.StructType.of(
                                                    required(6, "lat", Types.DoubleType.get()),
                                                    optional(7, "lon", Types.DoubleType.get()))))),
                    optional(
                            8,
                            "points",
                            Types.ListType.ofOptional(
                                    9,
                                    Types.StructType.of(
                                            required(10, "x", Types.IntegerType.get()),
                                            optional(11, "y", Types.IntegerType.get())))),
                    optional(
                            12,
                            "attributes",
                            Types.MapType.ofOptional(
                                    13,
                                    14,
                                    Types.StringType.get(),
                                    Types.StructType.of(
                                            optional(15, "value", Types.LongType.get()),
                                            optional(16, "note", Types.StringType.get())))),
                    required(
                            17,
                            "matrix",
                            Types.ListType.ofRequired(
                                    18, Types.ListType.ofOptional(19, Types.IntegerType.get()))),
                    optional(
                            20,
                            "tags_by_key",
                            Types.MapType.ofRequired(
                                    21,
                                    22,
                                    Types.StringType.get(),
                                    Types.ListType.ofRequired(23, Types.StringType.get()))),
                    optional(
                            24,
                            "struct_keyed",
                            Types.MapType.ofOptional(
                                    25,
                                    26,
                                    Types.StructType.of(
                                            required(27, "a", Types.IntegerType.get()),
                                            optional(28, "b", Types.StringType.get())),
                                    Types.DecimalType.of(10, 3))),
                    optional(29, "deep", deepStruct()),
                    required(
                            36,
                            "required_ints",
                            Types.ListType.ofRequired(37, Types.IntegerType.get())),
                    optional(
                            38,
                            "date_to_times",
                            Types.MapType.ofRequired(
                                    39,
                                    40,
                                    Types.DateType.get(),
                                    Types.TimestampType.withoutZone())),
                    optional(
                            41, "binaries", Types.ListType.ofOptional(42, Types.BinaryType.get())));

    /** The v3 nanosecond timestamp types, with a key column. */
    public static final Schema V3_PRIMITIVES =
            new Schema(
                    required(1, "id", Types.LongType.get()),
                    optional(2, "timestamp_ns_col", Types.TimestampNanoType.withoutZone()),
                    optional(3, "timestamptz_ns_col", Types.TimestampNanoType.withZone()),
                    required(4, "required_timestamp_ns", Types.TimestampNanoType.withoutZone()));

    /** The v2 schemas above, for parameterized tests. */
    public static List<Schema> v2Schemas() {
        return List.of(ALL_PRIMITIVES, NESTED);
    }

    /** Five levels: deep.level1.level2.level3.{leaf, numbers}. */
    private static Types.StructType deepStruct() {
        Types.StructType level3 =
                Types.StructType.of(
                        optional(33, "leaf", Types.StringType.get()),
                        optional(
                                34,
                                "numbers",
                                Types.ListType.ofOptional(35, Types.LongType.get())));
        Types.StructType level2 = Types.StructType.of(optional(32, "level3", level3));
        Types.StructType level1 = Types.StructType.of(required(31, "level2", level2));
        return Types.StructType.of(optional(30, "level1", level1));
    }

    private TestSchemas() {}
}
