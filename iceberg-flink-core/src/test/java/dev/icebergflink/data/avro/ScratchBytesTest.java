package dev.icebergflink.data.avro;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.Decoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

class ScratchBytesTest {

    @Test
    void stringsBinariesAndFixedValuesShareOneGrowingArray() throws IOException {
        String small = "small";
        String large = "x".repeat(200);
        byte[] binary = {1, 2, 3};
        byte[] largeBinary = new byte[500];
        Arrays.fill(largeBinary, (byte) 7);
        byte[] fixed = {9, 8, 7, 6};
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        encoder.writeString(small);
        encoder.writeBytes(binary);
        encoder.writeFixed(fixed);
        encoder.writeString(large);
        encoder.writeBytes(largeBinary);
        encoder.writeString(small);
        encoder.writeFixed(fixed);
        encoder.flush();
        Decoder decoder = DecoderFactory.get().binaryDecoder(out.toByteArray(), null);
        ScratchBytes scratch = new ScratchBytes();

        assertThat(readString(scratch, decoder)).isEqualTo(small);
        byte[] first = scratch.array();
        int length = scratch.readBytes(decoder);
        assertThat(scratch.array()).isSameAs(first);
        assertThat(slice(scratch.array(), scratch.offset(), length)).containsExactly(binary);
        scratch.readFixed(decoder, fixed.length);
        assertThat(scratch.array()).isSameAs(first);
        assertThat(slice(scratch.array(), 0, fixed.length)).containsExactly(fixed);

        assertThat(readString(scratch, decoder)).isEqualTo(large);
        length = scratch.readBytes(decoder);
        assertThat(slice(scratch.array(), scratch.offset(), length)).containsExactly(largeBinary);
        byte[] grown = scratch.array();
        assertThat(grown.length).isGreaterThanOrEqualTo(largeBinary.length);

        // once grown, every kind of read stays in the grown array
        assertThat(readString(scratch, decoder)).isEqualTo(small);
        assertThat(scratch.array()).isSameAs(grown);
        scratch.readFixed(decoder, fixed.length);
        assertThat(scratch.array()).isSameAs(grown);
        assertThat(slice(scratch.array(), 0, fixed.length)).containsExactly(fixed);
    }

    private static String readString(ScratchBytes scratch, Decoder decoder) throws IOException {
        int length = scratch.readString(decoder); // before array(): the read may grow it
        return new String(scratch.array(), 0, length, StandardCharsets.UTF_8);
    }

    private static byte[] slice(byte[] bytes, int offset, int length) {
        return Arrays.copyOfRange(bytes, offset, offset + length);
    }
}
