package dev.icebergflink.testing.servers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void handsOutBindablePortsBelowTheEphemeralRange() throws Exception {
        for (int i = 0; i < 20; i++) {
            int port = FreePorts.freePort();
            assertThat(port).isBetween(20_000, 32_767);
            try (ServerSocket socket =
                    new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
                assertThat(socket.getLocalPort()).isEqualTo(port);
            }
        }
    }

    @Test
    void neverHandsOutAPortThatIsTaken() throws Exception {
        int port = FreePorts.freePort();
        try (ServerSocket held = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            assertThatThrownBy(() -> FreePorts.freePortIn(port, port + 1))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("No free port on 127.0.0.1 between " + port);
        }
    }
}
