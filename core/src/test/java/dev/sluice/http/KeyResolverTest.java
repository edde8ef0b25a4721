package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeyResolverTest {

    private final KeyResolver byAddress = KeyResolver.clientAddress(ClientAddressResolver.peer());
    private final KeyResolver byPrincipal = KeyResolver.principal(byAddress);

    @Test
    void authenticatedPrincipalIsTheKey() {
        assertEquals("principal:alice", byPrincipal.resolve(TestRequest.from("192.0.2.1").principal("alice")));
    }

    @Test
    void anonymousRequestIsKeyedByItsClient() {
        assertEquals("client:192.0.2.1/32", byPrincipal.resolve(TestRequest.from("192.0.2.1")));
    }

    @Test
    void aPrincipalNamedLikeAnAddressDoesNotShareTheClientsKey() {
        String client = byPrincipal.resolve(TestRequest.from("192.0.2.1"));
        String named = byPrincipal.resolve(TestRequest.from("198.51.100.1").principal("192.0.2.1/32"));
        assertEquals("client:192.0.2.1/32", client);
        assertEquals("principal:192.0.2.1/32", named);
    }

    @Test
    void fiftyMadeUpUserHeadersFromOneClientShareItsKey() {
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            keys.add(byPrincipal.resolve(TestRequest.from("192.0.2.1").header("X-User", "user" + i)));
        }
        assertEquals(Set.of("client:192.0.2.1/32"), keys);
    }

    @Test
    void aTrustedHeaderIsBelievedOnlyFromTheProxiesThatSetIt() {
        ClientAddressResolver proxies = ClientAddressResolver.builder().trustedProxies("10.0.0.0/8").build();
        KeyResolver r = KeyResolver.trustedHeader("X-User", proxies, byAddress);
        assertEquals("header:alice", r.resolve(TestRequest.from("10.0.0.5").header("X-User", "alice")));
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            keys.add(r.resolve(TestRequest.from("192.0.2.1").header("X-User", "user" + i)));
        }
        assertEquals(Set.of("client:192.0.2.1/32"), keys);
        assertEquals("client:10.0.0.5/32", r.resolve(TestRequest.from("10.0.0.5").header("X-User", " ")));
    }

    @Test
    void aTrustedHeaderWithoutAnyTrustedProxyIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KeyResolver.trustedHeader("X-User", ClientAddressResolver.peer(), byAddress));
        assertEquals("trustedHeader(X-User) needs at least one trusted proxy: without one, any client could choose"
                + " its own key", e.getMessage());
    }
}
