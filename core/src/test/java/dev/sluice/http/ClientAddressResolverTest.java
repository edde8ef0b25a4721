package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.http.ClientAddressResolver.ForwardedHeader;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClientAddressResolverTest {

    private final ClientAddressResolver peer = ClientAddressResolver.peer();
    private final ClientAddressResolver behindXff = ClientAddressResolver.builder()
            .trustedProxies("10.0.0.0/8", "2001:db8:ffff::/48").forwardedHeader(ForwardedHeader.X_FORWARDED_FOR).build();
    private final ClientAddressResolver behindForwarded = ClientAddressResolver.builder()
            .trustedProxies("10.0.0.0/8").forwardedHeader(ForwardedHeader.FORWARDED).build();

    @Test
    void ipv4ClientIsOneAddressByDefault() {
        assertEquals("client:203.0.113.7/32", peer.resolve(TestRequest.from("203.0.113.7")));
    }

    @Test
    void ipv6ClientsOfOneSlash64ShareAKey() {
        String a = peer.resolve(TestRequest.from("2001:db8:1:2:aaaa::1"));
        String b = peer.resolve(TestRequest.from("2001:db8:1:2:ffff:ffff:ffff:ffff"));
        assertEquals("client:2001:db8:1:2:0:0:0:0/64", a);
        assertEquals(a, b);
        assertNotEquals(a, peer.resolve(TestRequest.from("2001:db8:1:3::1")));
    }

    @Test
    void prefixesAreConfigurable() {
        ClientAddressResolver wide = ClientAddressResolver.builder().ipv4Prefix(24).ipv6Prefix(56).build();
        assertEquals("client:203.0.113.0/24", wide.resolve(TestRequest.from("203.0.113.200")));
        assertEquals("client:2001:db8:1:200:0:0:0:0/56", wide.resolve(TestRequest.from("2001:db8:1:2ff::9")));
    }

    @Test
    void ipv4MappedIpv6IsTheIpv4Client() {
        assertEquals("client:192.0.2.9/32", peer.resolve(TestRequest.from("::ffff:192.0.2.9")));
        assertEquals("client:192.0.2.9/32", peer.resolve(TestRequest.from("[::ffff:c000:209]")));
    }

    @Test
    void forwardingHeaderFromAnUntrustedPeerIsIgnored() {
        TestRequest spoofed = TestRequest.from("203.0.113.7").header("X-Forwarded-For", "198.51.100.1");
        assertEquals("client:203.0.113.7/32", behindXff.resolve(spoofed));
        TestRequest spoofedForwarded = TestRequest.from("203.0.113.7").header("Forwarded", "for=198.51.100.1");
        assertEquals("client:203.0.113.7/32", behindForwarded.resolve(spoofedForwarded));
    }

    @Test
    void behindATrustedProxyTheRightMostUntrustedAddressIsTheClient() {
        // The client sent "1.1.1.1" itself; the proxies appended what they saw.
        TestRequest r = TestRequest.from("10.0.0.2").header("X-Forwarded-For", "1.1.1.1, 198.51.100.4, 10.0.0.9");
        assertEquals("client:198.51.100.4/32", behindXff.resolve(r));
    }

    @Test
    void everyFieldLineOfTheHeaderIsOneList() {
        TestRequest r = TestRequest.from("10.0.0.2").header("X-Forwarded-For", "1.1.1.1")
                .header("X-Forwarded-For", "198.51.100.4:5555");
        assertEquals("client:198.51.100.4/32", behindXff.resolve(r));
    }

    @Test
    void fiftySpoofedForwardedChainsFromOneClientShareItsKey() {
        for (int i = 0; i < 50; i++) {
            TestRequest r = TestRequest.from("10.0.0.2").header("X-Forwarded-For", "198.51.100." + i + ", 203.0.113.7");
            assertEquals("client:203.0.113.7/32", behindXff.resolve(r));
        }
    }

    @Test
    void forwardedForParsesQuotedIpv6WithPortAndOtherParameters() {
        TestRequest r = TestRequest.from("10.1.1.1").header("Forwarded",
                "for=1.1.1.1;proto=https, For=\"[2001:db8:cafe::17]:4711\";by=10.1.1.1");
        assertEquals("client:2001:db8:cafe:0:0:0:0:0/64", behindForwarded.resolve(r));
    }

    @Test
    void anEntryThatIsNotAnAddressStopsAtTheProxyThatReportedIt() {
        TestRequest unknown = TestRequest.from("10.1.1.1").header("Forwarded", "for=1.1.1.1, for=unknown");
        assertEquals("client:10.1.1.1/32", behindForwarded.resolve(unknown));
        TestRequest name = TestRequest.from("10.1.1.1").header("X-Forwarded-For", "1.1.1.1, evil.example");
        assertEquals("client:10.1.1.1/32", behindXff.resolve(name));
    }

    @Test
    void aChainOfOnlyTrustedProxiesEndsAtItsLeftMostHop() {
        TestRequest r = TestRequest.from("10.0.0.2").header("X-Forwarded-For", "10.0.0.3, 10.0.0.4");
        assertEquals("client:10.0.0.3/32", behindXff.resolve(r));
    }

    @Test
    void trustedIpv6ProxyRangeIsHonoured() {
        TestRequest r = TestRequest.from("2001:db8:ffff:1::1").header("X-Forwarded-For", "[2001:db8:1:2::5]");
        assertEquals("client:2001:db8:1:2:0:0:0:0/64", behindXff.resolve(r));
        assertTrue(behindXff.isTrusted("2001:db8:ffff::"));
        assertFalse(behindXff.isTrusted("2001:db8:fffe::"));
    }

    @Test
    void byteResolutionAllocatesNoKeyAndMasksInPlace() {
        byte[] out = new byte[16];
        int len = behindXff.resolve("10.0.0.2", List.of("198.51.100.4"), out);
        assertEquals(4, len);
        assertEquals((byte) 198, out[0]);
        assertEquals((byte) 4, out[3]);
    }

    @Test
    void badConfigurationFailsNamingTheField() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClientAddressResolver.builder().ipv6Prefix(129));
        assertEquals("ipv6Prefix must be 16 to 128 bits, was 129", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ClientAddressResolver.builder().trustedProxies("10/8"));
        assertThrows(IllegalArgumentException.class, () -> ClientAddressResolver.builder().trustedProxies("10.0.0.0/33"));
        assertThrows(IllegalArgumentException.class,
                () -> ClientAddressResolver.builder().forwardedHeader(ForwardedHeader.FORWARDED).build());
    }

    @Test
    void literalsOnlyAreAddresses() {
        byte[] out = new byte[16];
        assertEquals(IpAddresses.INVALID, IpAddresses.parse("localhost", out));
        assertEquals(IpAddresses.INVALID, IpAddresses.parse("01.2.3.4", out));
        assertEquals(IpAddresses.INVALID, IpAddresses.parse("1.2.3.256", out));
        assertEquals(IpAddresses.INVALID, IpAddresses.parse("1::2::3", out));
        assertEquals(IpAddresses.INVALID, IpAddresses.parse("1:2:3:4:5:6:7:8:9", out));
        assertEquals(16, IpAddresses.parse("fe80::1%eth0", out));
        assertEquals(16, IpAddresses.parse("::", out));
        assertEquals(16, IpAddresses.parse("1:2:3:4:5:6:7:8", out));
    }
}
