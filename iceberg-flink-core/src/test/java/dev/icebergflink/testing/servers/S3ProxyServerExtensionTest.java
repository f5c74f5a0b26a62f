package dev.icebergflink.testing.servers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;

class S3ProxyServerExtensionTest {

    @RegisterExtension static final S3ProxyServerExtension S3 = new S3ProxyServerExtension();

    @Test
    void putAndGetAnObjectThatIsAPlainFileUnderTheBasedir() throws IOException {
        S3.createBucket("fixture");
        S3.client()
                .putObject(
                        request -> request.bucket("fixture").key("dir/hello.txt"),
                        RequestBody.fromString("hello s3", StandardCharsets.UTF_8));

        String got =
                S3.client()
                        .getObjectAsBytes(request -> request.bucket("fixture").key("dir/hello.txt"))
                        .asUtf8String();
        assertThat(got).isEqualTo("hello s3");
        assertThat(S3.objectFile("fixture", "dir/hello.txt")).hasContent("hello s3");
        assertThat(S3.endpoint()).matches("http://127\\.0\\.0\\.1:\\d+");
    }

    @Test
    void icebergS3FileIoWritesAndReadsThroughTheServer() throws IOException {
        S3.createBucket("iceberg");
        try (S3FileIO io = new S3FileIO()) {
            io.initialize(S3.icebergProperties("iceberg"));
            OutputFile out = io.newOutputFile("s3://iceberg/warehouse/db/t/data/file.txt");
            try (OutputStream stream = out.create()) {
                stream.write("via S3FileIO".getBytes(StandardCharsets.UTF_8));
            }
            InputFile in = io.newInputFile("s3://iceberg/warehouse/db/t/data/file.txt");
            assertThat(in.getLength()).isEqualTo(12);
            try (InputStream stream = in.newStream()) {
                assertThat(new String(stream.readAllBytes(), StandardCharsets.UTF_8))
                        .isEqualTo("via S3FileIO");
            }
            assertThat(Files.readString(S3.objectFile("iceberg", "warehouse/db/t/data/file.txt")))
                    .isEqualTo("via S3FileIO");

            io.deleteFile("s3://iceberg/warehouse/db/t/data/file.txt");
            assertThat(S3.objectFile("iceberg", "warehouse/db/t/data/file.txt")).doesNotExist();
        }
    }
}
