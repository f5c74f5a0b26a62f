package dev.icebergflink.data.row;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.junit.jupiter.api.Test;

class StringDataArenaTest {

    @Test
    void stringsKeepTheirValuesWhenTheSourceBufferIsOverwritten() {
        StringDataArena arena = new StringDataArena();
        byte[] buffer = new byte[64];
        List<String> expected = new ArrayList<>();
        List<StringData> strings = new ArrayList<>();
        Random random = new Random(7);
        // enough strings to fill several chunks, with short, empty, multi-byte and long values
        for (int i = 0; i < 2000; i++) {
            String value = value(random, i);
            byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
            if (buffer.length < utf8.length + 3) {
                buffer = new byte[utf8.length + 3];
            }
            System.arraycopy(utf8, 0, buffer, 3, utf8.length);
            strings.add(arena.copyOf(buffer, 3, utf8.length));
            expected.add(value);
            Arrays.fill(buffer, (byte) 'x');
        }
        for (int i = 0; i < strings.size(); i++) {
            assertThat(strings.get(i).toString()).as("string %d", i).isEqualTo(expected.get(i));
            assertThat(strings.get(i)).isEqualTo(StringData.fromString(expected.get(i)));
            assertThat(strings.get(i).hashCode())
                    .isEqualTo(StringData.fromString(expected.get(i)).hashCode());
        }
    }

    @Test
    void copiesOfSharedStringsOwnExactlyTheirBytes() {
        StringDataArena arena = new StringDataArena();
        arena.copyOf(bytes("first"), 0, 5);
        BinaryStringData second = (BinaryStringData) arena.copyOf(bytes("second"), 0, 6);

        BinaryStringData copy = second.copy();

        assertThat(copy.toBytes()).isEqualTo(bytes("second"));
        assertThat(copy.getOffset()).isZero();
        assertThat(copy.getSegments()[0].size()).isEqualTo(6);
    }

    @Test
    void readsHeapAndDirectBuffersWithoutMovingThem() {
        StringDataArena arena = new StringDataArena();
        ByteBuffer heap = ByteBuffer.wrap(bytes("--category-7--"), 2, 10).slice();
        ByteBuffer direct = ByteBuffer.allocateDirect(600);
        String longValue = "d".repeat(StringDataArena.MAX_SHARED_LENGTH + 5);
        direct.put(bytes(longValue)).flip();

        assertThat(arena.copyOf(heap).toString()).isEqualTo("category-7");
        assertThat(arena.copyOf(direct).toString()).isEqualTo(longValue);
        assertThat(heap.remaining()).isEqualTo(10);
        assertThat(direct.remaining()).isEqualTo(longValue.length());
        ByteBuffer shortDirect = ByteBuffer.allocateDirect(8);
        shortDirect.put(bytes("héllo")).flip();
        assertThat(arena.copyOf(shortDirect).toString()).isEqualTo("héllo");
    }

    private static String value(Random random, int i) {
        switch (i % 4) {
            case 0:
                return "";
            case 1:
                return "naïve-€-" + random.nextInt(1000);
            case 2:
                return "x".repeat(StringDataArena.MAX_SHARED_LENGTH + random.nextInt(50));
            default:
                return "s" + "y".repeat(random.nextInt(StringDataArena.MAX_SHARED_LENGTH));
        }
    }

    private static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }
}
