package dev.sluice.servlet;

class JettySluiceFilterTest extends SluiceFilterContract {
    @Override
    EmbeddedServer newServer() {
        return new JettyServer();
    }
}
